/*
 * Grace periods from per-CPU quiescent-state counters: a waiter snapshots
 * every other CPU's counter and waits for each to move. CPUs that stay
 * busy in preemptible code still pass through the tick; CPUs that stay
 * inside one long reader delay the waiter, which is the point.
 *
 * A CPU whose counter is still 0 has never run the scheduler or taken a
 * tick (not brought up, or failed to come up): it is not waited for, so a
 * missing CPU cannot hang every waiter. Readers only start once tracing
 * is switched on from a shell, long after every CPU has ticked. Pure.
 */
#include <kernel/rcu.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/spinlock.h>

static DEFINE_PER_CPU(unsigned long, rcu_qs_seq);

void rcu_note_qs(void)
{
	this_cpu_inc(rcu_qs_seq);
}

void rcu_tick(unsigned long preempt_count_interrupted, bool was_idle)
{
	if (was_idle || preempt_count_interrupted == 0)
		rcu_note_qs();
}

void synchronize_rcu(void)
{
	unsigned long snap[NR_CPUS];
	u64 wait = 0;
	int self, cpu;

	preempt_disable();
	self = smp_processor_id();
	for_each_possible_cpu(cpu)
		snap[cpu] = __atomic_load_n(per_cpu_ptr(&rcu_qs_seq, cpu), __ATOMIC_ACQUIRE);
	preempt_enable();
	for_each_possible_cpu(cpu)
		if (cpu != self && snap[cpu] != 0)
			wait |= 1ULL << cpu;
	/* rather than a tick on each (a millisecond, more on an idle CPU): an IPI */
	if (wait)
		rcu_kick_cpus(wait);
	for_each_possible_cpu(cpu) {
		if (!(wait & (1ULL << cpu)))
			continue;	/* the caller is not in a reader; a silent CPU runs none */
		while (__atomic_load_n(per_cpu_ptr(&rcu_qs_seq, cpu), __ATOMIC_ACQUIRE) == snap[cpu])
			cpu_relax();
	}
	smp_mb();
}
