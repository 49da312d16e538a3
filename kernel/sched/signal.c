/*
 * Sending signals. To a kernel thread a signal is a pending bit that
 * makes its interruptible sleeps return -EINTR, and a fatal one (SIGKILL,
 * SIGINT, SIGTERM) asks it to end at its next fatal_signal_pending()
 * check: what the shell's Ctrl-C and `kill` need from kernel-thread jobs.
 * A ring-3 process gets Linux's semantics (kernel/signal.c).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <trace/events/signal.h>
#define FATAL_SIGNALS	(sigmask(SIGKILL) | sigmask(SIGINT) | sigmask(SIGTERM))

bool fatal_signal_pending(const struct task_struct *p)
{
	return READ_ONCE(p->pending_signals) & FATAL_SIGNALS;
}

void flush_signals(struct task_struct *p)
{
	__atomic_store_n(&p->pending_signals, 0, __ATOMIC_RELAXED);
}

int send_sig(int sig, struct task_struct *p)
{
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (is_idle_task(p) || (p->exit_state & (EXIT_ZOMBIE | EXIT_DEAD)))
		return -ESRCH;
	if (sig == 0)
		return 0;
	if (p->sighand) {
		struct ksiginfo info = { .code = SI_USER, .pid = current->tgid };

		return send_sig_info(sig, &info, p, true);
	}
	/* A kill(2) to a process: Linux's group signal (grp=1). */
	trace_signal_generate(sig, p, 1,
			      (__atomic_fetch_or(&p->pending_signals, sigmask(sig), __ATOMIC_SEQ_CST) &
			       sigmask(sig)) ? TRACE_SIGNAL_ALREADY_PENDING : TRACE_SIGNAL_DELIVERED);
	/* Fatal signals also end killable sleeps. */
	wake_up_state(p, TASK_INTERRUPTIBLE | ((sigmask(sig) & FATAL_SIGNALS) ? TASK_WAKEKILL : 0));
	return 0;
}

int task_kill(pid_t pid, int sig)
{
	struct task_struct *p;
	unsigned long flags;
	int ret;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	p = pid > 0 ? find_task_by_pid(pid) : NULL;
	if (p)
		get_task_struct(p);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!p)
		return -ESRCH;
	ret = send_sig(sig, p);
	put_task_struct(p);
	return ret;
}
