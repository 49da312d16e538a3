/* The interrupt descriptor table and the C side of interrupt entry. */
#ifndef ASM_IDT_H
#define ASM_IDT_H

#include <asm/ptrace.h>

#define NR_VECTORS		256
#define FIRST_EXTERNAL_VECTOR	32

/* Fill the IDT (boot CPU, once) and load it (every CPU). */
void idt_init(void);
void idt_load(void);

/* Called by entry.S for every vector. */
void do_interrupt(struct pt_regs *regs);
/* CPU exceptions, vectors 0-31 except NMI (arch/x86_64/traps.c). */
void do_trap(struct pt_regs *regs);
/* NMI, vector 2 (arch/x86_64/irq.c). */
void do_nmi(struct pt_regs *regs);
/* Device interrupts and IPIs, vectors 32-255 (arch/x86_64/irq.c). */
void do_irq(struct pt_regs *regs);

/*
 * A handler for #BP (int3) that text patching installs: returns true if
 * the breakpoint was its own (it then adjusted regs->rip).
 */
void traps_set_int3_handler(bool (*fn)(struct pt_regs *regs));

#endif
