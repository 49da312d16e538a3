/*
 * Entry from a multiboot1 (QEMU -kernel) or multiboot2 (GRUB) loader, in
 * 32-bit protected mode with paging off. Builds boot page tables that map
 * the first 1 GiB both at 0 and at KERNEL_VMA, enters long mode with NX
 * enabled, and jumps to the higher half. arch/x86_64/paging.c replaces
 * these tables with the final, permission-exact ones.
 */
#define KERNEL_VMA	0xffffffff80000000
#define PHYS(x)		((x) - KERNEL_VMA)

#define MB1_MAGIC	0x1BADB002
#define MB1_FLAGS	0x00010003	/* page-align modules, memory map, a.out kludge */
#define MB2_MAGIC	0xE85250D6

	.section .multiboot, "a"
	.balign 4
mb1_header:
	.long MB1_MAGIC
	.long MB1_FLAGS
	.long -(MB1_MAGIC + MB1_FLAGS)
	.long mb1_header		/* header_addr */
	.long _boot_start		/* load_addr */
	.long _load_end_phys		/* load_end_addr */
	.long _bss_end_phys		/* bss_end_addr */
	.long _start32			/* entry_addr */

	.balign 8
mb2_header:
	.long MB2_MAGIC
	.long 0				/* i386 protected mode */
	.long mb2_end - mb2_header
	.long -(MB2_MAGIC + (mb2_end - mb2_header))
	/* entry address tag: GRUB would otherwise jump to the ELF's high e_entry */
	.balign 8
	.word 3, 0
	.long 12
	.long _start32
	/* module alignment tag */
	.balign 8
	.word 6, 0
	.long 8
	/* end tag */
	.balign 8
	.word 0, 0
	.long 8
mb2_end:

	.section .boot.data, "aw"
	.balign 4096
	.globl boot_pml4
boot_pml4:	.fill 512, 8, 0
boot_pdpt_lo:	.fill 512, 8, 0
boot_pdpt_hi:	.fill 512, 8, 0
boot_pd:	.fill 512, 8, 0
boot_stack:	.fill 4096, 1, 0
boot_stack_top:

	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit kernel code */
	.quad 0x00cf92000000ffff	/* 0x10: kernel data */
boot_gdt_end:
boot_gdtr:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt
	.long 0

	.section .boot.text, "ax"
	.code32
	.globl _start32
_start32:
	cli
	cld
	movl %eax, %edi			/* loader magic -> 1st argument */
	movl %ebx, %esi			/* info address -> 2nd argument */
	movl $boot_stack_top, %esp

	/* PD: 512 x 2 MiB pages covering the first 1 GiB */
	movl $boot_pd, %ebx
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $0x83, %eax			/* present, writable, 2 MiB */
	movl %eax, (%ebx, %ecx, 8)
	movl $0, 4(%ebx, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b

	movl $boot_pd + 3, boot_pdpt_lo
	movl $boot_pd + 3, boot_pdpt_hi + 510 * 8
	movl $boot_pdpt_lo + 3, boot_pml4
	movl $boot_pdpt_hi + 3, boot_pml4 + 511 * 8

	movl %cr4, %eax
	orl $0x20, %eax			/* PAE */
	movl %eax, %cr4
	movl $boot_pml4, %eax
	movl %eax, %cr3
	movl $0xC0000080, %ecx		/* EFER: long mode + NX */
	rdmsr
	orl $0x900, %eax
	wrmsr
	movl %cr0, %eax
	orl $0x80010000, %eax		/* paging + write protect */
	movl %eax, %cr0

	lgdt boot_gdtr
	ljmp $0x08, $start64_low

	.code64
start64_low:
	movabsq $start64, %rax
	jmp *%rax

	.section .text.entry, "ax"
start64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $KERNEL_VMA + boot_stack_top, %rsp
	xorl %ebp, %ebp
	call start_kernel
2:	cli
	hlt
	jmp 2b
