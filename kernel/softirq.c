/*
 * Softirqs: work a hardirq handler defers to run with interrupts enabled,
 * on the same CPU, before returning to task code. They run at irq_exit
 * when the interrupt did not interrupt another interrupt or a
 * bottom-half-disabled section, with SOFTIRQ_OFFSET in preempt_count (so
 * in_serving_softirq() is true). A softirq that keeps re-raising itself
 * would starve tasks: after a few rounds the rest is handed to the
 * per-CPU thread ksoftirqd/N, which the scheduler runs like any task.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/spinlock.h>
#include <kernel/interrupt.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/ftrace.h>
#include <kernel/sched/hooks.h>

#define MAX_SOFTIRQ_RESTART	10
#define MAX_SOFTIRQ_TIME_NS	(2 * NSEC_PER_MSEC)

const char *const softirq_to_name[NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

DEFINE_PER_CPU(u32, __softirq_pending);
static DEFINE_PER_CPU(struct task_struct *, ksoftirqd);
static DEFINE_PER_CPU(u64, softirq_stat[NR_SOFTIRQS]);
static void (*softirq_vec[NR_SOFTIRQS])(void);

void open_softirq(int nr, void (*action)(void))
{
	softirq_vec[nr] = action;
}

static void wakeup_softirqd(void)
{
	struct task_struct *t = this_cpu_read(ksoftirqd);

	if (t && task_state(t) != TASK_RUNNING)
		wake_up_process(t);
}

void raise_softirq_irqoff(unsigned int nr)
{
	trace_softirq_raise(nr);
	this_cpu_write(__softirq_pending, this_cpu_read(__softirq_pending) | (1u << nr));
	/* From task code nobody passes through irq_exit soon: let the thread do it. */
	if (!in_interrupt())
		wakeup_softirqd();
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	raise_softirq_irqoff(nr);
	local_irq_restore(flags);
}

u64 softirq_count_of(int cpu, unsigned int nr)
{
	return nr < NR_SOFTIRQS ? per_cpu(softirq_stat, cpu)[nr] : 0;
}

/* Called with irqs off and softirqs allowed; returns with irqs off. */
static void __do_softirq(void)
{
	u64 end = ktime_get_ns() + MAX_SOFTIRQ_TIME_NS;
	int restart = MAX_SOFTIRQ_RESTART;
	u32 pending;

	preempt_count_add(SOFTIRQ_OFFSET);
	while ((pending = local_softirq_pending())) {
		this_cpu_write(__softirq_pending, 0);
		local_irq_enable();
		for (unsigned int nr = 0; pending; nr++, pending >>= 1) {
			if (!(pending & 1) || !softirq_vec[nr])
				continue;
			this_cpu_ptr(&softirq_stat)[0][nr]++;
			trace_softirq_entry(nr);
			softirq_vec[nr]();
			trace_softirq_exit(nr);
		}
		local_irq_disable();
		if (local_softirq_pending() && (--restart == 0 || ktime_get_ns() > end)) {
			wakeup_softirqd();
			break;
		}
	}
	preempt_count_sub(SOFTIRQ_OFFSET);
}

void do_softirq(void)
{
	unsigned long flags;

	if (in_interrupt())
		return;
	local_irq_save(flags);
	if (local_softirq_pending())
		__do_softirq();
	local_irq_restore(flags);
}

void local_bh_disable(void)
{
	preempt_count_add(SOFTIRQ_DISABLE_OFFSET);
	barrier();
}

void local_bh_enable(void)
{
	barrier();
	/* Keep preemption off while running what was raised, then allow it. */
	preempt_count_sub(SOFTIRQ_DISABLE_OFFSET - PREEMPT_OFFSET);
	if (!in_interrupt() && local_softirq_pending() && !irqs_disabled())
		do_softirq();
	preempt_enable();
}

void irq_enter(void)
{
	preempt_count_add(HARDIRQ_OFFSET);
}

/*
 * Irqs are off here and stay off. notrace: it returns in a lower context
 * than it was called in, where the task the interrupt stopped may hold
 * the tracer's recursion guard, so function_graph could not record its
 * return.
 */
notrace void irq_exit(void)
{
	preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt() && local_softirq_pending()) {
		struct task_struct *t = this_cpu_read(ksoftirqd);

		/* ksoftirqd already has a backlog: it keeps it, as Linux does. */
		if (t && task_state(t) == TASK_RUNNING && t != current)
			return;
		__do_softirq();
	}
}

static int run_ksoftirqd(void *arg)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!local_softirq_pending())
			schedule();
		__set_current_state(TASK_RUNNING);
		local_irq_disable();
		if (local_softirq_pending())
			__do_softirq();
		local_irq_enable();
		if (this_cpu_read(need_resched))
			schedule();
	}
	return 0;
}

void spawn_ksoftirqd(int cpu)
{
	struct task_struct *t = kthread_create(run_ksoftirqd, NULL, "ksoftirqd/%d", cpu);

	if (IS_ERR(t)) {
		pr_err("softirq: cannot start ksoftirqd/%d: %ld\n", cpu, PTR_ERR(t));
		return;
	}
	kthread_bind(t, cpu);
	per_cpu(ksoftirqd, cpu) = t;
	wake_up_new_task(t);
}
