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

#endif
