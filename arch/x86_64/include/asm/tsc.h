/* The time stamp counter (arch/x86_64/tsc.c calibrates it). */
#ifndef ASM_TSC_H
#define ASM_TSC_H

#include <kernel/types.h>

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/* TSC kHz, set once by tsc_calibrate (0 before: clocks read 0). */
extern unsigned long tsc_khz;
/* Sets tsc_khz and the clock's conversion from it (kernel/time.c). */
void tsc_set_khz(unsigned long khz);

/* Measures the TSC and the LAPIC timer against PIT channel 2. Boot CPU, after apic_init. */
void tsc_calibrate(void);

#endif
