/*
 * Interrupt, exception, NMI and system-call entry. Each vector has a stub
 * that pushes a zero error code (unless the CPU pushed one) and its vector
 * number, then joins common_entry, which saves the general registers as
 * struct pt_regs and calls do_interrupt(regs). Coming from ring 3, swapgs
 * makes %gs the kernel's per-CPU base for the duration.
 *
 * The NMI can arrive anywhere, including the one instruction of the
 * syscall entry that runs in ring 0 before its swapgs: the code segment
 * does not tell which GS is loaded there, so the NMI reads GS_BASE itself
 * (the kernel's per-CPU offsets are negative, a process's base is not).
 */
#include <asm/segment.h>
#include <asm/calling.h>

/* Vectors for which the CPU pushes an error code. */
#define HAS_ERRCODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.section .text
	.balign 16
common_entry:
	testb $3, 24(%rsp)		/* cs of the interrupted context */
	jz 1f
	swapgs
1:	push_regs
	movq %rsp, %rdi
	/* A backtrace through do_interrupt continues into the interrupted code. */
	movq 15*8+2*8(%rsp), %rax	/* interrupted rip */
	pushq %rax
	pushq %rbp
	movq %rsp, %rbp
	call do_interrupt
	addq $16, %rsp
	/* resuming inside an optimized kprobe's region: its detour's copy instead */
	cmpl $0, kprobe_opt_prepared(%rip)
	jne 3f
	.globl interrupt_return
interrupt_return:
	pop_regs
	addq $16, %rsp			/* vector, error code */
	testb $3, 8(%rsp)
	jz 2f
	swapgs
2:	iretq
3:	movq %rsp, %rdi
	call kprobe_fixup_interrupted
	jmp interrupt_return

	.balign 16
paranoid_entry:
	push_regs
	xorl %ebx, %ebx			/* callee-saved: remembers whether we swapped */
	movl $0xc0000101, %ecx		/* MSR_GS_BASE */
	rdmsr
	testl %edx, %edx
	js 1f
	swapgs
	movl $1, %ebx
1:	movq %rsp, %rdi
	movq 15*8+2*8(%rsp), %rax
	pushq %rax
	pushq %rbp
	movq %rsp, %rbp
	call do_interrupt
	addq $16, %rsp
	cmpl $0, kprobe_opt_prepared(%rip)
	je 3f
	movq %rsp, %rdi
	call kprobe_fixup_interrupted
3:	testl %ebx, %ebx
	jz 2f
	swapgs
2:	pop_regs
	addq $16, %rsp
	iretq

/*
 * syscall from ring 3: rcx holds the return rip, r11 the rflags, and
 * interrupts are off (MSR_SYSCALL_MASK). Build the same pt_regs an
 * interrupt from ring 3 would, with the system-call number in the
 * vector slot (Linux's orig_ax), and leave through interrupt_return's
 * iretq, which restores everything the frame holds.
 */
	.balign 16
	.globl entry_SYSCALL_64
entry_SYSCALL_64:
	swapgs
	movq %rsp, %gs:cpu_user_rsp
	movq %gs:cpu_kernel_rsp, %rsp
	pushq $(GDT_USER_DS | 3)
	pushq %gs:cpu_user_rsp
	pushq %r11
	pushq $(GDT_USER_CS | 3)
	pushq %rcx
	pushq $0			/* error code */
	pushq %rax			/* orig_ax */
	push_regs
	movq %rsp, %rdi
	movq 15*8+2*8(%rsp), %rax
	pushq %rax
	pushq %rbp
	movq %rsp, %rbp
	call do_syscall_64
	addq $16, %rsp
	jmp interrupt_return

/* void start_user_mode(struct pt_regs *regs): a new process's first return to ring 3. */
	.globl start_user_mode
start_user_mode:
	movq %rdi, %rsp
	cli
	jmp interrupt_return

	.macro vector_stub v
	.balign 16
vector_\v:
	.if !HAS_ERRCODE(\v)
	pushq $0
	.endif
	pushq $\v
	.if \v == 2 || \v == 18
	jmp paranoid_entry
	.else
	jmp common_entry
	.endif
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
