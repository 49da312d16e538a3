/*
 * The function_graph tracer: records (trace/trace_functions_graph.c) and
 * their text (trace/trace_functions_graph_print.c).
 */
#ifndef TRACE_TRACE_FUNCTIONS_GRAPH_H
#define TRACE_TRACE_FUNCTIONS_GRAPH_H

#include <kernel/types.h>
#include <trace/trace.h>
#include <trace/ftrace.h>

/* Its options (funcgraph-*), bits of fgraph_flags in Linux's trace_options order. */
enum {
	FGRAPH_OPT_OVERRUN,	/* "(Overruns: N)" after returns */
	FGRAPH_OPT_CPU,		/* the " 0) " column */
	FGRAPH_OPT_OVERHEAD,	/* '+', '!', ... before long durations */
	FGRAPH_OPT_PROC,	/* the "comm-pid |" column */
	FGRAPH_OPT_DURATION,	/* the DURATION column */
	FGRAPH_OPT_ABSTIME,	/* the TIME column */
	FGRAPH_OPT_IRQS,	/* trace inside hard interrupts */
	FGRAPH_OPT_TAIL,	/* name the function after every '}' */
	FGRAPH_OPT_SLEEP_TIME,	/* durations include time off the CPU */
	FGRAPH_OPT_GRAPH_TIME,	/* the profiler's times include the callees' */
	FGRAPH_OPT_NR
};
#define FGRAPH_OPT(name)	(1ul << FGRAPH_OPT_##name)
/*
 * A column no option shows: microseconds since the buffer's start, in the
 * layout of the latency tracers' display-graph (trace/trace_latency.c).
 */
#define FGRAPH_PRINT_REL_TIME	(1ul << FGRAPH_OPT_NR)

extern unsigned long fgraph_flags;
extern const char *const fgraph_opt_names[FGRAPH_OPT_NR + 1];

/*
 * A hooked frame's arrays bits: those below are the graph tracer's
 * arrays (its slots), this one the function profiler's.
 */
#define FGRAPH_PROFILER_BIT	31
#define FGRAPH_PROFILER		(1u << FGRAPH_PROFILER_BIT)

/* The records, as Linux's ftrace:funcgraph_entry and funcgraph_exit lay them out. */
struct ftrace_graph_ent_entry {
	struct trace_entry ent;
	unsigned long func;
	int depth;
};

struct ftrace_graph_ret_entry {
	struct trace_entry ent;
	unsigned long func;
	int depth;
	unsigned int overrun;
	u64 calltime;
	u64 rettime;
};

/* ftrace:funcgraph_entry and funcgraph_exit (trace/events/ftrace.tev, defined in trace/trace_print.c). */
extern struct trace_event_call event_funcgraph_entry, event_funcgraph_exit;

/*
 * max_graph_depth (0: no limit) and the sets of set_graph_function and
 * set_graph_notrace (trace/ftrace_files.c), global as Linux's; read by
 * the entry callback as it goes.
 */
extern unsigned int fgraph_max_depth;
extern struct ftrace_set fgraph_function_set, fgraph_notrace_set;

/*
 * A duration as the tracer and the profiler print it: microseconds with
 * at most 7 digits in all, " us ", then blanks to fill 8 characters
 * ("12.345 us   "); buf holds FGRAPH_DURATION_MAX.
 */
#define FGRAPH_DURATION_MAX	40
void fgraph_duration_text(char *buf, size_t size, u64 ns);
/*
 * The tracer's text: its column legend and a record's line(s), the
 * columns those fgraph_flags ask for; the _flags forms take other
 * FGRAPH_OPT and FGRAPH_PRINT_* bits (a latency tracer's).
 */
void fgraph_print_header(struct trace_iterator *iter);
void fgraph_print_line(struct trace_iterator *iter, int cpu, const struct ring_buffer_record *rec);
void fgraph_print_header_flags(struct trace_iterator *iter, unsigned long flags);
void fgraph_print_line_flags(struct trace_iterator *iter, int cpu,
			     const struct ring_buffer_record *rec, unsigned long flags);

/*
 * Run the tracer's callbacks through ops for tr (the tracer's own ops, or
 * the benchmark's; ops->private is a struct trace_ftrace); caller holds
 * ftrace_lock. -EBUSY when it runs on too many arrays already.
 */
int fgraph_start(struct trace_array *tr, struct ftrace_ops *ops);
void fgraph_stop(struct ftrace_ops *ops);
/*
 * A call of ip as one entry and its return at depth 0, both now, in
 * context trace_ctx: a latency tracer's own records under display-graph
 * (Linux's trace_graph_function).
 */
void trace_graph_function(struct trace_array *tr, unsigned long ip, unsigned int trace_ctx);
/*
 * The tracer and the profiler, while they run, hold the sched_switch probe
 * that takes a task's time off the CPU out of its hooked calls when
 * sleep-time is off; caller holds trace_types_lock.
 */
int fgraph_sleep_time_get(void);
void fgraph_sleep_time_put(void);
/* Register function_graph (boot). */
int trace_functions_graph_init(void);

#endif
