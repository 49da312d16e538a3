/*
 * Context switch between kernel stacks. A switched-out task's callee-saved
 * registers sit on its own stack, its stack pointer in thread.sp; the
 * caller-saved ones are dead across the call by the ABI. A new task's
 * stack is built by arch_init_task_stack to look like one switched out
 * just before ret_from_kthread.
 */
	.text

/*
 * struct task_struct *__switch_to_asm(unsigned long *prev_sp,
 *                                     unsigned long next_sp,
 *                                     struct task_struct *prev)
 * Returns prev, on the next task's stack: the task that ran before it.
 */
	.globl __switch_to_asm
__switch_to_asm:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	movq %rdx, %rax
	ret

/* First code of a new kernel thread: %rax = prev, %rbx = fn, %r12 = arg. */
	.globl ret_from_kthread
ret_from_kthread:
	movq %rax, %rdi
	call schedule_tail
	movq %r12, %rdi
	call *%rbx
	movl %eax, %edi
	call kthread_exit
	ud2

/* First code of a forked process: %rax = prev; its pt_regs sit just above. */
	.globl ret_from_fork
ret_from_fork:
	movq %rax, %rdi
	call schedule_tail
	movq %rsp, %rdi
	call syscall_exit_to_user_mode
	jmp interrupt_return

/* void call_on_stack(void (*fn)(void), unsigned long stack_top): never returns. */
	.globl call_on_stack
call_on_stack:
	movq %rsi, %rsp
	xorl %ebp, %ebp
	call *%rdi
	ud2
