/*
 * Resource usage: getrusage(2) and times(2), from the scheduler's
 * per-task runtime and counters. A thread group keeps what its exited
 * threads used and what its reaped children used (signal_struct's dead
 * and children, kept by exit and wait), so a process sees its whole
 * life and its waited-for children's, as on Linux.
 *
 * Spoor does not split a task's CPU time at the system-call boundary:
 * all of a process's runtime shows as user time and system time is 0.
 * There is no resident-set accounting either: ru_maxrss is 0.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>
#include <kernel/syscalls.h>
#include <asm/uaccess.h>

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#define RUSAGE_THREAD	1
#define USER_HZ		100	/* the clock_t unit of times(2) on Linux x86_64 */

static void usage_add(struct task_usage *to, const struct task_usage *from)
{
	to->runtime_ns += from->runtime_ns;
	to->min_flt += from->min_flt;
	to->maj_flt += from->maj_flt;
	to->nvcsw += from->nvcsw;
	to->nivcsw += from->nivcsw;
}

static void usage_add_task(struct task_usage *to, const struct task_struct *t)
{
	struct task_usage u = {
		.runtime_ns = READ_ONCE(t->sum_exec_runtime),
		.min_flt = READ_ONCE(t->min_flt), .maj_flt = READ_ONCE(t->maj_flt),
		.nvcsw = READ_ONCE(t->nvcsw), .nivcsw = READ_ONCE(t->nivcsw),
	};

	usage_add(to, &u);
}

void usage_account_exit(struct task_struct *tsk)
{
	usage_add_task(&tsk->signal->dead, tsk);
}

void usage_account_reap(struct task_struct *parent, struct task_struct *zombie)
{
	if (!parent->signal || !zombie->signal)
		return;
	usage_add(&parent->signal->children, &zombie->signal->dead);
	usage_add(&parent->signal->children, &zombie->signal->children);
}

/* The current thread, its whole group (live and exited threads), or its reaped children. */
static int current_usage(int who, struct task_usage *u)
{
	struct signal_struct *sig = current->signal;
	struct task_struct *t;
	unsigned long flags;

	*u = (struct task_usage){ 0 };
	if (who == RUSAGE_THREAD || (who == RUSAGE_SELF && !sig)) {
		usage_add_task(u, current);
		return 0;
	}
	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN)
		return -EINVAL;
	if (!sig)
		return 0;	/* a kernel thread reaps no accounted children */
	spin_lock_irqsave(&tasklist_lock, flags);
	if (who == RUSAGE_CHILDREN) {
		*u = sig->children;
	} else {
		*u = sig->dead;
		list_for_each_entry(t, &sig->threads, thread_node)
			usage_add_task(u, t);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return 0;
}

u64 current_process_runtime_ns(void)
{
	struct task_usage u;

	current_usage(RUSAGE_SELF, &u);
	return u.runtime_ns;
}

/* Linux's struct rusage on x86_64: two timevals, then fourteen longs. */
struct rusage_user {
	s64 utime_sec, utime_usec, stime_sec, stime_usec;
	s64 maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock;
	s64 msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};
_Static_assert(sizeof(struct rusage_user) == 144, "Linux's struct rusage");

SYSCALL_DEFINE2(getrusage, int, who, struct rusage_user *, ru)
{
	struct task_usage u;
	struct rusage_user r = { 0 };
	int err = current_usage(who, &u);

	if (err)
		return err;
	r.utime_sec = (s64)(u.runtime_ns / NSEC_PER_SEC);
	r.utime_usec = (s64)(u.runtime_ns % NSEC_PER_SEC / 1000);
	r.minflt = (s64)u.min_flt;
	r.majflt = (s64)u.maj_flt;
	r.nvcsw = (s64)u.nvcsw;
	r.nivcsw = (s64)u.nivcsw;
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

static s64 ns_to_clock_t(u64 ns)
{
	return (s64)(ns / (NSEC_PER_SEC / USER_HZ));
}

/* struct tms: user and system time of the process and of its reaped children. */
SYSCALL_DEFINE1(times, s64 *, tbuf)
{
	struct task_usage self, children;
	s64 tms[4];

	if (tbuf) {
		current_usage(RUSAGE_SELF, &self);
		current_usage(RUSAGE_CHILDREN, &children);
		tms[0] = ns_to_clock_t(self.runtime_ns);
		tms[1] = 0;
		tms[2] = ns_to_clock_t(children.runtime_ns);
		tms[3] = 0;
		if (copy_to_user(tbuf, tms, sizeof(tms)))
			return -EFAULT;
	}
	/* Linux counts from a jiffies value that starts near a wrap; Spoor from boot. */
	return ns_to_clock_t(ktime_get_ns());
}
