/*
 * Signals of ring-3 processes, with Linux's ABI: sigaction(2)'s
 * handlers, masks and flags, rt_sigframe on the user stack, default
 * actions. A thread group (a process and its CLONE_THREAD threads) shares
 * a signal_struct; tasks sharing CLONE_SIGHAND share the actions.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/timer.h>
#include <kernel/sched.h>

#define SIG_DFL			0UL
#define SIG_IGN			1UL

#define SA_NOCLDSTOP		0x00000001
#define SA_NOCLDWAIT		0x00000002
#define SA_SIGINFO		0x00000004
#define SA_RESTORER		0x04000000
#define SA_ONSTACK		0x08000000
#define SA_RESTART		0x10000000
#define SA_NODEFER		0x40000000
#define SA_RESETHAND		0x80000000

#define SIG_BLOCK		0
#define SIG_UNBLOCK		1
#define SIG_SETMASK		2

#define SS_ONSTACK		1
#define SS_DISABLE		2
#define MINSIGSTKSZ		2048

/* si_code values */
#define SI_USER			0
#define SI_KERNEL		0x80
#define SI_TKILL		(-6)
#define SEGV_MAPERR		1
#define SEGV_ACCERR		2
#define ILL_ILLOPN		2
#define ILL_PRVOPC		5
#define FPE_INTDIV		1
#define TRAP_BRKPT		1
#define BUS_ADRERR		2
#define CLD_EXITED		1
#define CLD_KILLED		2
#define CLD_DUMPED		3

/* The kernel's struct sigaction (rt_sigaction's layout). */
struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	u64 mask;
};

struct sighand_struct {
	int count;
	spinlock_t lock;
	struct k_sigaction action[_NSIG];
};

/* What a pending signal carries to an SA_SIGINFO handler. */
struct ksiginfo {
	int code;
	int pid;		/* sender (SI_USER, SI_TKILL) or child (SIGCHLD) */
	int status;		/* SIGCHLD: exit code or signal */
	unsigned long addr;	/* faults */
};

/* What getrusage and times add up: CPU time and counters of tasks. */
struct task_usage {
	u64 runtime_ns;
	u64 min_flt, maj_flt;
	u64 nvcsw, nivcsw;
};

/*
 * A thread group. live counts its threads that have not exited; the last
 * one to exit makes the group a zombie for its parent.
 */
struct signal_struct {
	int count;			/* references: one per thread */
	int live;
	struct list_head threads;	/* task->thread_node, under tasklist_lock */
	bool group_exit;		/* exit_group or a fatal signal: every thread ends */
	int group_exit_code;
	pid_t pgrp, session;
	struct ksiginfo info[_NSIG];	/* per pending process-directed signal */
	/* ITIMER_REAL */
	struct timer_list real_timer;
	struct task_struct *leader;
	struct task_struct *group_exec_task;	/* a thread in execve, ending the others */
	u64 it_real_incr_ns;
	u64 it_real_expires_ns;		/* ktime; 0 when disarmed */
	/* Under tasklist_lock (kernel/syscalls/sys_rusage.c adds them up). */
	struct task_usage dead;		/* its threads that have exited */
	struct task_usage children;	/* its reaped children, with what they reaped */
};

struct pt_regs;
struct task_struct;

/* A new thread group led by leader (which it holds until the group is over). */
struct signal_struct *signal_alloc(struct task_struct *leader, pid_t pgrp, pid_t session);
/* Ring-3 state for a task that becomes a process (execve from a kernel thread). */
int signal_init_process(struct task_struct *p);
/* fork/clone: share or copy; releases at exit. */
int copy_sighand(struct task_struct *p, unsigned long clone_flags);
int copy_signal(struct task_struct *p, unsigned long clone_flags);
void exit_signal_state(struct task_struct *p);
/* execve: handlers go back to SIG_DFL (ignored ones stay ignored), altstack off. */
void flush_signal_handlers(struct task_struct *p);

/* A synchronous fault in ring 3: the signal is delivered even if blocked or ignored. */
void force_sig_fault(int sig, int code, unsigned long addr);
/* Sends sig to a thread group (kill) or one thread (tgkill); 0 or -errno. */
int send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *p, bool group);
/* On the way back to ring 3: deliver what is pending (may not return: the task exits). */
void do_signal(struct pt_regs *regs);
/*
 * A system call's own blocked mask (rt_sigsuspend, ppoll): current's mask
 * is mask until the call returns to ring 3, or until a handler it let in
 * runs (its frame restores the old mask on sigreturn).
 */
void set_user_sigmask(u64 mask);
/* What no mask holds back. */
#define UNBLOCKABLE	(sigmask(SIGKILL) | sigmask(SIGSTOP))
/* execve in a thread group: every other thread ends first; 0 or -EINTR (killed meanwhile). */
int de_thread(struct task_struct *t);
/* Ends every thread of current's group with the wait status code. */
__noreturn void do_group_exit(int code);
/* Exit and wait keep the group's usage (getrusage, times). Caller holds tasklist_lock. */
void usage_account_exit(struct task_struct *tsk);
void usage_account_reap(struct task_struct *parent, struct task_struct *zombie);
/* CPU time of current's whole thread group, exited threads included (CLOCK_PROCESS_CPUTIME_ID). */
u64 current_process_runtime_ns(void);
/* Tells parent (referenced by the caller) that the thread group of leader ended: SIGCHLD. */
void notify_parent(struct task_struct *leader, struct task_struct *parent);

#endif
