/*
 * Signal delivery to ring 3: choosing the thread, default actions,
 * handler frames (Linux's x86_64 rt_sigframe) and rt_sigreturn, group
 * exit. Sending to kernel threads stays in kernel/sched/signal.c.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/mman.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>
#include <asm/segment.h>
#include <asm/cpu.h>
#include <trace/events/signal.h>

#define STOP_SIGNALS	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define IGNORE_SIGNALS	(sigmask(SIGCHLD) | sigmask(SIGURG) | sigmask(SIGWINCH) | sigmask(SIGCONT))
#define USER_RFLAGS	0x40dd5UL	/* CF PF AF ZF SF TF DF OF AC: what sigreturn may set */

/* Linux's struct sigcontext (x86_64), inside ucontext. */
struct sigcontext {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate;			/* user address of the FXSAVE image */
	u64 reserved1[8];
};

struct ucontext {
	u64 uc_flags;
	u64 uc_link;
	struct sigaltstack_user uc_stack;
	struct sigcontext uc_mcontext;
	u64 uc_sigmask;
};

/* siginfo_t: 128 bytes; the fields Spoor fills. */
struct user_siginfo {
	int si_signo, si_errno, si_code, pad;
	union {
		struct { int pid; unsigned int uid; int status; } kill;	/* and SIGCHLD: pid uid status */
		struct { u64 addr; } fault;
		u8 bytes[112];
	};
};

struct rt_sigframe {
	u64 pretcode;			/* sa_restorer: where the handler returns */
	struct ucontext uc;
	struct user_siginfo info;
};

_Static_assert(sizeof(struct sigcontext) == 256, "Linux's sigcontext");
_Static_assert(sizeof(struct user_siginfo) == 128, "Linux's siginfo_t");

#define UC_SIGCONTEXT_SS	0x2
#define UC_STRICT_RESTORE_SS	0x4

/* ITIMER_REAL expired: SIGALRM to the process, and re-arm an interval timer. */
static void it_real_fn(struct timer_list *t)
{
	struct signal_struct *sig = container_of(t, struct signal_struct, real_timer);
	struct ksiginfo info = { .code = SI_KERNEL };

	if (sig->it_real_incr_ns) {
		sig->it_real_expires_ns = ktime_get_ns() + sig->it_real_incr_ns;
		mod_timer(t, jiffies + nsecs_to_jiffies_ceil(sig->it_real_incr_ns));
	} else {
		sig->it_real_expires_ns = 0;
	}
	send_sig_info(SIGALRM, &info, sig->leader, true);
}

struct signal_struct *signal_alloc(struct task_struct *leader, pid_t pgrp, pid_t session)
{
	struct signal_struct *sig = kmem_cache_zalloc(signal_cachep, GFP_KERNEL);

	if (!sig)
		return NULL;
	sig->count = 1;
	sig->live = 1;
	INIT_LIST_HEAD(&sig->threads);
	sig->leader = leader;
	get_task_struct(leader);	/* until the group is over (do_exit) */
	sig->pgrp = pgrp;
	sig->session = session;
	timer_setup(&sig->real_timer, it_real_fn);
	return sig;
}

int signal_init_process(struct task_struct *p)
{
	if (!p->sighand) {
		p->sighand = kmem_cache_zalloc(sighand_cachep, GFP_KERNEL);
		if (!p->sighand)
			return -ENOMEM;
		p->sighand->count = 1;
		spin_lock_init(&p->sighand->lock);
	}
	if (!p->signal) {
		p->signal = signal_alloc(p, p->pid, p->pid);
		if (!p->signal)
			return -ENOMEM;
		list_add_tail(&p->thread_node, &p->signal->threads);
		p->exit_signal = SIGCHLD;
	}
	return 0;
}

void flush_signal_handlers(struct task_struct *p)
{
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &p->sighand->action[i];

		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = 0;
		ka->restorer = 0;
		ka->mask = 0;
	}
	p->sas = (struct sigaltstack_user){ .ss_flags = SS_DISABLE };
}

