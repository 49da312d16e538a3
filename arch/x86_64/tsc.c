/*
 * TSC and LAPIC timer calibration against the PIT, and busy-wait delays.
 *
 * PIT channel 2 counts down at 1.193182 MHz with its gate under software
 * control (port 0x61) and its output readable there too, so it can time
 * a fixed window without interrupts. Both the TSC and the LAPIC timer are
 * read at the start and end of the same window, a few windows long. Under QEMU TCG the PIT
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
#define CALIBRATE_TRIES		10

/*
 * One window. Its ends are known only to within the time between two
 * TSC reads around them (the count write; the last poll that saw the
 * output low and the one that saw it high); *uncertainty is the sum of
 * both, so a window the host preempted the vCPU in can be told apart.
 */
static void pit_window(u64 *tsc_delta, u32 *lapic_delta, u64 *uncertainty)
{
	u32 count = PIT_HZ * CALIBRATE_MS / 1000;
	u8 gate = inb(PIT_CH2_GATE_PORT);
	u64 s0, s1, e0, e1;
	u32 a0, a1;

	/*
	 * Gate high first: then counting starts at the count write on real
	 * hardware and in QEMU alike (QEMU ignores the gate in mode 0).
	 */
	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) | PIT_CH2_GATE);
	outb(PIT_MODE, PIT_CH2_MODE0);
	outb(PIT_CH2_DATA, count & 0xff);
	lapic_timer_oneshot_max();
	s0 = rdtsc();
	outb(PIT_CH2_DATA, count >> 8);
	a0 = lapic_timer_current();
	s1 = rdtsc();
	e0 = s1;
	while (!(inb(PIT_CH2_GATE_PORT) & PIT_CH2_OUT))
		e0 = rdtsc();
	a1 = lapic_timer_current();
	e1 = rdtsc();
	outb(PIT_CH2_GATE_PORT, gate & ~(PIT_CH2_GATE | PIT_SPEAKER));

	*tsc_delta = (e0 + e1) / 2 - (s0 + s1) / 2;
	*lapic_delta = a0 - a1;
	*uncertainty = (s1 - s0) + (e1 - e0);
}

/*
 * Under TCG on a busy host a window can come out stretched even when
 * both ends look sharp, never shortened: so the shortest sharp window
 * wins, and two sharp windows agreeing to 0.1% end the search. On a host
 * so loaded that no window is sharp, the one with the smallest relative
 * uncertainty is used and the boot says so: a rougher clock beats no boot.
 */
void tsc_calibrate(void)
{
	u64 den = (u64)(PIT_HZ * CALIBRATE_MS / 1000) * 1000;
	u64 best_tsc = ~0ULL, best_unc = 0, rough_tsc = 0, rough_unc = 0;
	u32 best_lapic = 0, rough_lapic = 0;
	int tries;

	for (tries = 1; tries <= CALIBRATE_TRIES; tries++) {
		u64 d, unc;
		u32 l;

		pit_window(&d, &l, &unc);
		if (!rough_tsc || unc * rough_tsc < rough_unc * d)
			rough_tsc = d, rough_lapic = l, rough_unc = unc;
		if (unc * 100 > d)
			continue;
		if (best_tsc != ~0ULL && (d > best_tsc ? d - best_tsc : best_tsc - d) * 1000 < best_tsc) {
			if (d < best_tsc)
				best_tsc = d, best_lapic = l, best_unc = unc;
			break;
		}
		if (d < best_tsc)
			best_tsc = d, best_lapic = l, best_unc = unc;
	}
	if (best_tsc == ~0ULL) {
		pr_warn("tsc: no clean PIT calibration window in %d tries (host busy?)\n",
			CALIBRATE_TRIES);
		best_tsc = rough_tsc, best_lapic = rough_lapic, best_unc = rough_unc;
	}
	/* count / PIT_HZ seconds elapsed, exactly: the PIT is the reference */
	tsc_set_khz((unsigned long)(best_tsc * PIT_HZ / den));
	lapic_timer_ticks_per_ms = (u32)((u64)best_lapic * PIT_HZ / den);
	pr_info("tsc: %lu.%03lu MHz TSC, LAPIC timer %u ticks/ms (PIT, %d ms x %d, +-%lu ppm)\n",
		tsc_khz / 1000, tsc_khz % 1000, lapic_timer_ticks_per_ms, CALIBRATE_MS,
		tries > CALIBRATE_TRIES ? CALIBRATE_TRIES : tries,
		(unsigned long)(best_unc * 1000000 / best_tsc));
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
