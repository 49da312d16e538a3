/*
 * Placeholder until the scheduler lands: with nothing to switch to, a
 * pending reschedule is simply cleared. kernel/sched provides the real
 * preempt_schedule (a strong definition overrides this weak one); delete
 * this file then.
 */
#include <kernel/preempt.h>

__attribute__((weak)) void preempt_schedule(void)
{
	this_cpu_write(need_resched, 0);
}