static bool sig_ignored(struct task_struct *p, int sig)
{
	unsigned long h = p->sighand->action[sig - 1].handler;

	if (sig == SIGKILL || sig == SIGSTOP)
		return false;
	return h == SIG_IGN || (h == SIG_DFL && (sigmask(sig) & (IGNORE_SIGNALS | STOP_SIGNALS)));
}

/* Marks sig pending on t and wakes it if it can take it now. Caller holds sighand->lock. */
static void signal_wake(struct task_struct *t, int sig)
{
	__atomic_or_fetch(&t->pending_signals, sigmask(sig), __ATOMIC_SEQ_CST);
	if (!(t->blocked & sigmask(sig)) || sig == SIGKILL)
		wake_up_state(t, TASK_INTERRUPTIBLE | (sig == SIGKILL ? TASK_WAKEKILL : 0));
}

int send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *p, bool group)
{
	struct signal_struct *sig_s = p->signal;
	struct task_struct *t, *target = p;
	unsigned long flags;
	int result = TRACE_SIGNAL_DELIVERED;

	if (sig == 0)
		return 0;
	spin_lock_irqsave(&p->sighand->lock, flags);
	if (sig_ignored(p, sig)) {
		result = TRACE_SIGNAL_IGNORED;
		goto out;
	}
	if (group && sig == SIGKILL) {
		/* Everyone goes: the first thread back in the kernel ends the group. */
		sig_s->group_exit = true;
		sig_s->group_exit_code = SIGKILL;
		list_for_each_entry(t, &sig_s->threads, thread_node)
			signal_wake(t, SIGKILL);
		goto out;
	}
	if (group && (p->blocked & sigmask(sig))) {
		list_for_each_entry(t, &sig_s->threads, thread_node)
			if (!(t->blocked & sigmask(sig))) {
				target = t;
				break;
			}
	}
	if (target->pending_signals & sigmask(sig))
		result = TRACE_SIGNAL_ALREADY_PENDING;
	else
		sig_s->info[sig - 1] = *info;
	signal_wake(target, sig);
out:
	spin_unlock_irqrestore(&p->sighand->lock, flags);
	trace_signal_generate(sig, target, group, result);
	return 0;
}

void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct task_struct *t = current;
	struct k_sigaction *ka = &t->sighand->action[sig - 1];
	unsigned long flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	/* A fault cannot be ignored or blocked away: it would only recur. */
	if (ka->handler == SIG_IGN || (t->blocked & sigmask(sig))) {
		ka->handler = SIG_DFL;
		t->blocked &= ~sigmask(sig);
	}
	t->signal->info[sig - 1] = (struct ksiginfo){ .code = code, .addr = addr };
	__atomic_or_fetch(&t->pending_signals, sigmask(sig), __ATOMIC_SEQ_CST);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

/* Where the frame goes: the alternate stack when asked for and not already on it. */
static unsigned long frame_stack(const struct k_sigaction *ka, const struct pt_regs *regs)
{
	const struct sigaltstack_user *ss = &current->sas;
	unsigned long sp = regs->rsp;
	bool on_alt = !(ss->ss_flags & SS_DISABLE) && sp > ss->ss_sp && sp - ss->ss_sp <= ss->ss_size;

	if ((ka->flags & SA_ONSTACK) && !(ss->ss_flags & SS_DISABLE) && !on_alt)
		return ss->ss_sp + ss->ss_size;
	return sp - 128;		/* past the red zone */
}

static int setup_rt_frame(int sig, const struct k_sigaction *ka, const struct ksiginfo *ki,
			  struct pt_regs *regs)
{
	u8 fx[512] __aligned(16);
	struct rt_sigframe f;
	unsigned long sp = frame_stack(ka, regs), fp, frame;
	const struct sigaltstack_user *ss = &current->sas;

