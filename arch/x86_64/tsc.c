/*
 * TSC and LAPIC timer calibration against the PIT, and busy-wait delays.
 *
 * PIT channel 2 counts down at 1.193182 MHz with its gate under software
 * control (port 0x61) and its output readable there too, so it can time
 * a fixed window without interrupts. Both the TSC and the LAPIC timer are
 * read at the start and end of the same window. Under QEMU TCG the PIT
 * runs on the virtual clock, which is what the TSC follows too (host time,
 * or instructions with -icount), so the result is right in both modes.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <kernel/delay.h>
#include <asm/io.h>
#include <asm/tsc.h>
#include <asm/apic.h>

#define PIT_HZ			1193182
#define PIT_CH2_DATA		0x42
#define PIT_MODE		0x43
#define PIT_CH2_GATE_PORT	0x61
#define PIT_CH2_GATE		0x01	/* counting enabled */
#define PIT_SPEAKER		0x02	/* speaker data: keep off */
#define PIT_CH2_OUT		0x20	/* output high: count reached 0 */
/* channel 2, lobyte/hibyte access, mode 0 (interrupt on terminal count), binary */
#define PIT_CH2_MODE0		0xb0

#define CALIBRATE_MS		5

void tsc_calibrate(void)
{
	u32 count = PIT_HZ * CALIBRATE_MS / 1000;
	u64 t0, t1;
	u32 a0, a1;
	u8 gate = inb(PIT_CH2_GATE_PORT);

	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) & ~PIT_CH2_GATE);
	outb(PIT_MODE, PIT_CH2_MODE0);
	outb(PIT_CH2_DATA, count & 0xff);
	outb(PIT_CH2_DATA, count >> 8);
	lapic_timer_oneshot_max();
	/* Raising the gate starts the count; the window opens here. */
	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) | PIT_CH2_GATE);
	t0 = rdtsc();
	a0 = lapic_timer_current();
	while (!(inb(PIT_CH2_GATE_PORT) & PIT_CH2_OUT))
		;
	t1 = rdtsc();
	a1 = lapic_timer_current();
	outb(PIT_CH2_GATE_PORT, gate & ~PIT_CH2_GATE);

	/* count/PIT_HZ seconds elapsed, exactly (the PIT is the reference) */
	tsc_khz = (unsigned long)((t1 - t0) * PIT_HZ / ((u64)count * 1000));
	lapic_timer_ticks_per_ms = (u32)((u64)(a0 - a1) * PIT_HZ / ((u64)count * 1000));
	pr_info("tsc: %lu.%03lu MHz TSC, LAPIC timer %u ticks/ms (PIT, %d ms)\n",
		tsc_khz / 1000, tsc_khz % 1000, lapic_timer_ticks_per_ms, CALIBRATE_MS);
}

void ndelay(unsigned long ns)
{
	u64 end = rdtsc() + (u64)ns * tsc_khz / 1000000;

	while (rdtsc() < end)
		__builtin_ia32_pause();
}

void udelay(unsigned long us)
{
	ndelay(us * 1000);
}

void mdelay(unsigned long ms)
{
	ndelay(ms * 1000000);
}
