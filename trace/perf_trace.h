/*
 * What the perf probes of TRACE_EVENT() (trace/stages/stage8_perf.h) call:
 * a scratch record for this CPU and context, and its submission to the
 * perf events on the event (trace/perf_tp.c).
 */
#ifndef TRACE_PERF_TRACE_H
#define TRACE_PERF_TRACE_H

#include <kernel/types.h>

struct trace_event_call;
struct task_struct;

/* Largest record a perf probe may build. */
#define PERF_MAX_TRACE_SIZE	2048

/*
 * Scratch for a record of size bytes in this context (*rctx says which),
 * or NULL: too big, or this context is already inside perf (recursion).
 * Call with preemption off (tracepoint probes are).
 */
void *perf_trace_buf_alloc(u32 size, int *rctx);
/*
 * Count the record (count hits) for every perf event on call that
 * matches this CPU and task (current when task is NULL), sample where a
 * period ends, and release the scratch.
 */
void perf_trace_buf_submit(struct trace_event_call *call, void *raw, u32 size, int rctx,
			   u64 addr, u64 count, struct task_struct *task, unsigned long ip);

#endif
