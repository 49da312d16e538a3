/*
 * Tracers: what current_tracer names and available_tracers lists
 * (trace/trace_tracers.c). A trace array runs at most one at a time;
 * "nop" is none.
 */
#ifndef TRACE_TRACER_H
#define TRACE_TRACER_H

#include <kernel/types.h>
#include <trace/trace.h>

struct seq_file;

/*
 * One tracer. init starts it on an array (0 or -errno), reset stops it;
 * both run under trace_types_lock. Its records print through their
 * events' output (ftrace:function's, ...), whatever tracer runs.
 */
struct tracer {
	const char *name;
	int (*init)(struct trace_array *tr);
	void (*reset)(struct trace_array *tr);
	struct tracer *next;		/* registered tracers, newest first */
};

/* Make a tracer available (boot). */
int register_tracer(struct tracer *t);
/* Switch tr to the tracer called name (caller holds trace_types_lock). */
int tracing_set_tracer(struct trace_array *tr, const char *name);
/* The name current_tracer shows: "nop" when none runs. */
static inline const char *tracing_current_tracer(const struct trace_array *tr)
{
	return tr->current_trace ? tr->current_trace->name : "nop";
}
/* available_tracers' line. */
void tracing_show_tracers(struct seq_file *m);

#endif
