/*
 * What the perf probes of TRACE_EVENT() (trace/stages/stage8_perf.h) call:
 * a scratch record for this CPU and context, and its submission to the
 * perf events on the event (trace/perf_tp.c).
 */
#ifndef TRACE_PERF_TRACE_H
#define TRACE_PERF_TRACE_H

#include <kernel/types.h>
#include <asm/ptrace.h>
#include <asm/segment.h>

struct trace_event_call;
struct task_struct;

/*
 * Fill regs as the calling function's code has them where the probe
 * returns to (Linux's perf_fetch_caller_regs): the ip and frame a
 * sample's IP and kernel callchain start from, so neither shows the
 * probe or perf itself. A macro: the frame must be the probe's own.
 */
#define perf_fetch_caller_regs(regs) do {						\
	(regs)->rip = (unsigned long)__builtin_return_address(0);			\
	(regs)->rbp = *(unsigned long *)__builtin_frame_address(0);			\
	(regs)->cs = GDT_KERNEL_CS;							\
} while (0)

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
 * matches this CPU and task (current when task is NULL), sample at regs
 * where a period ends, and release the scratch.
 */
void perf_trace_buf_submit(struct trace_event_call *call, void *raw, u32 size, int rctx,
			   u64 addr, u64 count, struct task_struct *task,
			   const struct pt_regs *regs);

#endif
