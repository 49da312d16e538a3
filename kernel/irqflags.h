/*
 * local_irq_* as Linux's: the raw instructions (asm/irqflags.h) and the
 * hardirq tracing hooks (trace/trace_preemptirq.c) the irqsoff tracers and
 * the preemptirq events listen to. Each site's hook sits behind one static
 * key, a 5-byte NOP while neither wants it. A hook runs on a transition
 * only: a save that found interrupts off, or a restore that leaves them
 * off, calls nothing. arch_local_irq_* stay raw (NMI paths, entry code,
 * the IPI sender). The host build (unit tests) has no hooks.
 */
#ifndef KERNEL_IRQFLAGS_H
#define KERNEL_IRQFLAGS_H

#include <asm/irqflags.h>

#ifdef SPOOR_HOST
#define trace_irqflags_enabled()	false
static inline void trace_hardirqs_on(void) { }
static inline void trace_hardirqs_off(void) { }
#else
#include <kernel/jump_label.h>

/* On while a latency tracer or a preemptirq irq event wants the hooks. */
DECLARE_STATIC_KEY_FALSE(trace_irqflags_key);
#define trace_irqflags_enabled()	static_branch_unlikely(&trace_irqflags_key)
/* Interrupts are about to go on / just went off; the caller's caller is the parent. */
void trace_hardirqs_on(void);
void trace_hardirqs_off(void);
#endif

/*
 * The same from interrupt entry and exit (arch/x86_64/irq.c), naming the
 * interrupted or resumed instruction as the parent: the interrupt
 * disabled interrupts, its return enables them again.
 */
void trace_hardirqs_off_caller(unsigned long ip, unsigned long parent_ip);
void trace_hardirqs_on_caller(unsigned long ip, unsigned long parent_ip);

#define local_irq_disable() do {						\
	arch_local_irq_disable();						\
	if (trace_irqflags_enabled())						\
		trace_hardirqs_off();						\
} while (0)
#define local_irq_enable() do {							\
	if (trace_irqflags_enabled())						\
		trace_hardirqs_on();						\
	arch_local_irq_enable();						\
} while (0)
#define local_irq_save(flags) do {						\
	(flags) = arch_local_irq_save();					\
	if (trace_irqflags_enabled() && !arch_irqs_disabled_flags(flags))	\
		trace_hardirqs_off();						\
} while (0)
#define local_irq_restore(flags) do {						\
	if (trace_irqflags_enabled() && !arch_irqs_disabled_flags(flags))	\
		trace_hardirqs_on();						\
	arch_local_irq_restore(flags);						\
} while (0)
#define irqs_disabled()		arch_irqs_disabled()

/* Idle: interrupts on and halt in one go (sti's shadow), the irqs-off section ended first. */
static inline void safe_halt(void)
{
	if (trace_irqflags_enabled())
		trace_hardirqs_on();
	__asm__ __volatile__("sti; hlt" ::: "memory");
}

#endif
