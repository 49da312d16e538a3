/*
 * The function_graph tracer's return hook (trace/fgraph.c): an entry
 * callback reserves a frame on current's shadow return stack
 * (struct ftrace_ret_stack, kernel/ftrace.h) and points the traced
 * function's return slot at return_to_handler; when the function returns
 * there, the frame is popped, the exit callback sees it, and execution
 * goes on at the real return address.
 */
#ifndef TRACE_FGRAPH_H
#define TRACE_FGRAPH_H

#include <kernel/types.h>
#include <kernel/ftrace.h>
#include <kernel/time.h>

struct ftrace_regs;

/*
 * Called for every hooked return with the frame (a copy) and its depth,
 * with preemption off and inside the function tracer's recursion guard;
 * not called when the guard refuses (the return itself always happens).
 */
typedef void (*fgraph_return_t)(const struct ftrace_ret_frame *f, int depth, u64 rettime);

/* Install the exit callback (boot, once). */
void fgraph_set_return(fgraph_return_t fn);
/*
 * The exit callback of frames marked FGRAPH_FRAME_FPROBE (fprobe events),
 * with the function's return value; same context as fgraph_return_t.
 */
typedef void (*fgraph_fprobe_return_t)(const struct ftrace_ret_frame *f, unsigned long retval);
void fgraph_set_fprobe_return(fgraph_fprobe_return_t fn);

/*
 * Reserve current's next frame for the call of func whose return slot is
 * fregs->parent_ip, stamped now; *depth is its index. NULL when the
 * stack is full (counted in overrun). Then either fgraph_hook() or
 * fgraph_cancel(), from the same context, with nothing pushed between.
 */
struct ftrace_ret_frame *fgraph_push(struct ftrace_regs *fregs, unsigned long func,
				     unsigned int flags, int *depth);
void fgraph_hook(struct ftrace_regs *fregs);
/*
 * The frame of this call of func when an earlier callback of the same
 * dispatch hooked it, or NULL (not hooked, or a tail call into func).
 */
struct ftrace_ret_frame *fgraph_hooked(struct ftrace_regs *fregs, unsigned long func, int *depth);
/* A tracer joining frame f times the call: an fprobe's frame (no time of its own) starts now. */
static inline void fgraph_stamp(struct ftrace_ret_frame *f)
{
	if (!f->calltime)
		f->calltime = trace_clock_local();
}
void fgraph_cancel(struct ftrace_ret_frame *f, int depth);
/* A hooked frame of current takes set_graph_* flags (another user hooked it first). */
void fgraph_add_flags(struct ftrace_ret_frame *f, unsigned int flags);

/*
 * What a stack walk of current found in the return slot at slot: the
 * real return address where it is return_to_handler (the innermost frame
 * hooked at that slot; a tail-called one returns to the hook again).
 */
unsigned long ftrace_graph_ret_addr(unsigned long ret, unsigned long slot);

/* The return hook (arch/x86_64/ftrace_64.S) and its C half. */
void return_to_handler(void);
unsigned long ftrace_return_to_handler(unsigned long sp);

#endif
