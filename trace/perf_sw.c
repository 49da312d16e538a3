/*
 * PERF_TYPE_SOFTWARE: counters the kernel keeps for perf.
 *  - cpu-clock, task-clock: trace/perf_clock.c.
 *  - context-switches: every switch away from a task (sched_switch).
 *  - cpu-migrations: a task starting to run on another CPU than it last
 *    ran on: sched_migrate_task marks it, its next sched_switch in counts
 *    for the events of that task and that CPU (Linux's sched_migrated).
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
#include <kernel/rcu.h>
#include <asm/ptrace.h>
#include <trace/perf_event.h>
#include <trace/perf_recursion.h>
#include <trace/perf_trace.h>
#include <trace/events/sched.h>
#include <trace/events/exceptions.h>

/* Hit every matching event of hook from task (exclude_user/kernel by where regs are). */
static void sw_hit(struct perf_hook *hook, struct task_struct *task, const struct pt_regs *regs,
		   u64 addr)
{
	struct perf_event **ev;

	if (perf_recursion_enter() < 0)
		return;
	for (ev = rcu_dereference(hook->events); ev && *ev; ev++) {
		struct perf_event *e = *ev;

		if (perf_event_matches(e, task) && !perf_event_excluded(e, regs))
			perf_event_hit(e, 1, regs, addr, NULL, 0);
	}
	perf_recursion_exit();
}

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct pt_regs regs;

	perf_fetch_caller_regs(&regs);
	sw_hit(data, prev, &regs, 0);
}

static void probe_migrate_task(void *data, struct task_struct *p, int dest_cpu)
{
	WRITE_ONCE(p->sched_migrated, true);
}

/* The migrated task runs on its new CPU: count it there, for it (current is still prev). */
static void probe_migrated_in(void *data, bool preempt, struct task_struct *prev,
			      struct task_struct *next, unsigned int prev_state)
{
	struct pt_regs regs;

	if (!READ_ONCE(next->sched_migrated))
		return;
	WRITE_ONCE(next->sched_migrated, false);
	perf_fetch_caller_regs(&regs);
	sw_hit(data, next, &regs, 0);
}

static void probe_fault(void *data, unsigned long address, struct pt_regs *regs,
			unsigned long error_code)
{
	sw_hit(data, current, regs, address);
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
	int err = register_trace_sched_migrate_task(probe_migrate_task, hook);

	if (!err && (err = register_trace_sched_switch(probe_migrated_in, hook)))
		unregister_trace_sched_migrate_task(probe_migrate_task, hook);
	return err;
}

static void migrations_detach(struct perf_hook *hook)
{
	unregister_trace_sched_migrate_task(probe_migrate_task, hook);
	unregister_trace_sched_switch(probe_migrated_in, hook);
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
		return perf_clock_event_init(event);
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
