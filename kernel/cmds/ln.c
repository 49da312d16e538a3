/*
 * ln -s [-f] TARGET LINK: a symbolic link LINK (or DIR/basename of TARGET
 * when LINK is a directory) holding TARGET; -f replaces an existing LINK.
 * The file systems have no hard links, so -s is required.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_buf.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

int cmd_ln(int argc, char **argv, char **envp)
{
	bool symbolic = false, force = false;
	struct sh_getopt g = { 0 };
	struct sh_buf path = { 0 };
	const char *target, *base;
	struct sh_stat st;
	int c, err;

	while ((c = sh_getopt(&g, argc, argv, "sf")) != -1) {
		if (c == '?')
			return 1;
		symbolic |= c == 's';
		force |= c == 'f';
	}
	if (argc - g.ind != 2) {
		sh_eprintf("ln: usage: ln -s [-f] TARGET LINK\n");
		return 1;
	}
	if (!symbolic) {
		sh_eprintf("ln: hard links are not supported: use ln -s\n");
		return 1;
	}
	target = argv[g.ind];
	sh_buf_puts(&path, argv[g.ind + 1]);
	if (!sh_os->stat(path.s, &st) && st.type == SH_FT_DIR) {
		base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
		sh_buf_printf(&path, "/%s", base);
	}
	if (path.oom) {
		sh_buf_free(&path);
		sh_eprintf("ln: %s\n", errno_text(ENOMEM));
		return 1;
	}
	err = sh_os->symlink(target, path.s);
	if (err == -EEXIST && force) {
		err = sh_os->unlink(path.s);
		if (!err)
			err = sh_os->symlink(target, path.s);
	}
	if (err)
		sh_eprintf("ln: %s: %s\n", path.s, errno_text(-err));
	sh_buf_free(&path);
	return err ? 1 : 0;
}
