/*
 * The function_graph tracer: on entry to a traced function, a
 * funcgraph_entry record and a hook of its return (trace/fgraph.c); on
 * return, a funcgraph_exit record with the call's start and end times.
 * Each array running it has its own ops, so its own set_ftrace_filter
 * and set_ftrace_notrace; a call several want is hooked once, its frame
 * marking which arrays recorded it (their slots). set_graph_function
 * (only those calls and what they call), set_graph_notrace (neither those
 * nor their callees), max_graph_depth and funcgraph-irqs are global, as
 * Linux's. Kernel only: the callbacks run from the trampoline and the
 * return hook in any context.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/preempt.h>
#include <kernel/time.h>
#include <kernel/percpu.h>
#include <kernel/rcu.h>
#include <asm/ftrace.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/ftrace_set.h>
#include <trace/fgraph.h>
#include <trace/trace_functions.h>
#include <trace/trace_functions_graph.h>
#include <trace/events/sched.h>

unsigned long fgraph_flags = FGRAPH_OPT(CPU) | FGRAPH_OPT(OVERHEAD) | FGRAPH_OPT(DURATION) |
			     FGRAPH_OPT(IRQS) | FGRAPH_OPT(SLEEP_TIME) | FGRAPH_OPT(GRAPH_TIME);
const char *const fgraph_opt_names[FGRAPH_OPT_NR + 1] = {
	"funcgraph-overrun", "funcgraph-cpu", "funcgraph-overhead", "funcgraph-proc",
	"funcgraph-duration", "funcgraph-abstime", "funcgraph-irqs", "funcgraph-tail",
	"sleep-time", "graph-time", NULL,
};
unsigned int fgraph_max_depth;
struct ftrace_set fgraph_function_set, fgraph_notrace_set;

/* Arrays it can run on at once: a frame's arrays mask has a bit for each. */
#define FGRAPH_SLOTS	FGRAPH_PROFILER_BIT
/* The arrays it runs on, by slot (NULL: free); read under RCU-sched by the callbacks. */
static struct trace_array *graph_arrays[FGRAPH_SLOTS];

static bool record_entry_ctx(struct trace_array *tr, unsigned long func, int depth,
			     unsigned int trace_ctx)
{
	struct trace_buffer *buffer;
	struct ftrace_graph_ent_entry *entry =
		ftrace_record_reserve_ctx(tr, sizeof(*entry), event_funcgraph_entry.id, &buffer,
					  trace_ctx);

	if (!entry)
		return false;
	entry->func = func;
	entry->depth = depth;
	ftrace_record_commit(buffer);
	return true;
}

static bool record_entry(struct trace_array *tr, unsigned long func, int depth)
{
	return record_entry_ctx(tr, func, depth, tracing_gen_ctx_dec());
}

/* Which set_graph_* flags the call of the site at ip takes; false: do not hook it. */
static bool graph_filters(unsigned long ip, unsigned int *flags)
{
	const struct ftrace_ret_stack *rs = &current->ret_stack;
	int idx = -1;

	*flags = 0;
	if (READ_ONCE(rs->notraced))
		return false;
	if (READ_ONCE(fgraph_notrace_set.count)) {
		idx = ftrace_site_index(ip);
		if (idx >= 0 && ftrace_set_test(&fgraph_notrace_set, (unsigned int)idx)) {
			*flags = FGRAPH_FRAME_NOTRACE;
			return true;
		}
	}
	if (READ_ONCE(fgraph_function_set.count)) {
		if (idx < 0)
			idx = ftrace_site_index(ip);
		if (idx >= 0 && ftrace_set_test(&fgraph_function_set, (unsigned int)idx))
			*flags = FGRAPH_FRAME_FILTER;
		else if (!READ_ONCE(rs->filtered))
			return false;
	}
	return true;
}

static void graph_entry(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			struct ftrace_regs *fregs)
{
	struct trace_ftrace *ft = op->private;
	struct trace_array *tr = ft->tr;
	unsigned int max = READ_ONCE(fgraph_max_depth), flags;
	struct ftrace_ret_frame *f;
	int depth;

	/*
	 * A buffer not recording here (pause-on-trace while `trace` is read,
	 * tracing_cpumask, a reset) would refuse the entry: no frame pushed
	 * and cancelled for it. (The dispatch runs with preemption off.)
	 */
	if (!READ_ONCE(tr->tracing_on) ||
	    !ring_buffer_record_is_on_cpu(READ_ONCE(tr->buffer), smp_processor_id()) ||
	    trace_function_ignore_pid(tr) || (ft->graph_want && !ft->graph_want()))
		return;
	/* Another array's callback hooked this call already: record it here too. */
	f = fgraph_hooked(fregs, ip, &depth);
	if (f && (f->arrays & ~FGRAPH_PROFILER)) {
		fgraph_stamp(f);
		if (!(f->flags & FGRAPH_FRAME_NOTRACE) && record_entry(tr, ip, depth))
			f->arrays |= 1u << ft->graph_slot;
		return;
	}
	/* Else this tracer's filters decide, on a frame of its own, the profiler's or an fprobe's. */
	if (!graph_filters(ip, &flags))
		return;
	if (max && (f ? depth : current->ret_stack.curr) >= (int)max)
		return;
	if (!(READ_ONCE(fgraph_flags) & FGRAPH_OPT(IRQS)) && in_hardirq())
		return;
	if (f) {
		fgraph_stamp(f);
		fgraph_add_flags(f, flags);
		if (!(flags & FGRAPH_FRAME_NOTRACE) && record_entry(tr, ip, depth))
			f->arrays |= 1u << ft->graph_slot;
		return;
	}
	f = fgraph_push(fregs, ip, flags, &depth);
	if (!f)
		return;
	if (!(flags & FGRAPH_FRAME_NOTRACE)) {
		if (!record_entry(tr, ip, depth)) {
			fgraph_cancel(f, depth);
			return;
		}
		f->arrays = 1u << ft->graph_slot;
	}
	fgraph_hook(fregs);
}

