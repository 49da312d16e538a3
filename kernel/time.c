/* Clocks from the TSC. tsc_khz is set by calibration (arch); until then time reads 0. */
#include <kernel/time.h>

unsigned long tsc_khz;

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

u64 ktime_get_ns(void)
{
	if (!tsc_khz)
		return 0;
	return (u64)((unsigned __int128)rdtsc() * 1000000 / tsc_khz);
}

u64 trace_clock_local(void) { return ktime_get_ns(); }
u64 trace_clock_global(void) { return ktime_get_ns(); }
u64 trace_clock_counter(void)
{
	static u64 counter;

	return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}
