/*
 * The latency tracers (irqsoff, preemptoff, preemptirqsoff in
 * trace/trace_irqsoff.c; wakeup, wakeup_rt, wakeup_dl in
 * trace/trace_sched_wakeup.c) and what they share (trace/trace_latency.c):
 * whether a latency is reported (tracing_thresh, tracing_max_latency),
 * the max snapshot (the live buffer swapped with the snapshot buffer, the
 * section's facts kept for the `trace` header) and their records.
 */
#ifndef TRACE_TRACE_LATENCY_H
#define TRACE_TRACE_LATENCY_H

#include <kernel/types.h>

struct trace_array;
struct task_struct;
struct trace_iterator;

/* Register the tracers, and the preemptirq events' hook keys (boot). */
int trace_irqsoff_init(void);
int trace_wakeup_init(void);
int trace_preemptirq_init(void);

/*
 * The return address of the caller of the function this is inlined in,
 * read from the caller's frame (Linux's CALLER_ADDR1): the caller must be
 * C code built with frame pointers.
 */
static __always_inline unsigned long caller_parent_ip(void)
{
	unsigned long *caller_frame = *(unsigned long **)__builtin_frame_address(0);

	return caller_frame[1];
}

/* Register n tracers (boot). */
struct tracer;
int latency_register_tracers(struct tracer *t, size_t n);

/* tracing_thresh in ns (0: off), one for the system (trace/trace_tunables.c). */
extern unsigned long tracing_thresh;

/*
 * What the hooks of trace/trace_preemptirq.c tell the irqsoff tracers:
 * interrupts or preemption just went off, or are about to go on. ip is
 * where, parent_ip its caller. Any context but NMI, inside the hooks'
 * recursion guard.
 */
void tracer_hardirqs_off(unsigned long ip, unsigned long parent_ip);
void tracer_hardirqs_on(unsigned long ip, unsigned long parent_ip);
void tracer_preempt_off(unsigned long ip, unsigned long parent_ip);
void tracer_preempt_on(unsigned long ip, unsigned long parent_ip);

/* Switch the hooks on for a tracer (reference-counted; sleepable context). */
void trace_preemptirq_hooks_get(bool irqs, bool preempt);
void trace_preemptirq_hooks_put(bool irqs, bool preempt);

/* The trace clock of tr's live buffer, the time stamps records get. */
u64 latency_now(struct trace_array *tr);
/* Whether a latency of delta ns is to be recorded: above tracing_thresh, or a new max. */
bool latency_report(struct trace_array *tr, u64 delta);
/*
 * Make the live buffer tr's max snapshot (Linux's update_max_tr): swap it
 * with the snapshot buffer and keep the section's facts: its task, CPU,
 * length (delta ns, also tracing_max_latency), its start in the buffer's
 * clock (older records of the swapped buffer are not shown) and where it
 * started and ended (0: not a section, as for wakeups). Any context;
 * callers serialize.
 */
void latency_update_max(struct trace_array *tr, struct task_struct *task, int cpu, u64 delta,
			u64 start_ts, unsigned long critical_start, unsigned long critical_end);
/*
 * How a latency tracer follows the function calls while function-trace
 * is on (trace_flags): func, the function tracer's callback, records the
 * calls it times; under display-graph the graph callbacks record calls
 * and returns instead, while want() says this CPU's are timed (Linux's
 * display-graph).
 */
#include <trace/ftrace.h>
struct latency_functions {
	ftrace_func_t func;
	bool (*want)(void);
};
/* Start and stop that on tr, as its options say. */
int latency_functions_start(struct trace_array *tr, const struct latency_functions *lf);
void latency_functions_stop(struct trace_array *tr);
/*
 * A tracer's flag_changed: function-trace starts or stops the calls;
 * display-graph restarts them in the other form, with the buffer and
 * tracing_max_latency emptied, as Linux.
 */
int latency_flag_changed(struct trace_array *tr, unsigned int bit, bool on,
			 const struct latency_functions *lf);
/*
 * A tracer's own record of a call of ip from parent_ip (where a section
 * starts and ends): a function record, or under display-graph a call and
 * return of ip at depth 0, as Linux's __trace_function.
 */
void latency_function_record(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			     unsigned int trace_ctx);
/*
 * display-graph is on: the tracer's `trace` takes function_graph's layout
 * (its layout_on), with the columns of a fixed set of FGRAPH_* flags
 * (fgraph_print_*_flags), Linux's for irqsoff and for wakeup.
 */
bool latency_graph_on(const struct trace_array *tr);

/*
 * A latency tracer's start on tr: the snapshot buffer allocated, the
 * latency-format and overwrite options on (their old values kept for
 * latency_tracer_reset), tracing_max_latency 0, the buffer emptied. The
 * reset, once the tracer's hooks are off, frees the snapshot buffer.
 */
int latency_tracer_init(struct trace_array *tr);
void latency_tracer_reset(struct trace_array *tr);

#endif
