/* kill PID...: end tasks (there are no signals to choose from: -9 and -TERM are accepted). */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

int cmd_kill(int argc, char **argv, char **envp)
{
	int i = 1, status = 0;

	if (i < argc && argv[i][0] == '-' && argv[i][1])
		i++;	/* a signal: every one kills */
	if (i == argc) {
		sh_eprintf("kill: usage: kill [-SIGNAL] PID...\n");
		return 2;
	}
	for (; i < argc; i++) {
		long long pid;
		int err;

		if (sh_parse_int(argv[i], &pid) || pid <= 0) {
			sh_eprintf("kill: %s: arguments must be process ids\n", argv[i]);
			status = 1;
			continue;
		}
		err = sh_os->kill((pid_t)pid);
		if (err) {
			sh_eprintf("kill: (%lld) - %s\n", pid, errno_text(-err));
			status = 1;
		}
	}
	return status;
}
