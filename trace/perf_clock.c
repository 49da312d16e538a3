/*
 * cpu-clock and task-clock: nanoseconds while enabled, on the event's
 * clock (perf_event_clock): the task's runtime for a per-task event, wall
 * time for a per-CPU one. Both sample from an hrtimer (kernel/hrtimer.h)
 * that fires every sample_period ns while the event counts, in hardirq
 * context, with the interrupted registers: the sample's IP, user or
 * kernel, and callchain are the interrupted code's, as Linux's
 * perf_swevent_hrtimer takes them. sample_freq becomes the fixed period
 * 1e9/freq when the event is made (a timer needs no feedback loop), and
 * no period is shorter than 10 us, as in Linux.
 *
 * Where the timer runs: a per-CPU event's on its CPU from enable to
 * disable; a per-task event's on the CPU its task runs on, only while
 * it runs: sched_switch stops it (keeping what is left of the period)
 * and starts it again when the task comes back. The resolution is the
 * local APIC timer's, a few microseconds under TCG; a late interrupt
 * still samples once, with the full period, and the next expiry moves
 * past now (the skipped periods are not sampled, as in Linux).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/rcu.h>
#include <kernel/hrtimer.h>
#include <asm/ptrace.h>
#include <trace/perf_event.h>
#include <trace/perf_recursion.h>
#include <trace/events/sched.h>

#define PERF_CLOCK_MIN_PERIOD	10000ull	/* ns */

/* Runtime of p including the slice it may be running right now. */
static u64 task_runtime(const struct task_struct *p)
{
	u64 sum = READ_ONCE(p->sum_exec_runtime);
	u64 start = READ_ONCE(p->exec_start);
	u64 now = ktime_get_ns();

	if (READ_ONCE(p->on_cpu) && now > start)
		sum += now - start;
	return sum;
}

u64 perf_event_clock(const struct perf_event *event)
{
	return event->task ? task_runtime(event->task) : ktime_get_ns();
}

bool perf_event_is_clock(const struct perf_event *event)
{
	return event->attr.type == PERF_TYPE_SOFTWARE &&
	       (event->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		event->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

static u64 clock_period(const struct perf_event *event)
{
	return event->sample_period > PERF_CLOCK_MIN_PERIOD ? event->sample_period :
	       PERF_CLOCK_MIN_PERIOD;
}

enum hrtimer_restart perf_clock_hrtimer(struct hrtimer *t)
{
	struct perf_event *event = container_of(t, struct perf_event, hrtimer);
	struct pt_regs *regs = get_irq_regs();

	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE)
		return HRTIMER_NORESTART;
	/* a sibling whose leader is off counts time but takes no samples */
	if (regs && perf_event_matches(event, current) && !perf_event_excluded(event, regs) &&
	    !((event->attr.flags & PERF_ATTR_FLAG_EXCLUDE_IDLE) && is_idle_task(current)) &&
	    perf_recursion_enter() >= 0) {
		perf_event_overflow(event, event->sample_period, regs, 0, NULL, 0);
		perf_recursion_exit();
	}
	hrtimer_forward(t, ktime_get_ns(), clock_period(event));
	/* disabled meanwhile (REFRESH's limit, or another CPU): stop here */
	return READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE ? HRTIMER_RESTART :
	       HRTIMER_NORESTART;
}

/* Arm the timer on cpu for what is left of the period. */
static void clock_arm(struct perf_event *event, int cpu)
{
	s64 left = event->hrtimer_left;

	event->hrtimer_left = 0;
	if (left <= 0)
		left = (s64)clock_period(event);
	hrtimer_start_on(&event->hrtimer, ktime_get_ns() + (u64)left, cpu);
}

/* Stop the timer, keeping what is left of the period for the next start. */
static void clock_disarm(struct perf_event *event)
{
	if (hrtimer_try_to_cancel(&event->hrtimer) > 0)
		event->hrtimer_left = hrtimer_get_remaining(&event->hrtimer);
}

void perf_clock_start(struct perf_event *event)
{
	struct task_struct *task = event->task;
	int here = smp_processor_id();

	if (!event->sample_period)
		return;
	if (!task)
		clock_arm(event, event->cpu);
	/* a task running elsewhere gets it at its next switch in (clock_switch) */
	else if (task == current && (event->cpu < 0 || event->cpu == here))
		clock_arm(event, here);
}

void perf_clock_stop(struct perf_event *event)
{
	if (event->sample_period)
		clock_disarm(event);
	event->hrtimer_left = 0;
}

/* Per-task sampling clocks: the timer follows the task on and off the CPU. */
static void clock_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct perf_hook *hook = data;
	int cpu = smp_processor_id();

	for (struct perf_event **ev = rcu_dereference(hook->events); ev && *ev; ev++) {
		struct perf_event *e = *ev;

		if (READ_ONCE(e->state) != PERF_EVENT_STATE_ACTIVE)
			continue;
		if (e->task == prev)
			clock_disarm(e);
		else if (e->task == next && (e->cpu < 0 || e->cpu == cpu))
			clock_arm(e, cpu);
	}
}

static int clock_attach(struct perf_hook *hook)
{
	return register_trace_sched_switch(clock_switch, hook);
}

static void clock_detach(struct perf_hook *hook)
{
	unregister_trace_sched_switch(clock_switch, hook);
}

static struct perf_hook clock_hook = { .attach = clock_attach, .detach = clock_detach };

int perf_clock_event_init(struct perf_event *event)
{
	if (event->attr.flags & PERF_ATTR_FLAG_FREQ) {
		/* the period a timer at sample_freq has, fixed once (Linux does the same) */
		event->attr.sample_period = NSEC_PER_SEC / event->attr.sample_freq;
		event->attr.flags &= ~PERF_ATTR_FLAG_FREQ;
		event->sample_period = event->attr.sample_period ? event->attr.sample_period : 1;
	}
	if (!event->sample_period || !event->task)
		return 0;
	return perf_event_attach(event, &clock_hook);
}
