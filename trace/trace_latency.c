/*
 * What the latency tracers share (trace/trace_latency.h): the report
 * rule, the max snapshot, their start and stop on an array. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_functions.h>
#include <trace/trace_latency.h>
#include <trace/trace_functions_graph.h>

u64 latency_now(struct trace_array *tr)
{
	return ring_buffer_time_stamp(READ_ONCE(tr->buffer));
}

bool latency_report(struct trace_array *tr, u64 delta)
{
	unsigned long thresh = READ_ONCE(tracing_thresh);

	if (thresh)
		return delta >= thresh;
	return delta > READ_ONCE(tr->max_latency);
}

void latency_update_max(struct trace_array *tr, struct task_struct *task, int cpu, u64 delta,
			u64 start_ts, unsigned long critical_start, unsigned long critical_end)
{
	struct trace_max_data *m = &tr->max_data;

	WRITE_ONCE(tr->max_latency, delta);
	/* The facts go with the buffer they describe: a reader opening now sees old or new. */
	if (tracing_snapshot(tr))
		return;
	m->latency = delta;
	m->time_start = start_ts;
	m->critical_start = critical_start;
	m->critical_end = critical_end;
	m->cpu = cpu;
	m->pid = task->pid;
	memcpy(m->comm, task->comm, sizeof(m->comm));
	m->nice = task_nice(task);
}

int latency_register_tracers(struct tracer *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = register_tracer(&t[i]);

		if (ret)
			return ret;
	}
	return 0;
}

static int latency_register(struct trace_array *tr, struct ftrace_ops *ops)
{
	return register_ftrace_function(ops);
}

static void latency_unregister(struct ftrace_ops *ops)
{
	unregister_ftrace_function(ops);
}

bool latency_graph_on(const struct trace_array *tr)
{
	return tr->trace_flags & TRACE_ITER(DISPLAY_GRAPH);
}

/* The calls followed in the form graph says: the function tracer's or the graph's. */
static int functions_start(struct trace_array *tr, const struct latency_functions *lf,
			   bool graph)
{
	if (graph) {
		tr->ftrace->graph_want = lf->want;
		return ftrace_tracer_init(tr, fgraph_start);
	}
	tr->ftrace->ops.func = lf->func;
	return ftrace_tracer_init(tr, latency_register);
}

static void functions_stop(struct trace_array *tr, bool graph)
{
	ftrace_tracer_reset(tr, graph ? fgraph_stop : latency_unregister);
	tr->ftrace->graph_want = NULL;
}

int latency_functions_start(struct trace_array *tr, const struct latency_functions *lf)
{
	if (!tr->ftrace || !(tr->trace_flags & TRACE_ITER(FUNCTION)))
		return 0;
	return functions_start(tr, lf, latency_graph_on(tr));
}

void latency_functions_stop(struct trace_array *tr)
{
	if (tr->ftrace && (tr->trace_flags & TRACE_ITER(FUNCTION)))
		functions_stop(tr, latency_graph_on(tr));
}

/* Runs before the option's bit changes: tr->trace_flags still has the old value. */
int latency_flag_changed(struct trace_array *tr, unsigned int bit, bool on,
			 const struct latency_functions *lf)
{
	bool functions = tr->trace_flags & TRACE_ITER(FUNCTION), graph = latency_graph_on(tr);

	if (!tr->ftrace)
		return 0;
	if (bit == TRACE_ITER_FUNCTION_BIT) {
		if (!on) {
			functions_stop(tr, graph);
			return 0;
		}
		return functions_start(tr, lf, graph);
	}
	if (bit != TRACE_ITER_DISPLAY_GRAPH_BIT)
		return 0;
	/* What was recorded in one form would print in the other: start afresh. */
	if (functions)
		functions_stop(tr, graph);
	WRITE_ONCE(tr->max_latency, 0);
	tracing_reset(tr, RING_BUFFER_ALL_CPUS);
	return functions ? functions_start(tr, lf, on) : 0;
}

void latency_function_record(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			     unsigned int trace_ctx)
{
	if (latency_graph_on(tr))
		trace_graph_function(tr, ip, trace_ctx);
	else
		trace_function_record(tr, ip, parent_ip, trace_ctx);
}

int latency_tracer_init(struct trace_array *tr)
{
	int ret = tracing_alloc_snapshot(tr);

	if (ret)
		return ret;
	tr->saved_flags = tr->trace_flags;
	/* Linux's: a latency trace reads best in its own format, and must not stop when full. */
	trace_set_option(tr, TRACE_ITER_OVERWRITE_BIT, true);
	trace_set_option(tr, TRACE_ITER_LATENCY_FMT_BIT, true);
	WRITE_ONCE(tr->max_latency, 0);
	memset(&tr->max_data, 0, sizeof(tr->max_data));
	tracing_reset(tr, RING_BUFFER_ALL_CPUS);
	return 0;
}

void latency_tracer_reset(struct trace_array *tr)
{
	/* Linux frees the max buffer when its tracer goes; hooks and probes are off by now. */
	tracing_free_snapshot(tr);
	memset(&tr->max_data, 0, sizeof(tr->max_data));
	trace_set_option(tr, TRACE_ITER_LATENCY_FMT_BIT,
			 tr->saved_flags & TRACE_ITER(LATENCY_FMT));
	trace_set_option(tr, TRACE_ITER_OVERWRITE_BIT, tr->saved_flags & TRACE_ITER(OVERWRITE));
}
