/*
 * Boot self-check of the kernel base (selftest=base on the command line):
 * CPUs, scheduling on every CPU, preemption, NMIs, softirqs, wake-ups from
 * interrupts, sleeping, exit and reaping, signals. Prints TAP, one line
 * per check, so a boot test only has to look for "not ok".
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/time.h>
#include <kernel/delay.h>
#include <kernel/timer.h>
#include <kernel/smp.h>
#include <kernel/interrupt.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/workload.h>
#include <kernel/selftest.h>

#define NR_CHECKS	13

static int check_nr;
static int failures;

static void tap(bool ok, const char *fmt, ...) __printf(2, 3);
static void tap(bool ok, const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	check_nr++;
	failures += !ok;
	printk("%sok %d - %s\n", ok ? "" : "not ", check_nr, buf);
}

static u64 total_switches(u64 *per_cpu_out)
{
	struct sched_cpu_stats st;
	u64 sum = 0;

	for (unsigned int c = 0; c < nr_cpu_ids; c++) {
		sched_cpu_stats((int)c, &st);
		per_cpu_out[c] = st.nr_switches;
		sum += st.nr_switches;
	}
	return sum;
}

static bool wait_nmi(int cpu, u64 before)
{
	u64 end = ktime_get_ns() + 100 * NSEC_PER_MSEC;

	while (nmi_count(cpu) == before && ktime_get_ns() < end)
		cpu_relax();
	return nmi_count(cpu) > before;
}

/* --- wake-up from hardirq context --- */
static DECLARE_WAIT_QUEUE_HEAD(irq_wq);
static int irq_flag;
static unsigned long irq_waker_pc;

static void wake_from_ipi(void *unused)
{
	irq_waker_pc = preempt_count();
	WRITE_ONCE(irq_flag, 1);
	wake_up(&irq_wq);
}

static int irq_sleeper(void *unused)
{
	long left = wait_event_timeout(irq_wq, READ_ONCE(irq_flag), msecs_to_jiffies(1000));

	return left > 0 ? 0 : 1;
}

/* --- softirq context, seen from a timer --- */
static unsigned long timer_pc;
static int timer_fired;

static void selftest_timer_fn(struct timer_list *t)
{
	timer_pc = preempt_count();
	WRITE_ONCE(timer_fired, 1);
}

static int exit_with_7(void *unused)
{
	return 7;
}

static int sleep_long(void *unused)
{
	msleep_interruptible(10000);
	return fatal_signal_pending(current) ? 0 : 1;
}

static pid_t orphan_pid;

static int orphan_maker(void *unused)
{
	struct task_struct *t = kthread_run(sleep_long, NULL, "orphan");

	if (IS_ERR(t))
		return 1;
	orphan_pid = t->pid;
	return 0;
}

/*
 * Two hogs bound to one CPU, each spinning until both have counted: the
 * second can only ever run if the tick preempts the first.
 */
static u64 bound_progress[2];
static u64 bound_end;

static int bound_hog(void *arg)
{
	u64 *mine = arg;

	while (!(READ_ONCE(bound_progress[0]) && READ_ONCE(bound_progress[1]))) {
		(*(volatile u64 *)mine)++;
		if (ktime_get_ns() > bound_end)
			return 1;
	}
	return 0;
}

