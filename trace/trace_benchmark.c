/*
 * In-kernel tracing benchmarks, run from /sys/kernel/debug/trace_selftest
 * ("bench N"): what a tracepoint costs at its call site, off and on, and
 * how many events a CPU's ring buffer takes per second. Each figure is
 * the time of N calls in a loop, interrupts off, less the same loop
 * without the call, divided by N. Under QEMU with -icount shift=0 one
 * guest nanosecond is one instruction, so the figures are instruction
 * counts (bench/trace_guest.sh runs it that way). EBUSY while anything
 * traces sched_switch (any enabled event does: the task-name saver).
 * The caller holds trace_types_lock.
 *
 *   tp_off   trace_sched_switch() with no probe: the NOP at the site
 *   tp_on    trace_sched_switch() with the sched_switch event enabled in
 *            the top-level instance: the whole path from the call site to
 *            the committed 64-byte record (Linux's sched_switch size);
 *            it includes the probe saving task names, as on Linux; the
 *            records (current switching to itself) stay in `trace`
 *   rb       reserve + fill + commit of a 64-byte event on a private
 *            ring buffer (overwrite mode): events per second per CPU
 *
 * Kernel only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/sched.h>
#include <asm/irqflags.h>
#include <trace/trace.h>
#include <trace/ring_buffer.h>
#include <trace/events/sched.h>

#define BENCH_RECORD	56	/* payload of a sched_switch-sized event (64 with its common fields) */

static noinline u64 bench_loop(unsigned long n)
{
	u64 t0 = ktime_get_ns();

	for (unsigned long i = 0; i < n; i++)
		barrier();
	return ktime_get_ns() - t0;
}

static noinline u64 bench_tracepoint(unsigned long n)
{
	struct task_struct *p = current;
	u64 t0 = ktime_get_ns();

	for (unsigned long i = 0; i < n; i++) {
		trace_sched_switch(false, p, p, 0);
		barrier();
	}
	return ktime_get_ns() - t0;
}

static noinline u64 bench_ring_buffer(struct trace_buffer *b, unsigned long n)
{
	u64 t0 = ktime_get_ns();

	for (unsigned long i = 0; i < n; i++) {
		struct rb_event *ev = ring_buffer_lock_reserve(b, BENCH_RECORD);

		if (ev) {
			memset(ring_buffer_event_data(ev), (int)i, BENCH_RECORD);
			ring_buffer_unlock_commit(b);
		}
		barrier();
	}
	return ktime_get_ns() - t0;
}

/* Nanoseconds per call, in tenths, above the bare loop's. */
static unsigned long per_call_x10(u64 ns, u64 base, unsigned long n)
{
	return ns > base ? (unsigned long)((ns - base) * 10 / n) : 0;
}

int trace_benchmark(unsigned long n, char *out, size_t size)
{
	struct trace_event_file *file = trace_find_event_file(&global_trace, "sched", "sched_switch");
	unsigned long flags, off, on, rb;
	struct trace_buffer *b;
	u64 base, t_off, t_on, t_rb;
	int ret;

	if (!file)
		return -ENODEV;
	/* Anything tracing sched_switch (any enabled event: the name saver) spoils tp_off. */
	if (static_key_enabled(&__tracepoint_sched_switch.key.key))
		return -EBUSY;
	b = ring_buffer_alloc(64 * RB_PAGE_SIZE, RB_FL_OVERWRITE);
	if (!b)
		return -ENOMEM;

	local_irq_save(flags);
	base = bench_loop(n);
	t_off = bench_tracepoint(n);
	t_rb = bench_ring_buffer(b, n);
	local_irq_restore(flags);

	ret = trace_event_enable_disable(file, true, false);
	if (ret)
		goto out;
	local_irq_save(flags);
	t_on = bench_tracepoint(n);
	local_irq_restore(flags);
	trace_event_enable_disable(file, false, false);

	off = per_call_x10(t_off, base, n);
	on = per_call_x10(t_on, base, n);
	rb = per_call_x10(t_rb, base, n);
	snprintf(out, size,
		 "bench: calls %lu tp_off %lu.%lu ns tp_on %lu.%lu ns rb %lu.%lu ns rb_events_per_sec %lu\n",
		 n, off / 10, off % 10, on / 10, on % 10, rb / 10, rb % 10,
		 rb ? (unsigned long)(10 * NSEC_PER_SEC / rb) : 0);
out:
	ring_buffer_free(b);
	return ret;
}
