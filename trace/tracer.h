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
struct trace_iterator;
struct ring_buffer_record;

/*
 * One tracer. init starts it on an array (0 or -errno), reset stops it;
 * both run under trace_types_lock. Its records print through their
 * events' output (ftrace:function's, ...), unless it has a layout of its
 * own: then print_header replaces the column legend of `trace` and
 * print_line the default lines (not raw, hex or bin) of every record of
 * an array it runs on, while layout_on, if there, says it applies (a
 * latency tracer's graph layout follows display-graph). opts are its own options, listed in trace_options
 * while it is current and in every options/ directory; their values,
 * bit i for opts[i], are one set for all arrays, as Linux's tracer flags.
 * A latency tracer has print_max: `trace` shows its max snapshot.
 * flag_changed, if there, hears of an array option (bit, TRACE_ITER_*) about
 * to change on an array it runs on; an error refuses the change.
 */
struct tracer {
	const char *name;
	int (*init)(struct trace_array *tr);
	void (*reset)(struct trace_array *tr);
	void (*print_header)(struct trace_iterator *iter);
	void (*print_line)(struct trace_iterator *iter, int cpu,
			   const struct ring_buffer_record *rec);
	bool (*layout_on)(const struct trace_array *tr);
	const char *const *opts;	/* NULL-terminated, or NULL */
	unsigned long *opt_flags;
	bool print_max;
	int (*flag_changed)(struct trace_array *tr, unsigned int bit, bool on);
	struct tracer *next;		/* registered tracers, newest first */
};

/* Whether tr's tracer prints tr's records in its own layout now. */
static inline bool tracer_own_layout(const struct trace_array *tr)
{
	const struct tracer *t = tr->current_trace;

	return t && t->print_line && (!t->layout_on || t->layout_on(tr));
}

/* Make a tracer available (boot). */
int register_tracer(struct tracer *t);
/* Switch tr to the tracer called name (caller holds trace_types_lock). */
int tracing_set_tracer(struct trace_array *tr, const char *name);
/* The name current_tracer shows: "nop" when none runs. */
static inline const char *tracing_current_tracer(const struct trace_array *tr)
{
	return tr->current_trace ? tr->current_trace->name : "nop";
}
/* The registered tracers, newest first (follow ->next). */
struct tracer *tracing_tracers(void);
/* The tracer running on tr (nop's struct when none). */
struct tracer *tracing_tracer(const struct trace_array *tr);
/* available_tracers' line. */
void tracing_show_tracers(struct seq_file *m);

#endif
