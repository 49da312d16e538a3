/*
 * Interrupt, exception and NMI entry. Each vector has a stub that pushes
 * a zero error code (unless the CPU pushed one) and its vector number, then
 * joins common_entry, which saves the general registers as struct pt_regs
 * and calls do_interrupt(regs). Coming from ring 3, swapgs makes %gs the
 * kernel's per-CPU base for the duration.
 */
#include <asm/segment.h>

/* Vectors for which the CPU pushes an error code. */
#define HAS_ERRCODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.section .text
	.balign 16
common_entry:
	testb $3, 24(%rsp)		/* cs of the interrupted context */
	jz 1f
	swapgs
1:	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	movq %rsp, %rdi
	/* A backtrace through do_interrupt continues into the interrupted code. */
	movq 15*8+2*8(%rsp), %rax	/* interrupted rip */
	pushq %rax
	pushq %rbp
	movq %rsp, %rbp
	call do_interrupt
	addq $16, %rsp
	.globl interrupt_return
interrupt_return:
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	addq $16, %rsp			/* vector, error code */
	testb $3, 8(%rsp)
	jz 2f
	swapgs
2:	iretq

	.macro vector_stub v
	.balign 16
vector_\v:
	.if !HAS_ERRCODE(\v)
	pushq $0
	.endif
	pushq $\v
	jmp common_entry
	.endm

	.altmacro
	.macro stubs from, to
	vector_stub %from
	.if \to-\from
	stubs %(from+1), \to
	.endif
	.endm

	stubs 0, 63
	stubs 64, 127
	stubs 128, 191
	stubs 192, 255

	.macro stub_addr v
	.quad vector_\v
	.endm
	.macro stub_addrs from, to
	stub_addr %from
	.if \to-\from
	stub_addrs %(from+1), \to
	.endif
	.endm

	.section .rodata
	.balign 8
	.globl vector_stubs
vector_stubs:
	stub_addrs 0, 63
	stub_addrs 64, 127
	stub_addrs 128, 191
	stub_addrs 192, 255
