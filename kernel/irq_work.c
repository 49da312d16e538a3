/*
 * irq_work (kernel/irq_work.h). Each CPU keeps a lock-free stack of queued
 * work: pushing is one compare-and-swap, so an NMI may push onto the stack
 * of the code it interrupted, and the vector handler takes the whole
 * stack with one exchange.
 */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/irq_work.h>

static DEFINE_PER_CPU(struct irq_work *, irq_work_list);

bool irq_work_queue(struct irq_work *work)
{
	struct irq_work **head;
	struct irq_work *old;

	/* A plain look first: writers call this for every event while it is pending. */
	if (__atomic_load_n(&work->pending, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&work->pending, 1, __ATOMIC_ACQ_REL))
		return false;
	head = this_cpu_ptr(&irq_work_list);
	old = __atomic_load_n(head, __ATOMIC_RELAXED);
	do {
		work->next = old;
	} while (!__atomic_compare_exchange_n(head, &old, work, false, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	/* The first on an empty list raises the interrupt; the others ride on it. */
	if (!old)
		arch_irq_work_raise();
	return true;
}

void irq_work_run(void)
{
	struct irq_work *work = __atomic_exchange_n(this_cpu_ptr(&irq_work_list), NULL,
						    __ATOMIC_ACQUIRE);

	while (work) {
		struct irq_work *next = work->next;

		/* Cleared before it runs: work queued again from func runs again. */
		__atomic_store_n(&work->pending, 0, __ATOMIC_RELEASE);
		work->func(work);
		work = next;
	}
}
