/*
 * PERF_TYPE_TRACEPOINT: perf events on trace events (attr.config = the
 * event's id). While any perf event uses an event, the event's perf
 * probe (trace/stages/stage8_perf.h) is attached to its tracepoint with
 * the trace_event_call as data; a hit builds the record in this CPU's
 * scratch for the current context and offers it to every perf event on
 * the event's hook: the ones whose CPU, task and filter match count it,
 * and sample it when their period ends. The record is the same one the
 * ftrace ring would get (common fields first), so PERF_SAMPLE_RAW is what
 * perf's tools decode with the event's format file.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/rcu.h>
#include <trace/tracepoint.h>
#include <trace/trace_event.h>
#include <trace/trace_filter.h>
#include <trace/perf_event.h>
#include <trace/perf_trace.h>
#include <trace/perf_recursion.h>

/* One record per context, 8-byte aligned like the ring it goes to. */
struct perf_trace_scratch {
	u64 buf[PERF_NR_CONTEXTS][PERF_MAX_TRACE_SIZE / 8];
};

static DEFINE_PER_CPU(struct perf_trace_scratch, perf_trace_scratch);
static struct perf_hook *tp_hooks[TRACE_EVENT_MAX_ID];

void *perf_trace_buf_alloc(u32 size, int *rctx)
{
	if (size > PERF_MAX_TRACE_SIZE)
		return NULL;
	*rctx = perf_recursion_enter();
	if (*rctx < 0)
		return NULL;
	return this_cpu_ptr(&perf_trace_scratch)->buf[*rctx];
}

void perf_trace_buf_submit(struct trace_event_call *call, void *raw, u32 size, int rctx,
			   u64 addr, u64 count, struct task_struct *task,
			   const struct pt_regs *regs)
{
	struct perf_hook *hook = READ_ONCE(tp_hooks[call->id]);
	struct perf_event **ev = hook ? rcu_dereference(hook->events) : NULL;

	if (!task)
		task = current;
	for (; ev && *ev; ev++) {
		struct perf_event *e = *ev;
		struct perf_event *root = e->parent ? e->parent : e;
		struct event_filter *filter = READ_ONCE(root->filter);

		/* tracepoints hit in the kernel; syscall events at the task's user regs */
		if (!perf_event_matches(e, task) || perf_event_excluded(e, regs))
			continue;
		if (filter && !filter_match(filter, raw))
			continue;
		perf_event_hit(e, count, regs, addr, raw, size);
	}
	perf_recursion_exit();
}

static int tp_attach(struct perf_hook *hook)
{
	struct trace_event_call *call = hook->data;

	if (call->perf_reg)
		return call->perf_reg(call, true);
	return tracepoint_probe_register(call->tp, call->perf_probe, call);
}

static void tp_detach(struct perf_hook *hook)
{
	struct trace_event_call *call = hook->data;

	if (call->perf_reg)
		call->perf_reg(call, false);
	else
		tracepoint_probe_unregister(call->tp, call->perf_probe, call);
}

int perf_tp_event_init(struct perf_event *event)
{
	struct trace_event_call *call;
	struct perf_hook *hook;

	if (event->attr.config >= TRACE_EVENT_MAX_ID)
		return -EINVAL;
	call = trace_find_event_by_id((unsigned int)event->attr.config);
	if (!call)
		return -EINVAL;
	if (!call->tp || !call->perf_probe)
		return -EOPNOTSUPP;
	hook = tp_hooks[call->id];
	if (!hook) {
		hook = kzalloc(sizeof(*hook), GFP_KERNEL);
		if (!hook)
			return -ENOMEM;
		hook->attach = tp_attach;
		hook->detach = tp_detach;
		WRITE_ONCE(tp_hooks[call->id], hook);
	}
	/* a runtime event may have left its id to another since the hook was made */
	if (!hook->nr)
		hook->data = call;
	return perf_event_attach(event, hook);
}

/* The trace event a tracepoint perf event is on (for SET_FILTER). */
struct trace_event_call *perf_tp_event_call(struct perf_event *event)
{
	return event->hook ? event->hook->data : NULL;
}
