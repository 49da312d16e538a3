/*
 * Kprobes' text (arch/x86_64/kprobes.c): the out-of-line instruction
 * slots and the kretprobe trampoline.
 */
/* ftrace: notrace */
#include <asm/calling.h>

/*
 * A probed instruction that falls through runs from a slot: its copy,
 * then a jmp back past the original. In .text (within reach of rel32 for
 * RIP-relative operands), int3 until written.
 */
	.section .text.kprobe_slots, "ax"
	.balign 4096
	.globl kprobe_insn_slots
kprobe_insn_slots:
	.fill 65536, 1, 0xcc
	.globl kprobe_insn_slots_end
kprobe_insn_slots_end:

/*
 * A function whose return address a kretprobe swapped returns here. The
 * word pushed first takes the place of the swapped return address (its
 * address is where the original was), then a struct pt_regs is built for
 * the handler, which returns the real return address.
 */
	.text
	.globl kretprobe_trampoline
kretprobe_trampoline:
	pushq $0
	subq $64, %rsp		/* vector .. ss, and 8 bytes of alignment */
	push_regs
	movq %rsp, %rdi
	call kretprobe_trampoline_handler
	movq %rax, 184(%rsp)	/* 15 registers + 64 bytes up: the pushed word */
	pop_regs
	addq $64, %rsp
	ret
