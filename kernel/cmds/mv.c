/* mv SRC DEST, mv SRC... DIR: rename files and directories. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_buf.h>

int cmd_mv(int argc, char **argv, char **envp)
{
	const char *dest = argv[argc - 1];
	struct sh_stat st;
	bool to_dir;
	int status = 0;

	if (argc < 3) {
		sh_eprintf("mv: usage: mv SRC... DEST\n");
		return 2;
	}
	to_dir = !sh_os->stat(dest, &st) && st.type == SH_FT_DIR;
	if (argc > 3 && !to_dir) {
		sh_eprintf("mv: %s: %s\n", dest, errno_text(ENOTDIR));
		return 1;
	}
	for (int i = 1; i < argc - 1; i++) {
		struct sh_buf path = { 0 };
		const char *base = strrchr(argv[i], '/');
		int err;

		if (to_dir)
			sh_buf_printf(&path, "%s/%s", dest, base ? base + 1 : argv[i]);
		else
			sh_buf_puts(&path, dest);
		err = path.s ? sh_os->rename(argv[i], path.s) : -ENOMEM;
		if (err) {
			sh_eprintf("mv: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
		sh_buf_free(&path);
	}
	return status;
}
