/*
 * Softirqs (kernel/softirq.c) and the hardirq bracket (irq_enter/irq_exit,
 * arch/x86_64/irq.c). Vector numbers and names are Linux's, which the
 * softirq_entry/exit/raise events print.
 */
#ifndef KERNEL_INTERRUPT_H
#define KERNEL_INTERRUPT_H

#include <kernel/types.h>
#include <kernel/percpu.h>

enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS
};

/* "HI", "TIMER", ... indexed by vector. */
extern const char *const softirq_to_name[NR_SOFTIRQS];

DECLARE_PER_CPU(u32, __softirq_pending);
#define local_softirq_pending()	this_cpu_read(__softirq_pending)

void open_softirq(int nr, void (*action)(void));
/* Marks nr pending on this CPU; it runs at the next irq exit or in ksoftirqd/N. Any context but NMI. */
void raise_softirq(unsigned int nr);
void raise_softirq_irqoff(unsigned int nr);
/* Runs pending softirqs now if not in interrupt context (irqs may be on or off). */
void do_softirq(void);
/* Softirqs handled per CPU and vector since boot. */
u64 softirq_count_of(int cpu, unsigned int nr);

/* Bottom halves off/on on this CPU; enabling runs what was raised meanwhile. */
void local_bh_disable(void);
void local_bh_enable(void);

/* Bracket of every hardirq handler: preempt_count accounting, softirqs on the way out. */
void irq_enter(void);
void irq_exit(void);

/* Starts ksoftirqd/cpu (after the scheduler runs there). */
void spawn_ksoftirqd(int cpu);

#endif
