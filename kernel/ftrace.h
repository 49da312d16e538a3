/*
 * What the rest of the kernel sees of the function tracer (trace/ftrace.c).
 * Every function of a kernel object built with the tracer's flags (see
 * configure: -pg -mfentry -mrecord-mcount -mnop-mcount) starts with a
 * 5-byte NOP whose address the build records in __mcount_loc; the tracer
 * patches chosen NOPs into calls of arch/x86_64/ftrace_64.S's trampoline.
 */
#ifndef KERNEL_FTRACE_H
#define KERNEL_FTRACE_H

#include <kernel/types.h>

/*
 * No call site at this function's entry: the tracer and what it runs on,
 * entry and NMI paths, early boot, the text patcher. configure leaves a
 * whole file out when it holds a line that is only the comment
 * "ftrace: notrace".
 */
#define notrace		__attribute__((no_instrument_function))

/* Calls of one task the function_graph tracer can hook at once (Linux's depth). */
#define FTRACE_RETFUNC_DEPTH	50

/* What set_graph_function/set_graph_notrace made of a hooked call. */
#define FGRAPH_FRAME_FILTER	0x1	/* a set_graph_function function: its callees trace */
#define FGRAPH_FRAME_NOTRACE	0x2	/* a set_graph_notrace function: nothing under it traces */
#define FGRAPH_FRAME_FPROBE	0x4	/* an fprobe event wants the exit (trace/trace_fprobe.c) */

/*
 * One hooked call: the function_graph tracer replaced the return address
 * in its slot (retp) by return_to_handler, which finds the frame again by
 * that slot, records the exit and returns to ret.
 */
struct ftrace_ret_frame {
	unsigned long ret;		/* where the function really returns */
	unsigned long func;		/* its call site (the function's first byte) */
	unsigned long retp;		/* address of the slot that held ret */
	u64 calltime;			/* trace_clock_local() at entry */
	u64 subtime;			/* the profiler's callees' time (graph-time off) */
	unsigned int flags;		/* FGRAPH_FRAME_* */
	unsigned int arrays;		/* the graph tracers that recorded the call (bit = slot) */
	/* an fprobe %return's: the argument registers at the call (rdi, rsi, rdx, rcx, r8, r9) */
	unsigned long args[6];
};

/*
 * A task's shadow return stack (trace/fgraph.c), in its task_struct so it
 * lives exactly as long as the stack it shadows; interrupts and NMIs on
 * the task push above the frames they interrupt and pop before they
 * return. A frame is reserved (curr raised) before it is written and
 * dropped after it is read, so a nested context never sees a half frame.
 */
struct ftrace_ret_stack {
	int curr;			/* frames in use */
	unsigned int filtered;		/* FGRAPH_FRAME_FILTER frames among them */
	unsigned int notraced;		/* FGRAPH_FRAME_NOTRACE frames among them */
	unsigned int overrun;		/* calls not hooked: the stack was full */
	u64 switched_out;		/* when it last left a CPU (sleep-time off), 0: not yet */
	struct ftrace_ret_frame frames[FTRACE_RETFUNC_DEPTH];	/* last: left unzeroed */
};

/*
 * /proc/sys/kernel/stack_tracer_enabled (trace/trace_stack.c): the value
 * as written, and writing one (not 0: the stack tracer runs); 0 or -errno.
 */
int stack_tracer_enabled(void);
int stack_tracer_set(int value);
/* Boot: read the recorded sites (once memory allocation works). */
int ftrace_init(void);
/* A traced function that does nothing (the tracer's benchmark calls it). */
void ftrace_bench_target(void);

#endif
