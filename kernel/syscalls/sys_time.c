/*
 * Time system calls. CLOCK_MONOTONIC (and its raw/coarse/boottime
 * variants) is ktime_get_ns; CLOCK_REALTIME is the same clock from the
 * epoch (Spoor has no RTC: the guest boots at 1970-01-01, as `date`
 * shows). Sleeps are interruptible: a signal ends them with -EINTR.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/syscalls.h>
#include <asm/uaccess.h>

#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID	3
#define CLOCK_MONOTONIC_RAW	4
#define CLOCK_REALTIME_COARSE	5
#define CLOCK_MONOTONIC_COARSE	6
#define CLOCK_BOOTTIME		7
#define TIMER_ABSTIME		1
#define ITIMER_REAL		0

struct timespec_user { s64 sec, nsec; };
struct timeval_user { s64 sec, usec; };
struct itimerval_user { struct timeval_user interval, value; };

static int clock_ns(int which, u64 *ns)
{
	switch (which) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
		*ns = current_process_runtime_ns();
		return 0;
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = current->sum_exec_runtime;
		return 0;
	default:
		return -EINVAL;
	}
}

static int put_ts(u64 ns, struct timespec_user *u)
{
	struct timespec_user ts = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC) };

	return copy_to_user(u, &ts, sizeof(ts)) ? -EFAULT : 0;
}

static int get_ts(const struct timespec_user *u, u64 *ns)
{
	struct timespec_user ts;

	if (copy_from_user(&ts, u, sizeof(ts)))
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (u64)ts.sec * NSEC_PER_SEC + (u64)ts.nsec;
	return 0;
}

SYSCALL_DEFINE2(clock_gettime, int, which, struct timespec_user *, tp)
{
	u64 ns;
	int err = clock_ns(which, &ns);

	return err ? err : put_ts(ns, tp);
}

SYSCALL_DEFINE2(clock_getres, int, which, struct timespec_user *, tp)
{
	u64 ns;
	int err = clock_ns(which, &ns);

	if (err || !tp)
		return err;
	return put_ts(which == CLOCK_REALTIME_COARSE || which == CLOCK_MONOTONIC_COARSE ?
		      NSEC_PER_SEC / HZ : 1, tp);
}

SYSCALL_DEFINE2(gettimeofday, struct timeval_user *, tv, void *, tz)
{
	u64 ns = ktime_get_ns();
	struct timeval_user t = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC / 1000) };

	if (tz && clear_user(tz, 8))
		return -EFAULT;
	if (tv && copy_to_user(tv, &t, sizeof(t)))
		return -EFAULT;
	return 0;
}

/* time(2): seconds since the epoch, also stored at tloc when given (Linux's order: store, then return). */
SYSCALL_DEFINE1(time, s64 *, tloc)
{
	s64 sec = (s64)(ktime_get_ns() / NSEC_PER_SEC);

	if (tloc && put_user(sec, tloc))
		return -EFAULT;
	return sec;
}

/* Sleeps until the clock reads end; -EINTR (and what is left in *rem) if a signal comes first. */
static long sleep_until(u64 end, struct timespec_user *rem)
{
	for (;;) {
		u64 now = ktime_get_ns();

		if (now >= end)
			return 0;
		if (signal_pending(current)) {
			if (rem && put_ts(end - now, rem))
				return -EFAULT;
			return -EINTR;
		}
		schedule_timeout_interruptible((long)nsecs_to_jiffies_ceil(end - now));
	}
}

SYSCALL_DEFINE2(nanosleep, const struct timespec_user *, req, struct timespec_user *, rem)
{
	u64 ns;
	int err = get_ts(req, &ns);

	return err ? err : sleep_until(ktime_get_ns() + ns, rem);
}

SYSCALL_DEFINE4(clock_nanosleep, int, which, int, flags, const struct timespec_user *, req,
		struct timespec_user *, rem)
{
	u64 ns, now;
	int err = clock_ns(which, &now);

	if (err)
		return err;
	if (which == CLOCK_PROCESS_CPUTIME_ID || which == CLOCK_THREAD_CPUTIME_ID)
		return -EINVAL;
	err = get_ts(req, &ns);
	if (err)
		return err;
	if (flags & TIMER_ABSTIME)
		return sleep_until(ns, NULL);
	return sleep_until(now + ns, rem);
}

SYSCALL_DEFINE0(pause)
{
	while (!signal_pending(current)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!signal_pending(current))
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return -EINTR;
}

/* ITIMER_REAL of current's process: remaining and interval, in ns. */
static void itimer_get(u64 *value, u64 *interval)
{
	struct signal_struct *sig = current->signal;
	u64 now = ktime_get_ns(), exp = READ_ONCE(sig->it_real_expires_ns);

	*value = exp ? (exp > now ? exp - now : 1000) : 0;
	*interval = sig->it_real_incr_ns;
}

static void itimer_set(u64 value, u64 interval)
{
	struct signal_struct *sig = current->signal;

	del_timer_sync(&sig->real_timer);
	sig->it_real_incr_ns = interval;
	sig->it_real_expires_ns = value ? ktime_get_ns() + value : 0;
	if (value)
		mod_timer(&sig->real_timer, jiffies + nsecs_to_jiffies_ceil(value));
}

static void ns_to_tv(u64 ns, struct timeval_user *tv)
{
	tv->sec = (s64)(ns / NSEC_PER_SEC);
	tv->usec = (s64)(ns % NSEC_PER_SEC / 1000);
}

SYSCALL_DEFINE2(getitimer, int, which, struct itimerval_user *, uval)
{
	struct itimerval_user v;
	u64 value, interval;

	if (which != ITIMER_REAL)
		return -EINVAL;
	itimer_get(&value, &interval);
	ns_to_tv(value, &v.value);
	ns_to_tv(interval, &v.interval);
	return copy_to_user(uval, &v, sizeof(v)) ? -EFAULT : 0;
}

SYSCALL_DEFINE3(setitimer, int, which, const struct itimerval_user *, unew,
		struct itimerval_user *, uold)
{
	struct itimerval_user v, old;
	u64 value, interval;

	if (which != ITIMER_REAL)
		return -EINVAL;
	if (unew && copy_from_user(&v, unew, sizeof(v)))
		return -EFAULT;
	if (unew && (v.value.usec < 0 || v.value.usec >= 1000000 || v.interval.usec < 0 ||
		     v.interval.usec >= 1000000 || v.value.sec < 0 || v.interval.sec < 0))
		return -EINVAL;
	itimer_get(&value, &interval);
	ns_to_tv(value, &old.value);
	ns_to_tv(interval, &old.interval);
	if (unew)
		itimer_set((u64)v.value.sec * NSEC_PER_SEC + (u64)v.value.usec * 1000,
			   (u64)v.interval.sec * NSEC_PER_SEC + (u64)v.interval.usec * 1000);
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE1(alarm, unsigned int, seconds)
{
	u64 value, interval;

	itimer_get(&value, &interval);
	itimer_set((u64)seconds * NSEC_PER_SEC, 0);
	/* The seconds left of the previous alarm, rounded as Linux does (>= 0.5 s up). */
	return (long)((value + NSEC_PER_SEC / 2) / NSEC_PER_SEC) + (value && value < NSEC_PER_SEC / 2);
}
