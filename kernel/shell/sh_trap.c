/*
 * Signals as the shell sees them: their names, `trap`, and acting on the
 * signals the task received. A signal is only noted when it arrives (the
 * kernel has no handlers); the shell takes it between commands and runs
 * its trap, ignores it, or ends as a shell killed by it would (status
 * 128 + N). The EXIT trap runs when the shell ends.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* Linux's numbers for the signals that have names here. */
static const char *const signal_names[SH_NSIG] = {
	[0] = "EXIT", [1] = "HUP", [2] = "INT", [3] = "QUIT", [4] = "ILL", [5] = "TRAP",
	[6] = "ABRT", [7] = "BUS", [8] = "FPE", [9] = "KILL", [10] = "USR1", [11] = "SEGV",
	[12] = "USR2", [13] = "PIPE", [14] = "ALRM", [15] = "TERM", [16] = "STKFLT",
	[17] = "CHLD", [18] = "CONT", [19] = "STOP", [20] = "TSTP", [21] = "TTIN",
	[22] = "TTOU", [23] = "URG", [24] = "XCPU", [25] = "XFSZ", [26] = "VTALRM",
	[27] = "PROF", [28] = "WINCH", [29] = "IO", [30] = "PWR", [31] = "SYS",
};

int sh_signal_number(const char *s)
{
	long long n;

	if (!sh_parse_int(s, &n))
		return n >= 0 && n < SH_NSIG ? (int)n : -EINVAL;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (int i = 0; i < SH_NSIG; i++)
		if (signal_names[i] && !strcmp(signal_names[i], s))
			return i;
	return -EINVAL;
}

const char *sh_signal_name(int sig)
{
	return sig >= 0 && sig < SH_NSIG ? signal_names[sig] : NULL;
}

/* Signals whose default action leaves the shell running. */
static bool default_ignored(int sig)
{
	return sig == 17 || sig == 18 || sig == 23 || sig == 28;	/* CHLD CONT URG WINCH */
}

/* Run a trap's action (taken: it may reset its own trap) with $? kept. */
static void run_trap(struct sh *sh, char *action)
{
	int status = sh->status;

	if (!action)
		return;
	sh->in_trap++;
	sh_run_string(sh, action, strlen(action));
	sh->in_trap--;
	kfree(action);
	if (sh->flow != SH_FLOW_EXIT)
		sh->status = status;
}

bool sh_take_signals(struct sh *sh)
{
	sh->pending_signals |= sh_os->take_signals();
	if (!sh->pending_signals || sh->in_trap)
		return sh->interrupted;
	for (int sig = 1; sig < SH_NSIG; sig++) {
		u64 bit = 1ULL << (sig - 1);

		if (!(sh->pending_signals & bit))
			continue;
		sh->pending_signals &= ~bit;
		if (sh->traps[sig] && sh->traps[sig][0]) {
			run_trap(sh, kstrdup(sh->traps[sig], GFP_KERNEL));
		} else if (!sh->traps[sig] && !default_ignored(sig) && !sh->interrupted) {
			/* Killed by it: unwind like exit, status 128 + N. */
			sh->interrupted = true;
			sh->status = 128 + sig;
			sh->flow = SH_FLOW_EXIT;
		}
	}
	return sh->interrupted;
}

void sh_run_exit_trap(struct sh *sh)
{
	enum sh_flow flow = sh->flow;
	bool interrupted = sh->interrupted;
	char *action = sh->traps[0];

	/* It runs once, with the shell able to run commands again. */
	sh->traps[0] = NULL;
	if (!action || !action[0]) {
		kfree(action);
		return;
	}
	sh->flow = SH_FLOW_NONE;
	sh->interrupted = false;
	run_trap(sh, action);
	if (sh->flow == SH_FLOW_NONE)
		sh->flow = flow;
	sh->interrupted |= interrupted;
}

void sh_free_traps(struct sh *sh)
{
	for (int i = 0; i < SH_NSIG; i++) {
		kfree(sh->traps[i]);
		sh->traps[i] = NULL;
	}
}

void sh_copy_traps(struct sh *dst, const struct sh *src)
{
	/* A subshell keeps ignored signals ignored; actions go back to the default. */
	for (int i = 1; i < SH_NSIG; i++)
		if (src->traps[i] && !src->traps[i][0])
			dst->traps[i] = kstrdup("", GFP_KERNEL);
}

static void print_traps(struct sh *sh)
{
	struct sh_out o;

	out_init(&o, 1);
	for (int i = 0; i < SH_NSIG; i++) {
		if (!sh->traps[i])
			continue;
		out_puts(&o, "trap -- '");
		for (const char *p = sh->traps[i]; *p; p++) {
			if (*p == '\'')
				out_puts(&o, "'\\''");
			else
				out_putc(&o, *p);
		}
		if (signal_names[i])
			out_printf(&o, "' %s\n", signal_names[i]);
		else
			out_printf(&o, "' %d\n", i);
	}
	out_finish(&o, "trap", 0);
}

/* trap [ACTION SIGNAL...], trap - SIGNAL..., trap -l: set, reset or list traps. */
int sh_builtin_trap(struct sh *sh, int argc, char **argv)
{
	const char *action;
	int i = 1, status = 0;

	if (argc > 1 && !strcmp(argv[1], "--"))
		i++;
	if (i == argc) {
		print_traps(sh);
		return 0;
	}
	if (!strcmp(argv[i], "-l")) {
		for (int s = 1; s < SH_NSIG; s++)
			if (signal_names[s])
				sh_eprintf("%2d) SIG%s\n", s, signal_names[s]);
		return 0;
	}
	/* A lone number as the first operand means "reset these", as POSIX allows. */
	action = sh_isdigit(argv[i][0]) && sh_signal_number(argv[i]) >= 0 ? "-" : argv[i++];
	if (i == argc) {
		sh_error(sh, "trap: usage: trap [ACTION SIGNAL...]");
		return 2;
	}
	for (; i < argc; i++) {
		int sig = sh_signal_number(argv[i]);
		char *copy = NULL;

		if (sig < 0) {
			sh_error(sh, "trap: %s: bad trap", argv[i]);
			status = 1;
			continue;
		}
		if (sig == 9 || sig == 19)
			continue;	/* KILL and STOP cannot be caught: accepted, as sh does */
		if (strcmp(action, "-") && !(copy = kstrdup(action, GFP_KERNEL))) {
			sh_error(sh, "trap: out of memory");
			return 1;
		}
		kfree(sh->traps[sig]);
		sh->traps[sig] = copy;
	}
	return status;
}
