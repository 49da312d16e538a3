/*
 * PERF_TYPE_SOFTWARE: counters the kernel keeps for perf.
 *  - cpu-clock, task-clock: nanoseconds while enabled, on the event's
 *    clock (perf_event_clock): the task's runtime for a per-task event,
 *    wall time for a per-CPU one. Counting only.
 *  - context-switches: every switch away from a task (sched_switch).
 *  - cpu-migrations: a task starting to run on another CPU than it last
 *    ran on, seen at sched_switch for the tasks a per-task event follows.
 *  - page-faults: every user-address fault (exceptions:page_fault_user
 *    and _kernel), with the faulting address for PERF_SAMPLE_ADDR and
 *    the faulting ip (a user ip for faults in ring 3).
 *  - dummy: counts nothing; carries side-band records (COMM, MMAP, ...).
 * Each counter with hits is a hook whose probe sits on the tracepoint
 * while an event uses it.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/rcu.h>
#include <asm/ptrace.h>
#include <trace/perf_event.h>
#include <trace/perf_recursion.h>
#include <trace/events/sched.h>
#include <trace/events/exceptions.h>

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

/* Hit every matching event of hook from task (exclude_user/kernel by where ip is). */
static void sw_hit(struct perf_hook *hook, struct task_struct *task, unsigned long ip,
		   bool user_ip, u64 addr)
{
	struct perf_event **ev;

	if (perf_recursion_enter() < 0)
		return;
	for (ev = rcu_dereference(hook->events); ev && *ev; ev++) {
		struct perf_event *e = *ev;
		u64 excl = user_ip ? PERF_ATTR_FLAG_EXCLUDE_USER : PERF_ATTR_FLAG_EXCLUDE_KERNEL;

		if (perf_event_matches(e, task) && !(e->attr.flags & excl))
			perf_event_hit(e, 1, ip, user_ip, addr, NULL, 0);
	}
	perf_recursion_exit();
}

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	sw_hit(data, prev, _THIS_IP_, false, 0);
}

/*
 * A migration shows when a followed task starts running: the event
 * remembers where its task last ran. Per-CPU events cannot tell (no
 * per-task memory here) and count none.
 */
static void probe_migrate(void *data, bool preempt, struct task_struct *prev,
			  struct task_struct *next, unsigned int prev_state)
{
	struct perf_hook *hook = data;
	struct perf_event **ev;
	int cpu = smp_processor_id();

	if (perf_recursion_enter() < 0)
		return;
	for (ev = rcu_dereference(hook->events); ev && *ev; ev++) {
		struct perf_event *e = *ev;

		if (!e->task || !perf_event_matches(e, next))
			continue;
		if (e->last_cpu >= 0 && e->last_cpu != cpu &&
		    !(e->attr.flags & PERF_ATTR_FLAG_EXCLUDE_KERNEL))
			perf_event_hit(e, 1, _THIS_IP_, false, 0, NULL, 0);
		e->last_cpu = cpu;
	}
	perf_recursion_exit();
}

static void probe_fault(void *data, unsigned long address, struct pt_regs *regs,
			unsigned long error_code)
{
	sw_hit(data, current, regs->rip, user_mode(regs), address);
}

static int switches_attach(struct perf_hook *hook)
{
	return register_trace_sched_switch(probe_switch, hook);
}

static void switches_detach(struct perf_hook *hook)
{
	unregister_trace_sched_switch(probe_switch, hook);
}

static int migrations_attach(struct perf_hook *hook)
{
	return register_trace_sched_switch(probe_migrate, hook);
}

static void migrations_detach(struct perf_hook *hook)
{
	unregister_trace_sched_switch(probe_migrate, hook);
}

static int faults_attach(struct perf_hook *hook)
{
	int err = register_trace_page_fault_user(probe_fault, hook);

	if (!err && (err = register_trace_page_fault_kernel(probe_fault, hook)))
		unregister_trace_page_fault_user(probe_fault, hook);
	return err;
}

static void faults_detach(struct perf_hook *hook)
{
	unregister_trace_page_fault_user(probe_fault, hook);
	unregister_trace_page_fault_kernel(probe_fault, hook);
}

static struct perf_hook sw_hooks[] = {
	[PERF_COUNT_SW_PAGE_FAULTS] = { .attach = faults_attach, .detach = faults_detach },
	[PERF_COUNT_SW_CONTEXT_SWITCHES] = { .attach = switches_attach, .detach = switches_detach },
	[PERF_COUNT_SW_CPU_MIGRATIONS] = { .attach = migrations_attach,
					   .detach = migrations_detach },
};

int perf_sw_event_init(struct perf_event *event)
{
	switch (event->attr.config) {
	case PERF_COUNT_SW_CPU_CLOCK:
	case PERF_COUNT_SW_TASK_CLOCK:
		/* no hits to sample from: Spoor has no per-event timers */
		return event->sample_period ? -EOPNOTSUPP : 0;
	case PERF_COUNT_SW_DUMMY:
		return 0;
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
	case PERF_COUNT_SW_CPU_MIGRATIONS:
		return perf_event_attach(event, &sw_hooks[event->attr.config]);
	default:
		return -ENOENT;
	}
}
