/*
 * Work run in hardirq context, queued from any context (an NMI, a probe
 * holding the scheduler's locks): the queuing CPU interrupts itself, and
 * the work runs as soon as that CPU takes interrupts again, where it may
 * take ordinary irq-safe locks (a wake-up). Linux's irq_work.
 */
#ifndef KERNEL_IRQ_WORK_H
#define KERNEL_IRQ_WORK_H

#include <kernel/types.h>

struct irq_work {
	struct irq_work *next;		/* on a CPU's list while queued */
	void (*func)(struct irq_work *work);
	int pending;			/* queued and not yet started: queuing again is a no-op */
};

#define IRQ_WORK_INIT(fn)	{ .next = NULL, .func = (fn), .pending = 0 }

/* Queue work on this CPU; false if it was already pending (it will run once for both). */
bool irq_work_queue(struct irq_work *work);
/* Run this CPU's queued work (the IRQ_WORK_VECTOR handler; interrupts off). */
void irq_work_run(void);

/* arch: interrupt this CPU on IRQ_WORK_VECTOR; safe in NMI context. */
void arch_irq_work_raise(void);

#endif
