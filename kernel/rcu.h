/*
 * A grace-period mechanism in the spirit of RCU-sched: a reader is any
 * section that runs with preemption or interrupts disabled (tracepoint
 * probe loops, NMI handlers). synchronize_rcu() returns once every CPU
 * has passed a quiescent state — a context switch, the idle loop, or a
 * tick that interrupted preemptible task code — after it was called, so
 * no reader can still hold a pointer unpublished before the call.
 */
#ifndef KERNEL_RCU_H
#define KERNEL_RCU_H

#include <kernel/types.h>
#include <kernel/atomic.h>

#define rcu_dereference(p)		__atomic_load_n(&(p), __ATOMIC_CONSUME)
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

/* This CPU is in a quiescent state now (scheduler and idle loop call this). */
void rcu_note_qs(void);
/*
 * From the timer tick: preempt_count_interrupted is the interrupted
 * context's preempt_count (the tick's own HARDIRQ_OFFSET removed).
 */
void rcu_tick(unsigned long preempt_count_interrupted, bool was_idle);
/*
 * Have the CPUs in mask report a quiescent state now if they are in one
 * (kernel/time.c: an IPI that does what the tick does), so a grace period
 * need not wait for their ticks. Returns once each has answered (the
 * caller halts meanwhile): only CPUs inside a reader are left to spin on.
 */
void rcu_kick_cpus(u64 mask);
/* Wait for a grace period. Must not be called from a reader. */
void synchronize_rcu(void);

#endif