/* A funcgraph_exit record of func at depth, timed calltime..rettime. */
static void record_exit(struct trace_array *tr, unsigned long func, int depth, u64 calltime,
			u64 rettime, unsigned int trace_ctx)
{
	struct ftrace_graph_ret_entry *entry;
	struct trace_buffer *buffer;

	entry = ftrace_record_reserve_ctx(tr, sizeof(*entry), event_funcgraph_exit.id, &buffer,
					  trace_ctx);
	if (!entry)
		return;
	entry->func = func;
	entry->depth = depth;
	entry->overrun = READ_ONCE(current->ret_stack.overrun);
	entry->calltime = calltime;
	entry->rettime = rettime;
	ftrace_record_commit(buffer);
}

void trace_graph_function(struct trace_array *tr, unsigned long ip, unsigned int trace_ctx)
{
	u64 now = trace_clock_local();

	if (record_entry_ctx(tr, ip, 0, trace_ctx))
		record_exit(tr, ip, 0, now, now, trace_ctx);
}

static void record_return(struct trace_array *tr, const struct ftrace_ret_frame *f, int depth,
			  u64 rettime)
{

	if (!tr || !READ_ONCE(tr->tracing_on) ||
	    (tr->ftrace->graph_want && !tr->ftrace->graph_want()))
		return;
	record_exit(tr, f->func, depth, f->calltime, rettime, tracing_gen_ctx_dec());
}

/* The exit, into every array that recorded the entry and still runs the tracer. */
static void graph_return(const struct ftrace_ret_frame *f, int depth, u64 rettime)
{
	if (f->arrays & FGRAPH_PROFILER)
		ftrace_profile_return(f, depth, rettime);
	for (unsigned int m = f->arrays & ~FGRAPH_PROFILER; m; m &= m - 1)
		record_return(READ_ONCE(graph_arrays[__builtin_ctz(m)]), f, depth, rettime);
}

int fgraph_start(struct trace_array *tr, struct ftrace_ops *ops)
{
	struct trace_ftrace *ft = ops->private;
	unsigned int slot = 0;
	int ret;

	while (slot < FGRAPH_SLOTS && READ_ONCE(graph_arrays[slot]))
		slot++;
	if (slot == FGRAPH_SLOTS)
		return -EBUSY;
	ft->graph_slot = slot;
	WRITE_ONCE(graph_arrays[slot], tr);
	ops->func = graph_entry;
	ret = register_ftrace_function(ops);
	if (ret)
		WRITE_ONCE(graph_arrays[slot], NULL);
	return ret;
}

/* Calls hooked before this keep returning through the hook, unrecorded. */
void fgraph_stop(struct ftrace_ops *ops)
{
	struct trace_ftrace *ft = ops->private;

	unregister_ftrace_function(ops);
	WRITE_ONCE(graph_arrays[ft->graph_slot], NULL);
	/* No exit callback still writes into the array (it may go away next). */
	synchronize_rcu();
}

/*
 * sleep-time off: the time next spent off the CPU moves its hooked calls'
 * start times forward, so their durations leave it out (Linux's
 * ftrace_graph_probe_sched_switch). Runs with interrupts off before the
 * switch: next runs nowhere, and NMIs push onto prev's frames.
 */
static void probe_sleep_time(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	struct ftrace_ret_stack *rs = &next->ret_stack;
	u64 now = trace_clock_local(), out = rs->switched_out;

	prev->ret_stack.switched_out = now;
	if (!out || (READ_ONCE(fgraph_flags) & FGRAPH_OPT(SLEEP_TIME)))
		return;
	for (int i = 0; i < READ_ONCE(rs->curr); i++)
		rs->frames[i].calltime += now - out;
}

static unsigned int sleep_time_users;

int fgraph_sleep_time_get(void)
{
	int ret = sleep_time_users ? 0 : register_trace_sched_switch(probe_sleep_time, NULL);

	if (!ret)
		sleep_time_users++;
	return ret;
}

void fgraph_sleep_time_put(void)
{
	if (!--sleep_time_users)
		unregister_trace_sched_switch(probe_sleep_time, NULL);
}

static int graph_trace_init(struct trace_array *tr)
{
	int ret = fgraph_sleep_time_get();

	if (ret)
		return ret;
	ret = ftrace_tracer_init(tr, fgraph_start);
	if (ret)
		fgraph_sleep_time_put();
	return ret;
}

static void graph_trace_reset(struct trace_array *tr)
{
	ftrace_tracer_reset(tr, fgraph_stop);
	fgraph_sleep_time_put();
}

static struct tracer graph_trace = {
	.name = "function_graph",
	.init = graph_trace_init,
	.reset = graph_trace_reset,
	.print_header = fgraph_print_header,
	.print_line = fgraph_print_line,
	.opts = fgraph_opt_names,
	.opt_flags = &fgraph_flags,
};

int trace_functions_graph_init(void)
{
	if (ftrace_set_alloc(&fgraph_function_set, ftrace_nr_sites) ||
	    ftrace_set_alloc(&fgraph_notrace_set, ftrace_nr_sites))
		return -ENOMEM;
	fgraph_set_return(graph_return);
	return register_tracer(&graph_trace);
}
