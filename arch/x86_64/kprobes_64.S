/*
 * Kprobes' text (arch/x86_64/kprobes.c, kprobes_opt.c): the out-of-line
 * instruction slots, the optimized probes' detours and their template,
 * and the kretprobe trampoline.
 */
/* ftrace: notrace */
#include <asm/calling.h>
#include <asm/segment.h>

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
 * Detours of optimized probes (kprobes_opt.c): each a copy of the
 * template below, then a copy of the region the jmp covers and a jmp
 * back past it. Within rel32 of all kernel text.
 */
	.globl kprobe_detours
kprobe_detours:
	.fill 128 * 1024, 1, 0xcc	/* KPROBE_DETOURS_SIZE in kprobes_opt.c */

/*
 * Entered by the jmp at a probe's address, with every register as the
 * probed code left it: build the struct pt_regs an int3 there would
 * (rsp as at the probe; rip, set by the handler, is the probe's), call
 * kprobe_opt_handler(regs, site address) on a 16-byte aligned stack, put
 * back what the handlers may have changed and fall into the region's
 * copy. Flags are saved before anything changes them (lea does not).
 * Copies patch the site address (the movabs before
 * kprobe_detour_template_addr) and the call's rel32.
 */
#define PTREGS_VECTOR	15*8
#define PTREGS_ERROR	16*8
#define PTREGS_CS	18*8
#define PTREGS_RSP	20*8
#define PTREGS_SS	21*8
#define PTREGS_SIZE	22*8
	.globl kprobe_detour_template
kprobe_detour_template:
	leaq -16(%rsp), %rsp		/* ss, rsp */
	pushfq				/* rflags */
	cli				/* handlers run with irqs off, as after int3; popfq restores */
	leaq -32(%rsp), %rsp		/* cs, rip, error code, vector */
	push_regs
	leaq PTREGS_SIZE(%rsp), %rax
	movq %rax, PTREGS_RSP(%rsp)
	movq $GDT_KERNEL_DS, PTREGS_SS(%rsp)
	movq $GDT_KERNEL_CS, PTREGS_CS(%rsp)
	movq $3, PTREGS_VECTOR(%rsp)	/* as the int3's frame */
	movq $0, PTREGS_ERROR(%rsp)
	movq %rsp, %rdi
	movabsq $0, %rsi
	.globl kprobe_detour_template_addr
kprobe_detour_template_addr:
	movq %rsp, %rbx
	andq $-16, %rsp
	call kprobe_opt_handler
	.globl kprobe_detour_template_call
kprobe_detour_template_call:
	movq %rbx, %rsp
	pop_regs
	leaq 32(%rsp), %rsp		/* vector, error code, rip, cs */
	popfq
	leaq 16(%rsp), %rsp		/* rsp, ss */
	.globl kprobe_detour_template_end
kprobe_detour_template_end:

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
