/* cp SRC DEST, cp SRC... DIR: copy regular files. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>

static int copy_file(const char *src, const char *dst)
{
	int in = sh_os->open(src, SH_O_RDONLY, 0), out, err = 0;
	char buf[1024];
	ssize_t n;

	if (in < 0) {
		sh_eprintf("cp: %s: %s\n", src, errno_text(-in));
		return 1;
	}
	out = sh_os->open(dst, SH_O_WRONLY | SH_O_CREAT | SH_O_TRUNC, 0644);
	if (out < 0) {
		sh_eprintf("cp: %s: %s\n", dst, errno_text(-out));
		sh_os->close(in);
		return 1;
	}
	while ((n = sh_os->read(in, buf, sizeof(buf))) > 0 && !(err = sh_write_all(out, buf, (size_t)n)))
		;
	if (n < 0 || err)
		sh_eprintf("cp: %s: %s\n", n < 0 ? src : dst, errno_text(n < 0 ? (int)-n : -err));
	sh_os->close(in);
	sh_os->close(out);
	return n < 0 || err;
}

int cmd_cp(int argc, char **argv, char **envp)
{
	const char *dest = argv[argc - 1];
	struct sh_stat st;
	bool to_dir;
	int status = 0;

	if (argc < 3) {
		sh_eprintf("cp: usage: cp SRC... DEST\n");
		return 2;
	}
	to_dir = !sh_os->stat(dest, &st) && st.type == SH_FT_DIR;
	if (argc > 3 && !to_dir) {
		sh_eprintf("cp: %s: %s\n", dest, errno_text(ENOTDIR));
		return 1;
	}
	for (int i = 1; i < argc - 1; i++) {
		struct sh_buf path = { 0 };
		const char *base = strrchr(argv[i], '/');

		if (to_dir)
			sh_buf_printf(&path, "%s/%s", dest, base ? base + 1 : argv[i]);
		else
			sh_buf_puts(&path, dest);
		status |= path.s ? copy_file(argv[i], path.s) : 1;
		sh_buf_free(&path);
	}
	return status;
}
