/*
 * Clocks. ktime_get_ns: monotonic nanoseconds since boot (TSC-based,
 * consistent across CPUs). The trace clocks are those of trace_clock:
 * local (per-CPU TSC, fastest), global (monotonic across CPUs), counter
 * (an atomic increment: ordering, not time). Host: tests/host/kshim.c.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <kernel/types.h>

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

u64 ktime_get_ns(void);
u64 trace_clock_local(void);
u64 trace_clock_global(void);
u64 trace_clock_counter(void);

/*
 * The tick: an hrtimer (kernel/hrtimer.h) firing HZ times a second on every CPU.
 * jiffies is ktime_get_ns in 1/HZ units, brought up to date by every tick.
 */
#define HZ		1000
extern volatile u64 jiffies;
#define MAX_JIFFY_OFFSET	((long)(~0UL >> 2))
static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return DIV_ROUND_UP((unsigned long)ms * HZ, 1000);
}
static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)(j * 1000 / HZ);
}
static inline unsigned long nsecs_to_jiffies_ceil(u64 ns)
{
	return (unsigned long)DIV_ROUND_UP(ns, NSEC_PER_SEC / HZ);
}
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before(a, b)	((long)((a) - (b)) < 0)
/* The tick's work on this CPU: jiffies, scheduler, timers (hardirq). */
void tick_periodic(void);
/* Start this CPU's tick: an hrtimer every 1/HZ (boot CPU after tsc_calibrate; each AP). */
void tick_start_cpu(void);

#endif