	if (!(ka->flags & SA_RESTORER))
		return -EFAULT;		/* no vDSO to return through */
	fp = (sp - sizeof(fx)) & ~63UL;
	/* At the handler's first instruction rsp + 8 is 16-byte aligned, as after a call. */
	frame = ((fp - sizeof(f)) & ~15UL) - 8;
	memset(&f, 0, sizeof(f));
	f.pretcode = ka->restorer;
	f.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	f.uc.uc_stack = *ss;
	if (!(ss->ss_flags & SS_DISABLE) && regs->rsp > ss->ss_sp && regs->rsp - ss->ss_sp <= ss->ss_size)
		f.uc.uc_stack.ss_flags = SS_ONSTACK;
	f.uc.uc_mcontext = (struct sigcontext){
		.r8 = regs->r8, .r9 = regs->r9, .r10 = regs->r10, .r11 = regs->r11,
		.r12 = regs->r12, .r13 = regs->r13, .r14 = regs->r14, .r15 = regs->r15,
		.rdi = regs->rdi, .rsi = regs->rsi, .rbp = regs->rbp, .rbx = regs->rbx,
		.rdx = regs->rdx, .rax = regs->rax, .rcx = regs->rcx, .rsp = regs->rsp,
		.rip = regs->rip, .eflags = regs->rflags, .cs = (u16)regs->cs, .ss = (u16)regs->ss,
		.oldmask = current->blocked,
		.cr2 = ki->addr, .fpstate = fp,
	};
	f.uc.uc_sigmask = current->restore_sigmask ? current->saved_sigmask : current->blocked;
	f.info.si_signo = sig;
	f.info.si_code = ki->code;
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP)
		f.info.fault.addr = ki->addr;
	else {
		f.info.kill.pid = ki->pid;
		f.info.kill.status = ki->status;
	}
	fpu_save_legacy(fx);
	if (copy_to_user((void *)fp, fx, sizeof(fx)) ||
	    copy_to_user((void *)frame, &f, sizeof(f)))
		return -EFAULT;
	regs->rdi = (unsigned long)sig;
	regs->rsi = frame + offsetof(struct rt_sigframe, info);
	regs->rdx = frame + offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->rsp = frame;
	regs->rip = ka->handler;
	regs->rflags &= ~(0x100UL | 0x400UL);	/* TF, DF */
	regs->cs = GDT_USER_CS | 3;
	regs->ss = GDT_USER_DS | 3;
	return 0;
}

long sys_rt_sigreturn_regs(struct pt_regs *regs)
{
	unsigned long frame = regs->rsp - 8;	/* the handler's ret popped pretcode */
	u8 fx[512] __aligned(16);
	struct ucontext uc;
	const struct sigcontext *sc = &uc.uc_mcontext;

	if (copy_from_user(&uc, (void *)(frame + offsetof(struct rt_sigframe, uc)), sizeof(uc)))
		goto badframe;
	regs->r8 = sc->r8; regs->r9 = sc->r9; regs->r10 = sc->r10; regs->r11 = sc->r11;
	regs->r12 = sc->r12; regs->r13 = sc->r13; regs->r14 = sc->r14; regs->r15 = sc->r15;
	regs->rdi = sc->rdi; regs->rsi = sc->rsi; regs->rbp = sc->rbp; regs->rbx = sc->rbx;
	regs->rdx = sc->rdx; regs->rax = sc->rax; regs->rcx = sc->rcx; regs->rsp = sc->rsp;
	regs->rip = sc->rip;
	regs->rflags = (regs->rflags & ~USER_RFLAGS) | (sc->eflags & USER_RFLAGS) | 0x200;
	regs->cs = GDT_USER_CS | 3;
	regs->ss = GDT_USER_DS | 3;
	regs->orig_ax = -1;
	current->blocked = uc.uc_sigmask & ~UNBLOCKABLE;
	if (sc->fpstate) {
		if (copy_from_user(fx, (void *)sc->fpstate, sizeof(fx)))
			goto badframe;
		fpu_restore_user(fx);
	}
	/* The rip and rsp came from user memory: a non-canonical one must not reach iretq. */
	if (regs->rip >= TASK_SIZE)
		goto badframe;
	return (long)regs->rax;
badframe:
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return (long)regs->rax;
}

