/*
 * preempt_count, as in Linux: one per-CPU word whose fields count preempt
 * disables, softirq (serving and BH-disabled), hardirq and NMI nesting.
 * The tracing recursion guards read the context from it, so it is kept
 * exactly: irq/NMI entry code adds the offsets, exit code subtracts them.
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include <kernel/percpu.h>

#define PREEMPT_BITS	8
#define SOFTIRQ_BITS	8
#define HARDIRQ_BITS	4
#define NMI_BITS	4

#define PREEMPT_SHIFT	0
#define SOFTIRQ_SHIFT	(PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT	(SOFTIRQ_SHIFT + SOFTIRQ_BITS)
#define NMI_SHIFT	(HARDIRQ_SHIFT + HARDIRQ_BITS)

#define __IRQ_MASK(x)	((1UL << (x)) - 1)
#define PREEMPT_MASK	(__IRQ_MASK(PREEMPT_BITS) << PREEMPT_SHIFT)
#define SOFTIRQ_MASK	(__IRQ_MASK(SOFTIRQ_BITS) << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK	(__IRQ_MASK(HARDIRQ_BITS) << HARDIRQ_SHIFT)
#define NMI_MASK	(__IRQ_MASK(NMI_BITS) << NMI_SHIFT)

#define PREEMPT_OFFSET	(1UL << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET	(1UL << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET	(1UL << HARDIRQ_SHIFT)
#define NMI_OFFSET	(1UL << NMI_SHIFT)
/* local_bh_disable adds twice SOFTIRQ_OFFSET; serving a softirq adds it once. */
#define SOFTIRQ_DISABLE_OFFSET	(2 * SOFTIRQ_OFFSET)

DECLARE_PER_CPU(int, __preempt_count);
/* Set by the scheduler when the running task should yield at the next chance. */
DECLARE_PER_CPU(int, need_resched);

#define preempt_count()		((unsigned long)this_cpu_read(__preempt_count))
#define hardirq_count()		(preempt_count() & HARDIRQ_MASK)
#define softirq_count()		(preempt_count() & SOFTIRQ_MASK)
#define irq_count()		(preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))

#define in_nmi()		(preempt_count() & NMI_MASK)
#define in_hardirq()		(hardirq_count())
#define in_irq()		in_hardirq()
#define in_softirq()		(softirq_count())
#define in_serving_softirq()	(softirq_count() & SOFTIRQ_OFFSET)
#define in_interrupt()		(irq_count())
#define in_task()		(!(preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)))

/* 0 task, 1 softirq, 2 hardirq, 3 NMI: the index of the recursion guards. */
static inline int interrupt_context_level(void)
{
	unsigned long pc = preempt_count();
	int level = 0;

	level += !!(pc & (NMI_MASK));
	level += !!(pc & (NMI_MASK | HARDIRQ_MASK));
	level += !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
	return level;
}

#define preempt_count_add(v)	this_cpu_add(__preempt_count, (v))
#define preempt_count_sub(v)	this_cpu_sub(__preempt_count, (v))

/* Reschedule if preemption is allowed again and a reschedule is pending (kernel/sched). */
void preempt_schedule(void);

/*
 * The _notrace forms are the raw count: tracing code (tracepoint calls,
 * the ring buffer) uses them so the preempt hooks never see the tracer.
 */
#define preempt_disable_notrace() do { preempt_count_add(1); barrier(); } while (0)
#define preempt_enable_no_resched_notrace() do { barrier(); preempt_count_sub(1); } while (0)
#define preempt_enable_notrace() do {					\
	barrier();							\
	preempt_count_sub(1);						\
	if (unlikely(this_cpu_read(__preempt_count) == 0 &&		\
		     this_cpu_read(need_resched)))			\
		preempt_schedule();					\
} while (0)

/*
 * The traced forms call the preempt hooks (trace/trace_preemptirq.c)
 * behind one static key, a 5-byte NOP while no preemptoff tracer and no
 * preemptirq preempt event wants them. The hooks themselves act only when
 * the count goes 0 -> 1 or 1 -> 0, as Linux's do.
 */
#ifdef SPOOR_HOST
#define trace_preempt_enabled()	false
static inline void trace_preempt_on(void) { }
static inline void trace_preempt_off(void) { }
#else
#include <kernel/jump_label.h>
DECLARE_STATIC_KEY_FALSE(trace_preempt_key);
#define trace_preempt_enabled()	static_branch_unlikely(&trace_preempt_key)
void trace_preempt_on(void);
void trace_preempt_off(void);
#endif

#define preempt_disable() do {						\
	preempt_disable_notrace();					\
	if (trace_preempt_enabled())					\
		trace_preempt_off();					\
} while (0)
#define preempt_enable_no_resched() do {				\
	if (trace_preempt_enabled())					\
		trace_preempt_on();					\
	preempt_enable_no_resched_notrace();				\
} while (0)
#define preempt_enable() do {						\
	if (trace_preempt_enabled())					\
		trace_preempt_on();					\
	preempt_enable_notrace();					\
} while (0)

#endif
