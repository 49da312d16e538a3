/*
 * Frame-pointer stack walking. Each frame is [saved rbp][return address];
 * the walk stops at the first frame that is misaligned, goes backwards,
 * strays more than 64 KiB from where it started, or returns to something
 * that is not kernel text, so a corrupt stack ends the trace instead of
 * faulting inside a panic.
 */
/* ftrace: notrace */
#include <kernel/stacktrace.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <trace/fgraph.h>

extern char _text[], _etext[];

#define WALK_SPAN (64 * 1024)

bool kernel_text_address(unsigned long addr)
{
	return addr >= (unsigned long)_text && addr < (unsigned long)_etext;
}

unsigned int stack_trace_save_from(unsigned long rbp, unsigned long *store, unsigned int size)
{
	unsigned long start = rbp;
	unsigned int n = 0;

	while (n < size && rbp && !(rbp & 7) && rbp >= start && rbp - start < WALK_SPAN &&
	       rbp >= 0xffff800000000000UL) {
		unsigned long *frame = (unsigned long *)rbp;
		/* A call function_graph hooked returns to its hook: name the real caller. */
		unsigned long ret = ftrace_graph_ret_addr(frame[1], (unsigned long)&frame[1]);

		if (!kernel_text_address(ret))
			break;
		store[n++] = ret;
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
	return n;
}

unsigned int stack_trace_save(unsigned long *store, unsigned int size, unsigned int skip)
{
	unsigned long buf[64];
	unsigned long rbp = (unsigned long)__builtin_frame_address(0);
	unsigned int n = stack_trace_save_from(rbp, buf, ARRAY_SIZE(buf)), out = 0;

	for (unsigned int i = skip; i < n && out < size; i++)
		store[out++] = buf[i];
	return out;
}

unsigned int stack_trace_save_tsk(struct task_struct *p, unsigned long *store, unsigned int size)
{
	/* __switch_to_asm pushed rbp, rbx, r12-r15 below its return address */
	const unsigned long *sp = (const unsigned long *)READ_ONCE(p->thread.sp);
	unsigned long lo = (unsigned long)p->stack, hi = lo + THREAD_SIZE;
	unsigned int n = 0;

	if (READ_ONCE(p->on_cpu) || (unsigned long)sp < lo || (unsigned long)(sp + 7) > hi || !size)
		return 0;
	if (kernel_text_address(sp[6]))
		store[n++] = sp[6];
	if (sp[5] >= lo && sp[5] < hi)
		n += stack_trace_save_from(sp[5], store + n, size - n);
	return n;
}

void stack_trace_print(const unsigned long *entries, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		printk(KERN_EMERG " %pS\n", (void *)entries[i]);
}

void dump_stack(void)
{
	unsigned long entries[32];
	unsigned int n = stack_trace_save(entries, ARRAY_SIZE(entries), 1);

	printk(KERN_EMERG "Call Trace:\n");
	stack_trace_print(entries, n);
}
