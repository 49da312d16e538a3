/* The arch half of the context switch (arch/x86_64/switch.S, process.c). */
#ifndef ASM_SWITCH_TO_H
#define ASM_SWITCH_TO_H

#include <kernel/types.h>

struct task_struct;

struct task_struct *__switch_to_asm(unsigned long *prev_sp, unsigned long next_sp,
				    struct task_struct *prev);
/* Builds p's first frame: it starts in ret_from_kthread, which calls fn(arg) then kthread_exit. */
void arch_init_task_stack(struct task_struct *p, int (*fn)(void *), void *arg);
/* Runs fn on a fresh stack; fn must not return. */
__noreturn void call_on_stack(void (*fn)(void), unsigned long stack_top);

#endif
