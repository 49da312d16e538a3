/* dmesg: the kernel log. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_dmesg(int argc, char **argv, char **envp)
{
	char buf[1024];
	u64 pos = 0;
	ssize_t n;

	while ((n = sh_os->log_read(&pos, buf, sizeof(buf))) > 0) {
		int err = sh_write_all(1, buf, (size_t)n);

		if (err) {
			if (err != -EPIPE)
				sh_eprintf("dmesg: write error: %s\n", errno_text(-err));
			return 1;
		}
	}
	return 0;
}
