/*
 * GDT layout. The order user data before user code is what SYSRET needs
 * (STAR[63:48] + 8 = SS, + 16 = CS), for ring 3 later.
 */
#ifndef ASM_SEGMENT_H
#define ASM_SEGMENT_H

#define GDT_KERNEL_CS	0x08
#define GDT_KERNEL_DS	0x10
#define GDT_USER_DS	0x18
#define GDT_USER_CS	0x20
#define GDT_TSS		0x28	/* 16-byte descriptor */
#define GDT_ENTRIES	7

/* Interrupt stack table slots (1-based, as the IDT gate encodes them). */
#define IST_NMI		1
#define IST_DOUBLE_FAULT 2
#define IST_MCE		3
#define IST_STACK_SIZE	8192

#ifndef __ASSEMBLER__
/*
 * Load this CPU's GDT and TSS. Both live in the per-CPU area with the IST
 * stacks, so call it once GS points at the CPU's copy (the boot CPU may
 * call it early on the template and again after the switch).
 */
void gdt_init_cpu(void);
/* The stack the CPU switches to on a ring 3 -> ring 0 transition. */
void tss_set_rsp0(unsigned long rsp0);
/* The IST stack range of the current CPU for a slot, for backtraces. */
void ist_stack_range(int ist, unsigned long *lo, unsigned long *hi);
#endif

#endif
