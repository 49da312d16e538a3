/*
 * High-resolution timers (kernel/hrtimer.c): a function to run in hardirq
 * context on one CPU at an absolute ktime_get_ns() time, to within the
 * local APIC timer's resolution (16 ns in QEMU at divide-by-16) plus the
 * interrupt's latency. Each CPU keeps its armed timers sorted by expiry
 * and programs its APIC timer, in one-shot mode, for the first; the HZ
 * tick is one of these timers (kernel/time.c), as in Linux with
 * high-resolution timers on. Every expiry fires timer:hrtimer_expire_entry.
 *
 * A timer is armed on the CPU that calls hrtimer_start (Linux's
 * HRTIMER_MODE_PINNED) or the one hrtimer_start_on names, except that a
 * timer whose function runs right now on another CPU stays there.
 * Cancelling works from any CPU.
 */
#ifndef KERNEL_HRTIMER_H
#define KERNEL_HRTIMER_H

#include <kernel/types.h>
#include <kernel/list.h>

struct hrtimer_cpu_base;
struct pt_regs;

enum hrtimer_restart {
	HRTIMER_NORESTART,	/* done */
	HRTIMER_RESTART,	/* the function moved expires (hrtimer_forward): again */
};

struct hrtimer {
	struct list_head node;		/* in its base's queue while armed */
	u64 expires;			/* ktime_get_ns() time */
	enum hrtimer_restart (*function)(struct hrtimer *t);
	/* the CPU base it is armed on or last ran on; hrtimer_migrating while it moves */
	struct hrtimer_cpu_base *base;
};

void hrtimer_init(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *t));
/* Arm t to expire at expires (absolute) on this CPU; re-arms if it was armed. */
void hrtimer_start(struct hrtimer *t, u64 expires);
/*
 * The same on cpu. Another CPU's APIC timer is programmed at its next
 * interrupt, its tick at the latest: up to 1/HZ late for a first expiry.
 */
void hrtimer_start_on(struct hrtimer *t, u64 expires, int cpu);
/* Disarm t: 1 if it was armed, 0 if not, -1 if its function runs now (not waited for). */
int hrtimer_try_to_cancel(struct hrtimer *t);
/* Disarm t and wait for its function if it runs now (not from that function, not in irq). */
int hrtimer_cancel(struct hrtimer *t);
/* Nanoseconds until t expires (negative if overdue); for an armed timer. */
s64 hrtimer_get_remaining(const struct hrtimer *t);
/* Move expires forward by whole intervals past now; returns how many. */
u64 hrtimer_forward(struct hrtimer *t, u64 now, u64 interval);
static inline bool hrtimer_is_queued(const struct hrtimer *t) { return !list_empty(&t->node); }

/*
 * The registers the current interrupt interrupted (Linux's get_irq_regs):
 * what a timer function samples. NULL outside interrupts.
 */
struct pt_regs *get_irq_regs(void);
struct pt_regs *set_irq_regs(struct pt_regs *regs);

/* The APIC timer interrupt: run what expired, program the next expiry. */
void hrtimer_interrupt(void);
/* This CPU's base and its APIC timer in one-shot mode (tick_start_cpu calls it). */
void hrtimers_start_cpu(void);
/* This CPU's armed timers and APIC count in one line (for a hang report). */
void hrtimers_show_cpu(void);

#endif
