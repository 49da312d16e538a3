/*
 * Clocks from the TSC, and the periodic tick. The TSC of every CPU counts
 * from the same reset (QEMU keeps them in step), so one conversion serves
 * all CPUs and ktime_get_ns is the time since the machine started. tsc_khz
 * is set by calibration (arch/x86_64/tsc.c); until then time reads 0.
 */
#include <kernel/time.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/timer.h>
#include <kernel/rcu.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>
#include <kernel/ftrace.h>
#include <kernel/hrtimer.h>
#include <asm/tsc.h>

unsigned long tsc_khz;
volatile u64 jiffies;
/*
 * ns = tsc * tsc_ns_mult >> TSC_NS_SHIFT: a multiply instead of a 128-bit
 * division on every clock read (the division was a libgcc call). With a
 * 40-bit shift the rounding error is below 1e-12 of the time read.
 */
#define TSC_NS_SHIFT	40
static u64 tsc_ns_mult;

void tsc_set_khz(unsigned long khz)
{
	tsc_ns_mult = (u64)(((unsigned __int128)1000000 << TSC_NS_SHIFT) / khz);
	WRITE_ONCE(tsc_khz, khz);
}

/* The clock of every trace record: the tracer runs it. */
notrace u64 ktime_get_ns(void)
{
	return (u64)(((unsigned __int128)rdtsc() * tsc_ns_mult) >> TSC_NS_SHIFT);
}

notrace u64 trace_clock_local(void) { return ktime_get_ns(); }
notrace u64 trace_clock_global(void) { return ktime_get_ns(); }
notrace u64 trace_clock_counter(void)
{
	static u64 counter;

	return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

/*
 * Every CPU's HZ tick, in hardirq context. jiffies follows the clock
 * rather than counting one CPU's ticks: under TCG a vCPU can be starved
 * for a while, and time must not stall with it. Any CPU's tick moves it.
 */
/* What the tick does for RCU, asked for by an IPI (rcu_kick_cpus). */
static void rcu_qs_call(void *info)
{
	rcu_tick(preempt_count() - HARDIRQ_OFFSET, is_idle_task(current));
}

void rcu_kick_cpus(u64 mask)
{
	smp_call_function_many(mask, rcu_qs_call, NULL, true);
}

void tick_periodic(void)
{
	u64 now = ktime_get_ns() / (NSEC_PER_SEC / HZ);
	u64 old = jiffies;

	while (now > old && !__atomic_compare_exchange_n(&jiffies, &old, now, false,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	rcu_tick(preempt_count() - HARDIRQ_OFFSET, is_idle_task(current));
	scheduler_tick();
	run_local_timers();
}

static DEFINE_PER_CPU(struct hrtimer, tick_timer);

/* The tick as an hrtimer (Linux's tick_sched_timer): every 1/HZ, skipping missed ones. */
static enum hrtimer_restart tick_sched_timer(struct hrtimer *t)
{
	tick_periodic();
	hrtimer_forward(t, ktime_get_ns(), NSEC_PER_SEC / HZ);
	return HRTIMER_RESTART;
}

void tick_start_cpu(void)
{
	struct hrtimer *t = this_cpu_ptr(&tick_timer);

	hrtimers_start_cpu();
	hrtimer_init(t, tick_sched_timer);
	hrtimer_start(t, ktime_get_ns() + NSEC_PER_SEC / HZ);
}
