/*
 * For assembly: saving and restoring the general registers as the low
 * part of struct pt_regs (asm/ptrace.h), r15 at the lowest address. The
 * entry stubs and the kretprobe trampoline build their frames with these;
 * the function tracer's trampoline saves the caller-saved part alone (the
 * traced function's arguments), in the same order.
 */
#ifndef ASM_CALLING_H
#define ASM_CALLING_H

	.macro push_caller_saved
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	.endm

	.macro pop_caller_saved
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	.endm

	.macro push_regs
	push_caller_saved
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	.endm

	.macro pop_regs
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	pop_caller_saved
	.endm

#endif
