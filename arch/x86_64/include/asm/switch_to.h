/* The arch half of the context switch (arch/x86_64/switch.S, process.c). */
#ifndef ASM_SWITCH_TO_H
#define ASM_SWITCH_TO_H

#include <kernel/types.h>

struct task_struct;

struct task_struct *__switch_to_asm(unsigned long *prev_sp, unsigned long next_sp,
				    struct task_struct *prev);
/* Builds p's first frame: it starts in ret_from_kthread, which calls fn(arg) then kthread_exit. */
void arch_init_task_stack(struct task_struct *p, int (*fn)(void *), void *arg);
struct pt_regs;
struct mm_struct;
/* A forked child's first frame: it returns to ring 3 with regs (rax = 0) through ret_from_fork. */
void arch_init_fork_stack(struct task_struct *p, const struct pt_regs *regs);
/* regs for a first entry into ring 3 at ip with stack sp. */
void arch_setup_user_regs(struct pt_regs *regs, unsigned long ip, unsigned long sp);
/* The arch part of a switch (stack for ring-3 entries, CR3, FS/GS base, FPU); irqs off. */
void arch_switch_to(struct task_struct *prev, struct task_struct *next);
/* Loads mm for the running task (NULL: the kernel's tables). */
void arch_activate_mm(struct mm_struct *mm);
/* Leaves for ring 3 with regs (at the top of the task's stack); never returns. */
__noreturn void start_user_mode(struct pt_regs *regs);
/* Runs fn on a fresh stack; fn must not return. */
__noreturn void call_on_stack(void (*fn)(void), unsigned long stack_top);

#endif