void notify_parent(struct task_struct *leader, struct task_struct *parent)
{
	int code = leader->exit_code;
	struct ksiginfo info = {
		.code = (code & 0x7f) ? CLD_KILLED : CLD_EXITED,
		.pid = leader->pid,
		.status = (code & 0x7f) ? (code & 0x7f) : (code >> 8) & 0xff,
	};

	if (parent && parent->sighand && leader->exit_signal > 0)
		send_sig_info(leader->exit_signal, &info, parent, true);
}

void set_user_sigmask(u64 mask)
{
	current->saved_sigmask = current->blocked;
	current->restore_sigmask = true;
	current->blocked = mask & ~UNBLOCKABLE;
}

void do_signal(struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct k_sigaction ka;
	struct ksiginfo info;
	unsigned long flags;
	int sig;

	if (READ_ONCE(t->signal->group_exit))
		do_group_exit(t->signal->group_exit_code);
	spin_lock_irqsave(&t->sighand->lock, flags);
	{
		u64 ready = t->pending_signals & ~(t->blocked & ~UNBLOCKABLE);

		if (!ready) {
			spin_unlock_irqrestore(&t->sighand->lock, flags);
			return;
		}
		sig = __builtin_ctzll(ready) + 1;
	}
	__atomic_and_fetch(&t->pending_signals, ~sigmask(sig), __ATOMIC_SEQ_CST);
	ka = t->sighand->action[sig - 1];
	info = t->signal->info[sig - 1];
	if (ka.handler != SIG_DFL && ka.handler != SIG_IGN && (ka.flags & SA_RESETHAND))
		t->sighand->action[sig - 1].handler = SIG_DFL;
	spin_unlock_irqrestore(&t->sighand->lock, flags);

	/* Another thread is in execve: this one ends alone, the group lives on in the new program. */
	if (sig == SIGKILL && READ_ONCE(t->signal->group_exec_task) &&
	    READ_ONCE(t->signal->group_exec_task) != t)
		do_exit(SIGKILL);
	/* A system call that a handler interrupts returns -EINTR (Spoor restarts none). */
	if (ka.handler == SIG_IGN)
		return;
	if (ka.handler == SIG_DFL) {
		if (sigmask(sig) & (IGNORE_SIGNALS | STOP_SIGNALS))
			return;		/* no job control: stop signals are ignored */
		do_group_exit(sig);
	}
	/* SA_RESTART: the handler returns to the syscall instruction (2 bytes) with its number. */
	if (t->syscall_nr >= 0 && (long)regs->rax == -EINTR && (ka.flags & SA_RESTART) &&
	    syscall_restartable(t->syscall_nr)) {
		regs->rax = (unsigned long)t->syscall_nr;
		regs->rip -= 2;
	}
	t->syscall_nr = -1;
	if (setup_rt_frame(sig, &ka, &info, regs)) {
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
		return;
	}
	if (t->restore_sigmask) {
		t->blocked = t->saved_sigmask;
		t->restore_sigmask = false;
	}
	t->blocked |= ka.mask & ~UNBLOCKABLE;
	if (!(ka.flags & SA_NODEFER))
		t->blocked |= sigmask(sig);
}

int de_thread(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;
	struct task_struct *o;
	unsigned long flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	if (sig->group_exit || sig->group_exec_task) {
		spin_unlock_irqrestore(&t->sighand->lock, flags);
		return -EINTR;
	}
	sig->group_exec_task = t;
	list_for_each_entry(o, &sig->threads, thread_node)
		if (o != t)
			signal_wake(o, SIGKILL);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	while (READ_ONCE(sig->live) > 1) {
		if (READ_ONCE(t->pending_signals) & sigmask(SIGKILL)) {
			WRITE_ONCE(sig->group_exec_task, NULL);
			return -EINTR;
		}
		schedule_timeout_uninterruptible(1);
	}
	WRITE_ONCE(sig->group_exec_task, NULL);
	return 0;
}
