/* rm [-rf] PATH...: remove files; -r whole trees, -f quiet about missing ones. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

static int collect_name(void *ctx, const char *name, enum sh_ftype type)
{
	if (strcmp(name, ".") && strcmp(name, ".."))
		sh_argv_push(ctx, kstrdup(name, GFP_KERNEL));
	return 0;
}

static int remove_tree(const char *path, int depth)
{
	struct sh_argv names = { 0 };
	int err;

	if (depth > 32)
		return -ELOOP;
	err = sh_os->readdir(path, collect_name, &names);
	for (int i = 0; !err && i < names.argc; i++) {
		struct sh_buf child = { 0 };
		struct sh_stat st;

		sh_buf_printf(&child, "%s/%s", path, names.argv[i]);
		if (!child.s)
			err = -ENOMEM;
		else if (!(err = sh_os->lstat(child.s, &st)))
			err = st.type == SH_FT_DIR ? remove_tree(child.s, depth + 1) : sh_os->unlink(child.s);
		if (err)
			sh_eprintf("rm: %s: %s\n", child.s ? child.s : path, errno_text(-err));
		sh_buf_free(&child);
	}
	sh_argv_free(&names);
	return err ? err : sh_os->rmdir(path);
}

int cmd_rm(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	bool recursive = false, force = false;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "rRf")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'f')
			force = true;
		else
			recursive = true;
	}
	for (int i = g.ind; i < argc; i++) {
		struct sh_stat st;
		/* A link goes, never what it points to. */
		int err = sh_os->lstat(argv[i], &st);

		if (!err && st.type == SH_FT_DIR)
			err = recursive ? remove_tree(argv[i], 0) : -EISDIR;
		else if (!err)
			err = sh_os->unlink(argv[i]);
		if (err && !(force && err == -ENOENT)) {
			sh_eprintf("rm: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}
