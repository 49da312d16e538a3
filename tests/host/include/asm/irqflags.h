/* Host build: interrupts do not exist; a thread-local flag keeps irqs_disabled() honest. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

extern __thread unsigned long host_irq_flags;	/* 0x200 = enabled */

static inline unsigned long arch_local_save_flags(void) { return host_irq_flags; }
static inline void arch_local_irq_disable(void) { host_irq_flags = 0; }
static inline void arch_local_irq_enable(void) { host_irq_flags = 0x200; }
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long f = host_irq_flags;
	host_irq_flags = 0;
	return f;
}
static inline void arch_local_irq_restore(unsigned long f) { host_irq_flags = f; }
static inline int arch_irqs_disabled_flags(unsigned long f) { return !(f & 0x200); }
static inline int arch_irqs_disabled(void) { return !(host_irq_flags & 0x200); }

#endif
