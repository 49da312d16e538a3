/*
 * kill [-s SIG | -SIG | -N] PID..., kill -l [STATUS]: send a signal (TERM
 * by default) to tasks, or list the signal names. What a signal does is
 * up to the task: commands end (status 128 + N), shells run their traps.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define SIGTERM_NR	15

/* kill -l: every name; kill -l N: the name of signal N (or of exit status 128 + N). */
static int list_signals(int argc, char **argv)
{
	struct sh_out o;
	int status = 0;

	out_init(&o, 1);
	if (argc == 2) {
		for (int sig = 1; sig < SH_NSIG; sig++)
			if (sh_signal_name(sig))
				out_printf(&o, "%s%s", sig > 1 ? " " : "", sh_signal_name(sig));
		out_putc(&o, '\n');
	}
	for (int i = 2; i < argc; i++) {
		long long n;

		if (sh_parse_int(argv[i], &n) || n <= 0 || !sh_signal_name((int)(n > 128 ? n - 128 : n))) {
			sh_eprintf("kill: %s: invalid signal specification\n", argv[i]);
			status = 1;
			continue;
		}
		out_printf(&o, "%s\n", sh_signal_name((int)(n > 128 ? n - 128 : n)));
	}
	return out_finish(&o, "kill", status);
}

int cmd_kill(int argc, char **argv, char **envp)
{
	int i = 1, sig = SIGTERM_NR, status = 0;

	if (argc > 1 && !strcmp(argv[1], "-l"))
		return list_signals(argc, argv);
	if (i < argc && !strcmp(argv[i], "-s")) {
		sig = i + 1 < argc ? sh_signal_number(argv[i + 1]) : -EINVAL;
		i += 2;
	} else if (i < argc && argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--")) {
		sig = sh_signal_number(argv[i] + 1);
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (sig < 0) {
		sh_eprintf("kill: %s: invalid signal specification\n", argv[i - 1]);
		return 2;
	}
	if (i == argc) {
		sh_eprintf("kill: usage: kill [-s SIGNAL | -SIGNAL] PID... | kill -l\n");
		return 2;
	}
	for (; i < argc; i++) {
		long long pid;
		int err;

		if (sh_parse_int(argv[i], &pid) || pid <= 0 || pid > 0x7fffffff) {
			sh_eprintf("kill: %s: arguments must be process ids\n", argv[i]);
			status = 1;
			continue;
		}
		err = sh_os->kill((pid_t)pid, sig);
		if (err) {
			sh_eprintf("kill: (%lld) - %s\n", pid, errno_text(-err));
			status = 1;
		}
	}
	return status;
}
