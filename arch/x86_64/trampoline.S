/*
 * AP start-up. A STARTUP IPI starts an AP in 16-bit real mode at
 * TRAMPOLINE_PHYS; the code between trampoline_start and trampoline_end is
 * copied there (memory below 1 MiB is kept free for it) and takes the CPU
 * through 32-bit protected mode into long mode on the kernel's page
 * tables, which identity-map this page while APs boot. It then jumps to
 * ap_start64 in the kernel proper. Addresses inside the copy are computed
 * with T(), as the code runs at a different address than it is linked at.
 */
#include <asm/smp_boot.h>

#define T(x)	((x) - trampoline_start + TRAMPOLINE_PHYS)

	.section .rodata.trampoline, "a"
	.code16
	.globl trampoline_start
trampoline_start:
	cli
	cld
	xorw %ax, %ax
	movw %ax, %ds
	lgdtl T(tr_gdtr)
	movl %cr0, %eax
	orl $1, %eax			/* PE */
	movl %eax, %cr0
	ljmpl $0x08, $T(tr_pm32)

	.code32
tr_pm32:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl %cr4, %eax
	orl $0x20, %eax			/* PAE */
	movl %eax, %cr4
	movl T(trampoline_cr3), %eax
	movl %eax, %cr3
	movl $0xC0000080, %ecx		/* EFER: long mode + NX, as the boot CPU */
	rdmsr
	orl $0x900, %eax
	wrmsr
	movl %cr0, %eax
	orl $0x80010000, %eax		/* paging + write protect */
	movl %eax, %cr0
	ljmpl $0x18, $T(tr_lm64)

	.code64
tr_lm64:
	movq T(trampoline_entry), %rax
	jmp *%rax

	.balign 8
tr_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
	.quad 0x00af9a000000ffff	/* 0x18: 64-bit code */
tr_gdtr:
	.word tr_gdtr - tr_gdt - 1
	.long T(tr_gdt)
	.balign 8
	.globl trampoline_cr3, trampoline_entry
trampoline_cr3:
	.quad 0				/* filled by smp_init: the kernel's CR3 (below 4 GiB) */
trampoline_entry:
	.quad 0				/* filled by smp_init: ap_start64 */
	.globl trampoline_end
trampoline_end:

/*
 * In the kernel proper, on the boot page tables' upper half. Which CPU am
 * I? The APIC id from CPUID leaf 1 says, through smp_boot_apicid[]; then
 * the stack prepared for that CPU's idle task.
 */
	.text
	.globl ap_start64
ap_start64:
	movl $1, %eax
	cpuid
	shrl $24, %ebx
	leaq smp_boot_apicid(%rip), %rsi
	xorl %ecx, %ecx
1:	cmpl (%rsi, %rcx, 4), %ebx
	je 2f
	incl %ecx
	cmpl $NR_CPUS, %ecx
	jb 1b
3:	cli				/* not a CPU we were asked to start */
	hlt
	jmp 3b
2:	leaq smp_boot_stack(%rip), %rsi
	movq (%rsi, %rcx, 8), %rsp
	xorl %ebp, %ebp
	movl %ecx, %edi
	call start_secondary
	ud2
