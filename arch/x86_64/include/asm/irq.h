/* Interrupt vectors and their handlers. */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <asm/ptrace.h>

typedef void (*irq_handler_t)(struct pt_regs *regs);

/* Install the handler of a vector (>= 32); -1 if taken or out of range. */
int irq_register_vector(unsigned int vector, irq_handler_t handler);

/*
 * NMI handlers run on every NMI, in NMI context (no locks, no printk):
 * each must tell for itself whether the NMI was its own, and returns
 * NMI_HANDLED if so (nmi:nmi_handler reports it), else NMI_DONE. -1 if full.
 */
#define NMI_DONE	0
#define NMI_HANDLED	1
typedef int (*nmi_handler_t)(struct pt_regs *regs);
int register_nmi_handler(nmi_handler_t fn);
/*
 * The kernel is about to send cpu an NMI (send_nmi, send_self_nmi): one
 * that no handler claims is then not "unknown". An unknown NMI (QEMU's
 * monitor `nmi`) prints Linux's "Uhhuh" line and the tasks' states.
 */
void nmi_expect(int cpu);
/* Parks this CPU if another one is stopping them all (arch/x86_64/smp.c). */
void nmi_stop_check(void);

struct seq_file;
/* The body of /proc/interrupts: per-CPU counts of the vectors in use. */
int arch_show_interrupts(struct seq_file *m);

#endif
