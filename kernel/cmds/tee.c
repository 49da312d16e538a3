/* tee [-a] [FILE]...: copy stdin to stdout and to each file. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define TEE_MAX_FILES	16

int cmd_tee(int argc, char **argv, char **envp)
{
	int fds[TEE_MAX_FILES + 1], nfds = 1, c, status = 0, flags = SH_O_WRONLY | SH_O_CREAT;
	struct sh_getopt g = { 0 };
	char buf[1024];
	ssize_t n;

	while ((c = sh_getopt(&g, argc, argv, "a")) != -1) {
		if (c == '?')
			return 2;
		flags |= SH_O_APPEND;
	}
	if (!(flags & SH_O_APPEND))
		flags |= SH_O_TRUNC;
	fds[0] = 1;
	for (int i = g.ind; i < argc; i++) {
		int fd;

		if (nfds > TEE_MAX_FILES) {
			sh_eprintf("tee: too many files\n");
			status = 1;
			break;
		}
		fd = sh_os->open(argv[i], flags, 0644);
		if (fd < 0) {
			sh_eprintf("tee: %s: %s\n", argv[i], errno_text(-fd));
			status = 1;
			continue;
		}
		fds[nfds++] = fd;
	}
	while ((n = sh_os->read(0, buf, sizeof(buf))) > 0) {
		for (int i = 0; i < nfds; i++) {
			int err;

			if (fds[i] < 0)
				continue;
			err = sh_write_all(fds[i], buf, (size_t)n);
			if (err) {
				sh_eprintf("tee: %s: %s\n", i ? argv[g.ind + i - 1] : "standard output",
					   errno_text(-err));
				status = 1;
				fds[i] = -1;
			}
		}
	}
	for (int i = 1; i < nfds; i++)
		if (fds[i] >= 0)
			sh_os->close(fds[i]);
	return status;
}