int selftest_base(void)
{
	u64 sw_before[NR_CPUS], sw_after[NR_CPUS], seen = 0, t0;
	unsigned int n = nr_cpu_ids;
	bool all;
	int ret, status, me, target;
	struct task_struct *t, *h[2];
	pid_t pid;
	struct timer_list timer;

	check_nr = failures = 0;
	printk("1..%d\n", NR_CHECKS);

	tap(num_online_cpus() == n && n >= 1, "all %u CPUs online (mask %#lx)", n,
	    (unsigned long)cpu_online_mask);

	/* A busy host can starve a vCPU for a while: a few rounds, until every CPU has run a hog. */
	total_switches(sw_before);
	ret = 0;
	for (int round = 0; round < 10 && seen != cpu_online_mask; round++) {
		u64 s = 0;

		ret = workload_cpu_hog(2 * n, 60, &s);
		seen |= s;
	}
	total_switches(sw_after);
	if (seen != cpu_online_mask)
		trigger_all_cpu_backtrace();	/* what the CPU that ran none is doing */
	all = true;
	for (unsigned int c = 0; c < n; c++)
		all &= sw_after[c] > sw_before[c];
	tap(ret == 0 && seen == cpu_online_mask, "threads ran on every CPU (seen %#lx, ret %d)",
	    (unsigned long)seen, ret);
	tap(all, "context switches on every CPU");

	bound_end = ktime_get_ns() + 2 * NSEC_PER_SEC;
	bound_progress[0] = bound_progress[1] = 0;
	for (int i = 0; i < 2; i++) {
		h[i] = kthread_create(bound_hog, &bound_progress[i], "boundhog/%d", i);
		kthread_bind(h[i], (int)n - 1);
		wake_up_new_task(h[i]);
	}
	t0 = ktime_get_ns();
	ret = 0;
	for (int i = 0; i < 2; i++) {
		kernel_wait(h[i]->pid, &status);
		ret |= WEXITSTATUS(status);
	}
	t0 = ktime_get_ns() - t0;
	tap(!ret, "tick preemption: two hogs on CPU %u both ran (%lu us)", n - 1,
	    (unsigned long)(t0 / 1000));

	preempt_disable();
	me = smp_processor_id();
	t0 = nmi_count(me);
	send_self_nmi();
	ret = wait_nmi(me, t0);
	preempt_enable();
	tap(ret, "self-NMI arrived on CPU %d", me);

	target = n > 2 ? 2 : (int)n - 1;
	t0 = nmi_count(target);
	send_nmi(target);
	tap(wait_nmi(target, t0), "NMI to CPU %d arrived", target);

	timer_setup(&timer, selftest_timer_fn);
	timer_fired = 0;
	mod_timer(&timer, jiffies + 2);
	msleep(10);
	del_timer_sync(&timer);
	t0 = 0;
	for (unsigned int c = 0; c < n; c++)
		t0 += softirq_count_of((int)c, TIMER_SOFTIRQ);
	tap(timer_fired && (timer_pc & SOFTIRQ_OFFSET) && !(timer_pc & HARDIRQ_MASK) && t0 > 0,
	    "timer ran in softirq context (preempt_count %#lx)", timer_pc);

	if (n > 1) {
		irq_flag = 0;
		t = kthread_run(irq_sleeper, NULL, "irqwait");
		msleep(5);
		target = smp_processor_id() == 0 ? 1 : 0;
		smp_call_function_single(target, wake_from_ipi, NULL, true);
		pid = kernel_wait(t->pid, &status);
		tap(pid == t->pid && WEXITSTATUS(status) == 0 && (irq_waker_pc & HARDIRQ_MASK),
		    "wake-up from hardirq context (preempt_count %#lx)", irq_waker_pc);
	} else {
		tap(true, "# SKIP wake-up from hardirq context: the IPI needs a second CPU");
	}

	t0 = ktime_get_ns();
	msleep(20);
	t0 = ktime_get_ns() - t0;
	tap(t0 >= 20 * NSEC_PER_MSEC && t0 < 200 * NSEC_PER_MSEC, "msleep(20) slept %lu us",
	    (unsigned long)(t0 / 1000));

	t = kthread_run(exit_with_7, NULL, "exit7");
	pid = kernel_wait(-1, &status);
	tap(pid == t->pid && WIFEXITED(status) && WEXITSTATUS(status) == 7 &&
	    kernel_wait(-1, NULL) == -ECHILD, "exit code 7 reaped, then -ECHILD");

	t = kthread_run(sleep_long, NULL, "sigtest");
	msleep(5);
	t0 = ktime_get_ns();
	ret = task_kill(t->pid, SIGINT);
	pid = kernel_wait(t->pid, &status);
	t0 = ktime_get_ns() - t0;
	tap(ret == 0 && pid > 0 && WEXITSTATUS(status) == 0 && t0 < 100 * NSEC_PER_MSEC &&
	    task_kill(pid, SIGINT) == -ESRCH, "SIGINT cut a 10 s sleep short (%lu us)",
	    (unsigned long)(t0 / 1000));

	t = kthread_run(orphan_maker, NULL, "orphanmaker");
	kernel_wait(t->pid, &status);
	ret = task_kill(orphan_pid, SIGKILL);
	msleep(20);
	tap(WEXITSTATUS(status) == 0 && ret == 0 && task_kill(orphan_pid, 0) == -ESRCH,
	    "orphan %d adopted by init and reaped at exit", orphan_pid);

	t0 = ktime_get_ns();
	ret = workload_pingpong(n, 200);
	ret = ret ? ret : workload_kmalloc(n, 500, 4096);
	tap(ret == 0, "ping-pong and kmalloc workloads (%lu us)",
	    (unsigned long)((ktime_get_ns() - t0) / 1000));

	printk("# selftest base: %d of %d checks failed\n", failures, check_nr);
	return failures ? -EIO : 0;
}
