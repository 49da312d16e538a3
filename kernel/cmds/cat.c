/* cat [FILE]...: copy files (or stdin, or "-") to stdout. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

/* Copy fd to stdout: 0; 1 after a read error, 2 after a write error, 3 if interrupted. */
static int copy_fd(int fd, const char *name)
{
	char buf[1024];

	for (;;) {
		ssize_t n;
		int err;

		/* Ctrl-C: a huge file (a full trace buffer) must not play out first. */
		if (sh_os->interrupted())
			return 3;
		n = sh_os->read(fd, buf, sizeof(buf));
		if (n == -EINTR)
			return 3;	/* Ctrl-C while waiting (trace_pipe): no message */
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

	if (argc == 1) {
		int r = copy_fd(0, "-");

		return r == 3 ? 130 : r ? 1 : 0;
	}
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
		if (r == 3)
			return 130;
		if (r)
			status = 1;
		if (sh_os->interrupted())
			return 130;
	}
	return status;
}
