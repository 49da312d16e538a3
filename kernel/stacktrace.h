/* Kernel stack traces, by frame pointer (the kernel builds with -fno-omit-frame-pointer). */
#ifndef KERNEL_STACKTRACE_H
#define KERNEL_STACKTRACE_H

#include <kernel/types.h>

/* Return addresses of the current call chain, innermost first, after skipping `skip`. */
unsigned int stack_trace_save(unsigned long *store, unsigned int size, unsigned int skip);
/* The same, starting from a saved frame (an interrupted context's rbp). */
unsigned int stack_trace_save_from(unsigned long rbp, unsigned long *store, unsigned int size);
/*
 * The call chain of a task switched out on another stack (not running):
 * from the frame __switch_to_asm saved. 0 when p is running.
 */
struct task_struct;
unsigned int stack_trace_save_tsk(struct task_struct *p, unsigned long *store, unsigned int size);
/* Print " symbol+off/size" lines, Linux's "Call Trace:" body. */
void stack_trace_print(const unsigned long *entries, unsigned int nr);
/* Print the current call chain. */
void dump_stack(void);
bool kernel_text_address(unsigned long addr);

#endif
