/*
 * The shadow return stack of the function_graph tracer. A hooked call's
 * frame holds its real return address and the address of the slot it
 * came from; return_to_handler arrives with the stack pointer one above
 * that slot, so the frame to pop is the one whose slot matches. Normally
 * that is the top frame; frames above it belong to calls that left
 * without returning (a task switched to another stack, a non-local exit)
 * and are dropped with it. No match at all means the return address is
 * lost: nothing can continue, so that is a panic.
 *
 * Interrupts and NMIs use the stack of the task they interrupt, pushing
 * and popping in balance above whatever they interrupted, so a frame is
 * reserved before it is written and released only after it is read.
 * Kernel only: built without call sites (trace/).
 */
#include <kernel/types.h>
#include <kernel/sched.h>
#include <kernel/preempt.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <asm/ftrace.h>
#include <trace/ftrace.h>
#include <trace/fgraph.h>
#include <trace/trace_recursion.h>

static fgraph_return_t fgraph_return;
static fgraph_fprobe_return_t fgraph_fprobe_return;

void fgraph_set_return(fgraph_return_t fn)
{
	WRITE_ONCE(fgraph_return, fn);
}

void fgraph_set_fprobe_return(fgraph_fprobe_return_t fn)
{
	WRITE_ONCE(fgraph_fprobe_return, fn);
}

static void frame_counts(struct ftrace_ret_stack *rs, unsigned int flags, int delta)
{
	if (flags & FGRAPH_FRAME_FILTER)
		WRITE_ONCE(rs->filtered, rs->filtered + delta);
	if (flags & FGRAPH_FRAME_NOTRACE)
		WRITE_ONCE(rs->notraced, rs->notraced + delta);
}

struct ftrace_ret_frame *fgraph_push(struct ftrace_regs *fregs, unsigned long func,
				     unsigned int flags, int *depth)
{
	struct ftrace_ret_stack *rs = &current->ret_stack;
	int i = READ_ONCE(rs->curr);
	struct ftrace_ret_frame *f;

	if (i >= FTRACE_RETFUNC_DEPTH) {
		WRITE_ONCE(rs->overrun, rs->overrun + 1);
		return NULL;
	}
	WRITE_ONCE(rs->curr, i + 1);
	barrier();
	f = &rs->frames[i];
	f->ret = fregs->parent_ip;
	f->func = func;
	f->retp = (unsigned long)&fregs->parent_ip;
	f->flags = flags;
	f->arrays = 0;
	f->subtime = 0;
	/* an fprobe's frame needs no time; a tracer joining it stamps it (fgraph_stamp) */
	f->calltime = flags & FGRAPH_FRAME_FPROBE ? 0 : trace_clock_local();
	frame_counts(rs, flags, 1);
	*depth = i;
	return f;
}

/*
 * A tail call meets a hooked slot too (the caller jumped to func with its
 * own return slot): that is a new call, given a frame of its own whose
 * return is return_to_handler again, as Linux does.
 */
struct ftrace_ret_frame *fgraph_hooked(struct ftrace_regs *fregs, unsigned long func, int *depth)
{
	struct ftrace_ret_stack *rs = &current->ret_stack;
	int i = READ_ONCE(rs->curr) - 1;

	if (fregs->parent_ip != (unsigned long)return_to_handler || i < 0 ||
	    rs->frames[i].retp != (unsigned long)&fregs->parent_ip || rs->frames[i].func != func)
		return NULL;
	*depth = i;
	return &rs->frames[i];
}

void fgraph_hook(struct ftrace_regs *fregs)
{
	barrier();
	fregs->parent_ip = (unsigned long)return_to_handler;
}

void fgraph_add_flags(struct ftrace_ret_frame *f, unsigned int flags)
{
	frame_counts(&current->ret_stack, flags, 1);
	f->flags |= flags;
}

void fgraph_cancel(struct ftrace_ret_frame *f, int depth)
{
	struct ftrace_ret_stack *rs = &current->ret_stack;

	frame_counts(rs, f->flags, -1);
	barrier();
	WRITE_ONCE(rs->curr, depth);
}

unsigned long ftrace_graph_ret_addr(unsigned long ret, unsigned long slot)
{
	const struct ftrace_ret_stack *rs = &current->ret_stack;

	if (ret != (unsigned long)return_to_handler)
		return ret;
	for (int i = READ_ONCE(rs->curr) - 1; i >= 0 && ret == (unsigned long)return_to_handler; i--)
		if (rs->frames[i].retp == slot)
			ret = rs->frames[i].ret;
	return ret;
}

unsigned long ftrace_return_to_handler(unsigned long sp)
{
	struct ftrace_ret_stack *rs = &current->ret_stack;
	unsigned long slot = sp - sizeof(unsigned long);
	int top = READ_ONCE(rs->curr), i = top - 1;
	struct ftrace_ret_frame f;
	fgraph_fprobe_return_t pfn;
	fgraph_return_t fn;

	while (i >= 0 && rs->frames[i].retp != slot)
		i--;
	if (i < 0)
		panic("function_graph: return through %lx, not on %s/%d's shadow stack (%d frames)",
		      slot, current->comm, current->pid, top);
	f = rs->frames[i];
	preempt_count_add(1);
	fn = READ_ONCE(fgraph_return);
	if (fn && f.arrays) {		/* a graph tracer recorded the entry */
		struct trace_recursion *r = this_cpu_ptr(&ftrace_recursion);

		if (trace_recursion_lock(r)) {
			fn(&f, i, trace_clock_local());
			trace_recursion_unlock(r);
		}
	}
	pfn = READ_ONCE(fgraph_fprobe_return);
	if (pfn && (f.flags & FGRAPH_FRAME_FPROBE)) {
		struct trace_recursion *r = this_cpu_ptr(&ftrace_recursion);

		/* return_to_handler saved rax just below the stack pointer it passed */
		if (trace_recursion_lock(r)) {
			pfn(&f, *(unsigned long *)(sp - 2 * sizeof(unsigned long)));
			trace_recursion_unlock(r);
		}
	}
	for (int j = i; j < top; j++)
		frame_counts(rs, rs->frames[j].flags, -1);
	barrier();
	WRITE_ONCE(rs->curr, i);
	barrier();
	preempt_count_sub(1);
	return f.ret;
}
