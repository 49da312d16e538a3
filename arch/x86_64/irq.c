/*
 * Device interrupts, IPIs and NMIs: vectors >= 32 dispatch through a table
 * of handlers. (Initial version; the SMP/APIC work extends it with
 * irq_enter/irq_exit accounting, EOI, softirqs and preemption.)
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <asm/idt.h>
#include <asm/irq.h>

static irq_handler_t vector_handlers[NR_VECTORS];

int irq_register_vector(unsigned int vector, irq_handler_t handler)
{
	if (vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS || vector_handlers[vector])
		return -1;
	vector_handlers[vector] = handler;
	return 0;
}

void do_irq(struct pt_regs *regs)
{
	irq_handler_t h = vector_handlers[regs->vector];

	preempt_count_add(HARDIRQ_OFFSET);
	if (h)
		h(regs);
	else
		printk(KERN_WARNING "spurious interrupt on vector %lu\n", regs->vector);
	preempt_count_sub(HARDIRQ_OFFSET);
}

void do_nmi(struct pt_regs *regs)
{
	preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
	printk(KERN_WARNING "NMI received\n");
	preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
}
