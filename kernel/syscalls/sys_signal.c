/* Signal system calls: actions, masks, the alternate stack, sending. */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscalls.h>
#include <asm/uaccess.h>


long sys_rt_sigreturn_regs(struct pt_regs *regs);

SYSCALL_DEFINE_REGS(rt_sigreturn)
{
	return sys_rt_sigreturn_regs(regs);
}

SYSCALL_DEFINE4(rt_sigaction, int, sig, const struct k_sigaction *, act,
		struct k_sigaction *, oact, size_t, setsize)
{
	struct sighand_struct *sh = current->sighand;
	struct k_sigaction new, old;
	unsigned long flags;

	if (setsize != sizeof(u64) || sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	spin_lock_irqsave(&sh->lock, flags);
	old = sh->action[sig - 1];
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		sh->action[sig - 1] = new;
		/* Setting SIG_IGN (or SIG_DFL for an ignored-by-default signal) drops it if pending. */
		if (new.handler == SIG_IGN ||
		    (new.handler == SIG_DFL && (sigmask(sig) & (sigmask(SIGCHLD) | sigmask(SIGURG) |
								 sigmask(SIGWINCH)))))
			__atomic_and_fetch(&current->pending_signals, ~sigmask(sig), __ATOMIC_SEQ_CST);
	}
	spin_unlock_irqrestore(&sh->lock, flags);
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE4(rt_sigprocmask, int, how, const u64 *, uset, u64 *, uold, size_t, setsize)
{
	u64 set, old = current->blocked;

	if (setsize != sizeof(u64))
		return -EINVAL;
	if (uset) {
		if (copy_from_user(&set, uset, sizeof(set)))
			return -EFAULT;
		set &= ~UNBLOCKABLE;
		switch (how) {
		case SIG_BLOCK: current->blocked |= set; break;
		case SIG_UNBLOCK: current->blocked &= ~set; break;
		case SIG_SETMASK: current->blocked = set; break;
		default: return -EINVAL;
		}
	}
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(sigaltstack, const struct sigaltstack_user *, uss, struct sigaltstack_user *, uoss)
{
	struct sigaltstack_user ss, old = current->sas;
	unsigned long sp = task_pt_regs(current)->rsp;
	bool on = !(old.ss_flags & SS_DISABLE) && sp > old.ss_sp && sp - old.ss_sp <= old.ss_size;

	if (on)
		old.ss_flags = SS_ONSTACK;
	if (uss) {
		if (copy_from_user(&ss, uss, sizeof(ss)))
			return -EFAULT;
		if (on)
			return -EPERM;
		if (ss.ss_flags & ~(SS_DISABLE | (int)0x80000000 /* SS_AUTODISARM */))
			return -EINVAL;
		if (ss.ss_flags & SS_DISABLE) {
			ss.ss_sp = 0;
			ss.ss_size = 0;
			ss.ss_flags = SS_DISABLE;
		} else if (ss.ss_size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		current->sas = ss;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(kill, pid_t, pid, int, sig)
{
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid == current->tgid || pid == 0) {
		struct ksiginfo info = { .code = SI_USER, .pid = current->tgid };

		/* pid 0 is the caller's process group: Spoor sends to the caller alone. */
		return send_sig_info(sig, &info, current, true);
	}
	if (pid < 0)
		return pid == -1 ? -EPERM : task_kill(-pid, sig);
	return task_kill(pid, sig);
}

/* A signal to one thread (tid), optionally checked to belong to group tgid. */
static long do_tkill(pid_t tgid, pid_t tid, int sig)
{
	struct ksiginfo info = { .code = SI_TKILL, .pid = current->tgid };
	struct task_struct *p;
	unsigned long flags;
	long r;

	if (sig < 0 || sig > _NSIG || tid <= 0)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	p = find_task_by_pid(tid);
	if (p && (p->exit_state || (tgid > 0 && p->tgid != tgid)))
		p = NULL;
	if (p)
		get_task_struct(p);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!p)
		return -ESRCH;
	r = p->sighand ? send_sig_info(sig, &info, p, false) : send_sig(sig, p);
	put_task_struct(p);
	return r;
}

SYSCALL_DEFINE2(tkill, pid_t, tid, int, sig)
{
	return do_tkill(0, tid, sig);
}

SYSCALL_DEFINE3(tgkill, pid_t, tgid, pid_t, tid, int, sig)
{
	if (tgid <= 0)
		return -EINVAL;
	return do_tkill(tgid, tid, sig);
}

SYSCALL_DEFINE2(rt_sigpending, u64 *, uset, size_t, setsize)
{
	if (setsize != sizeof(u64))
		return -EINVAL;
	return put_user(current->pending_signals & current->blocked, uset);
}

SYSCALL_DEFINE2(rt_sigsuspend, const u64 *, umask, size_t, setsize)
{
	u64 mask;

	if (setsize != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	set_user_sigmask(mask);
	while (!signal_pending(current)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!signal_pending(current))
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return -EINTR;
}
