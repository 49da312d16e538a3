/* The spinlock operations kept out of line (kernel/spinlock.h). Pure. */
#include <kernel/spinlock.h>

bool _raw_spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (arch_spin_trylock(l))
		return true;
	preempt_enable();
	return false;
}
