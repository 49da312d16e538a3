/*
 * Cost of a hist trigger per event on the host: the whole update (filter,
 * key build, insert, sums, variables, actions) for a one-key hitcount
 * histogram, a two-key histogram with two sums, and the wakeup-latency
 * pair (sched_waking saves ts0, sched_switch computes the latency and
 * fires a synthetic event into a third histogram), each minus the same
 * loop over an event with no trigger.
 *
 *   build/bench/hist [events]     ns per event, best of 5 runs
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='bench_*' \
 *       build/bench/hist 100000   then callgrind_annotate --inclusive=yes:
 *                                 each bench_* function's Ir / events
 */
/* uses: trace/tracing_map.c trace/hist_parse.c trace/hist_field.c trace/trace_events_hist.c trace/hist_actions.c trace/hist_output.c trace/trace_synth.c trace/trace_synth_output.c trace/trace_output.c trace/hist_enable.c trace/trace_filter.c trace/trace_events.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../tests/unit/hist_fixture.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_hist(struct hist_event *ev, const struct hist_event_ctx *ctx)
{
	struct hist_trigger_data *hd;

	list_for_each_entry(hd, &ev->triggers, list)
		hist_trigger_event(hd, ctx);
}

static struct kmalloc_rec k = { .call_site = 0xffffffff81234567UL, .bytes_req = 100, .bytes_alloc = 128 };
static struct waking_rec w = { .pid = 1, .prio = 120 };
static struct switch_rec s = { .next_pid = 1 };
static struct hist_event_ctx kctx = { .rec = &k, .rec_size = sizeof(k), .comm = "bench" };
static struct hist_event_ctx wctx = { .rec = &w, .rec_size = sizeof(w), .comm = "bench" };
static struct hist_event_ctx sctx = { .rec = &s, .rec_size = sizeof(s), .comm = "bench" };

/* kmalloc events over 64 call sites: the loop every shape below runs. */
static noinline void loop_kmalloc(int n)
{
	for (int i = 0; i < n; i++) {
		k.ent.pid = i & 7;
		k.call_site = 0xffffffff81000000UL + (unsigned int)(i & 63) * 16;
		run_hist(&ev_kmalloc, &kctx);
	}
}

/* The wakeup/switch pair: n events, n / 2 of each. */
static noinline void loop_pair(int n)
{
	for (int i = 0; i < n / 2; i++) {
		w.pid = s.next_pid = i & 255;
		wctx.ts = (u64)i * 10000;
		sctx.ts = wctx.ts + 3000 + (u64)(i & 7) * 1000;
		run_hist(&ev_waking, &wctx);
		run_hist(&ev_switch, &sctx);
	}
}

/* Distinct functions per shape (no tail calls), so callgrind reports each on its own. */
static noinline void bench_none(int n) { loop_kmalloc(n); barrier(); }
static noinline void bench_one_key(int n) { loop_kmalloc(n); barrier(); }
static noinline void bench_two_keys(int n) { loop_kmalloc(n); barrier(); }
static noinline void bench_pair_none(int n) { loop_pair(n); barrier(); }
static noinline void bench_wakeup_pair(int n) { loop_pair(n); barrier(); }

/* Best of five runs, ns per event. */
static double measure(void (*fn)(int), int n)
{
	double best = 1e9;

	for (int r = 0; r < 5; r++) {
		double t = now();

		fn(n);
		t = (now() - t) * 1e9 / n;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000000;
	double base, pair_base;

	if (n < 2)
		return 1;
	fixture_setup();
	base = measure(bench_none, n);
	pair_base = measure(bench_pair_none, n);
	printf("no trigger:                   %6.1f ns/event\n", base);

	hist_cmd(&ev_kmalloc, "keys=call_site");
	printf("one key, hitcount:            %6.1f ns/event\n", measure(bench_one_key, n) - base);
	hist_unreg_all(&inst, &ev_kmalloc);

	hist_cmd(&ev_kmalloc, "keys=common_pid,call_site:vals=bytes_req,bytes_alloc");
	printf("two keys, two sums:           %6.1f ns/event\n", measure(bench_two_keys, n) - base);
	hist_unreg_all(&inst, &ev_kmalloc);

	synth_events_write(&inst, "wakeup_latency u64 lat; pid_t pid");
	hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs");
	hist_cmd(&ev_switch, "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:"
		 "onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid)");
	hist_cmd(event_by_name("wakeup_latency"), "keys=lat.log2");
	printf("wakeup-latency pair (+synth): %6.1f ns/event\n",
	       measure(bench_wakeup_pair, n) - pair_base);
	fixture_teardown();
	return 0;
}
