/*
 * Per-CPU, per-context recursion guard for tracing.
 *
 * Tracing code runs from any context and may call things that are
 * themselves traced (a probe that kmallocs while kmalloc is traced). A
 * guard holds one bit per interrupt context level; entering a context
 * whose bit is already set is recursion: the entry is refused and
 * counted, so it can neither recurse forever nor deadlock.
 *
 * The bits are ordered so that a more deeply nested context has a lower
 * bit (NMI 0, hardirq 1, softirq 2, task 3). Contexts only nest upwards,
 * so the innermost active context always owns the lowest set bit and
 * unlocking is "clear the lowest set bit": no second read of
 * preempt_count on the way out.
 *
 * A guard is per CPU (DEFINE_PER_CPU and this_cpu_ptr, or embedded in a
 * per-CPU structure like the ring buffer's). Plain read-modify-write is
 * enough: an interrupt that lands between the read and the write sets and
 * clears its own bit before returning, so the word is as we read it.
 */
#ifndef TRACE_TRACE_RECURSION_H
#define TRACE_TRACE_RECURSION_H

#include <kernel/types.h>
#include <kernel/preempt.h>

#define TRACE_CTX_NMI		0
#define TRACE_CTX_IRQ		1
#define TRACE_CTX_SOFTIRQ	2
#define TRACE_CTX_NORMAL	3

struct trace_recursion {
	unsigned int context;	/* bit TRACE_CTX_*: that context is inside */
	unsigned long refused;	/* entries refused as recursion */
};

/*
 * Enter tracing in the context of interrupt_context_level() level (a caller
 * that has it already); false (and counted) if already inside.
 */
static inline bool trace_recursion_lock_level(struct trace_recursion *r, int level)
{
	unsigned int bit = 1u << (TRACE_CTX_NORMAL - level);
	unsigned int val = READ_ONCE(r->context);

	if (unlikely(val & bit)) {
		r->refused++;
		return false;
	}
	WRITE_ONCE(r->context, val | bit);
	barrier();
	return true;
}

/* Enter tracing in the current context; false (and counted) if already inside. */
static inline bool trace_recursion_lock(struct trace_recursion *r)
{
	return trace_recursion_lock_level(r, interrupt_context_level());
}

/* Leave the innermost context entered with trace_recursion_lock(). */
static inline void trace_recursion_unlock(struct trace_recursion *r)
{
	unsigned int val = READ_ONCE(r->context);

	barrier();
	WRITE_ONCE(r->context, val & (val - 1));
}

#endif
