/* cat [FILE]...: copy files (or stdin, or "-") to stdout. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

/* Copy fd to stdout; 0, or the -errno of a failed read (> 0 on a failed write). */
static int copy_fd(int fd, const char *name)
{
	char buf[1024];

	for (;;) {
		ssize_t n = sh_os->read(fd, buf, sizeof(buf));
		int err;

		if (n < 0) {
			sh_eprintf("cat: %s: %s\n", name, errno_text((int)-n));
			return 1;
		}
		if (n == 0)
			return 0;
		err = sh_write_all(1, buf, (size_t)n);
		if (err) {
			if (err != -EPIPE)
				sh_eprintf("cat: write error: %s\n", errno_text(-err));
			return 2;
		}
	}
}

int cmd_cat(int argc, char **argv, char **envp)
{
	int status = 0;

	if (argc == 1)
		return copy_fd(0, "-") ? 1 : 0;
	for (int i = 1; i < argc; i++) {
		int fd = sh_open_input("cat", argv[i]), r;

		if (fd < 0) {
			status = 1;
			continue;
		}
		r = copy_fd(fd, argv[i]);
		sh_os->close(fd);
		if (r == 2)
			return 1;
		if (r)
			status = 1;
		if (sh_os->interrupted())
			return 130;
	}
	return status;
}
