/* sleep SECONDS: fractions allowed ("0.25"); a task the timer wakes. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

int cmd_sleep(int argc, char **argv, char **envp)
{
	u64 total = 0;

	if (argc < 2) {
		sh_eprintf("sleep: missing operand\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		u64 ns;

		if (sh_parse_seconds(argv[i], &ns)) {
			sh_eprintf("sleep: invalid time interval '%s'\n", argv[i]);
			return 2;
		}
		total += ns;
	}
	return sh_os->sleep_ns(total) == -EINTR ? 130 : 0;
}
