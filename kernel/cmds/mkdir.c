/* mkdir [-p] DIR...: make directories; -p makes missing parents and accepts existing ones. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* mkdir -p: every missing component, no error if it exists. */
static int mkdir_parents(const char *path)
{
	char *p = kstrdup(path, GFP_KERNEL);
	int err = 0;

	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char save = *s;
			struct sh_stat st;

			*s = '\0';
			err = sh_os->mkdir(p, 0755);
			if (err == -EEXIST && !sh_os->stat(p, &st) && st.type == SH_FT_DIR)
				err = 0;
			*s = save;
			if (err || !save)
				break;
		}
	}
	kfree(p);
	return err;
}

int cmd_mkdir(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	bool parents = false;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "p")) != -1) {
		if (c == '?')
			return 2;
		parents = true;
	}
	for (int i = g.ind; i < argc; i++) {
		int err = parents ? mkdir_parents(argv[i]) : sh_os->mkdir(argv[i], 0755);

		if (err) {
			sh_eprintf("mkdir: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}
