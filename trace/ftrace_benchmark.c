/*
 * The function tracer's costs, from /sys/kernel/debug/trace_selftest
 * ("ftrace N"), measured like trace/trace_benchmark.c's: N calls of a
 * traced function that does nothing (ftrace_bench_target), interrupts
 * off, less the bare loop, divided by N; under QEMU's -icount shift=0 one
 * guest nanosecond is one instruction (bench/function_guest.sh).
 *
 *   off      the site's NOP
 *   on       the function tracer's whole path: trampoline, dispatch,
 *            callback, the committed ftrace:function record in the top
 *            level's buffer (a private ops with a one-site filter)
 *   graph    the function_graph tracer's, entry and exit: the same, with
 *            the return hooked, return_to_handler, and the funcgraph_entry
 *            and funcgraph_exit records
 *   patch    turning every site on (every site calling a callback that
 *            does nothing) and off again: the int3 protocol over all
 *
 * -EBUSY while any other ops is registered (a tracer running). Kernel only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <asm/irqflags.h>
#include <trace/trace.h>
#include <trace/ftrace.h>
#include <trace/ftrace_set.h>
#include <trace/trace_functions.h>
#include <trace/trace_functions_graph.h>

#define FTRACE_BENCH_FMT \
	"ftrace: calls %lu off %lu.%lu ns on %lu.%lu ns graph %lu.%lu ns sites %u patch_on %lu us " \
	"patch_off %lu us\n"

static noinline u64 bench_loop(unsigned long n, bool call)
{
	unsigned long flags;
	u64 t0, t;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (unsigned long i = 0; i < n; i++) {
		if (call)
			ftrace_bench_target();
		barrier();
	}
	t = ktime_get_ns() - t0;
	local_irq_restore(flags);
	return t;
}

static void bench_nothing(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			  struct ftrace_regs *fregs)
{
}

/* Nanoseconds per call, in tenths, above the bare loop's. */
static unsigned long per_call_x10(u64 ns, u64 base, unsigned long n)
{
	return ns > base ? (unsigned long)((ns - base) * 10 / n) : 0;
}

int ftrace_benchmark(unsigned long n, char *out, size_t size)
{
	/* func-no-repeats, if on, counts into the top level's runs (it runs no tracer now). */
	struct trace_ftrace bench = { .tr = &global_trace, .repeats = global_trace.ftrace ? global_trace.ftrace->repeats : NULL };
	int target = ftrace_site_index((unsigned long)ftrace_bench_target);
	u64 base, off, on, graph, t0, patch_on = 0, patch_off = 0;
	int ret;

	if (target < 0)
		return -ENODEV;
	ret = ftrace_ops_init(&bench.ops);
	if (ret)
		return ret;
	bench.ops.private = &bench;
	ftrace_lock();
	for (unsigned int i = 0; i < ftrace_nr_sites; i++)
		if (ftrace_sites[i].refs) {
			ret = -EBUSY;
			goto out;
		}
	base = bench_loop(n, false);
	off = bench_loop(n, true);
	bench.ops.func = function_trace_call;
	ftrace_set_assign(&bench.ops.filter, (unsigned int)target, true);
	ret = register_ftrace_function(&bench.ops);
	if (ret)
		goto out;
	on = bench_loop(n, true);
	unregister_ftrace_function(&bench.ops);
	ret = fgraph_start(&global_trace, &bench.ops);
	if (ret)
		goto out;
	graph = bench_loop(n, true);
	fgraph_stop(&bench.ops);

	/* Every site on, then off: the filter emptied means all. */
	bench.ops.func = bench_nothing;
	ftrace_set_clear(&bench.ops.filter, ftrace_nr_sites);
	t0 = ktime_get_ns();
	ret = register_ftrace_function(&bench.ops);
	patch_on = ktime_get_ns() - t0;
	if (!ret) {
		ftrace_set_assign(&bench.ops.filter, (unsigned int)target, true);
		t0 = ktime_get_ns();
		ret = ftrace_ops_update();
		patch_off = ktime_get_ns() - t0;
		unregister_ftrace_function(&bench.ops);
	}
	snprintf(out, size, FTRACE_BENCH_FMT, n, per_call_x10(off, base, n) / 10,
		 per_call_x10(off, base, n) % 10, per_call_x10(on, base, n) / 10,
		 per_call_x10(on, base, n) % 10, per_call_x10(graph, base, n) / 10,
		 per_call_x10(graph, base, n) % 10, ftrace_nr_sites, (unsigned long)(patch_on / 1000),
		 (unsigned long)(patch_off / 1000));
out:
	ftrace_unlock();
	ftrace_ops_free(&bench.ops);
	return ret;
}
