/*
 * The hist engine on synthetic records: counting, keys and values in the
 * exact `hist` line formats, variables across events, onmatch() feeding a
 * synthetic event, onmax().save(), and hist_debug's layout.
 */
/* uses: trace/tracing_map.c trace/hist_parse.c trace/hist_field.c trace/trace_events_hist.c trace/hist_actions.c trace/hist_output.c trace/trace_synth.c trace/trace_synth_output.c trace/trace_output.c trace/hist_enable.c trace/trace_filter.c trace/trace_events.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include "hist_fixture.h"

TestSuite(hist_out, .init = fixture_setup, .fini = fixture_teardown);

static char out[16384];

static void fire(struct hist_event *ev, const void *rec, unsigned int size, u64 ts, const char *comm)
{
	struct hist_event_ctx ctx = { .rec = rec, .rec_size = size, .ts = ts, .cpu = 1,
				      .pid = 7, .comm = comm };
	struct hist_trigger_data *hd;

	list_for_each_entry(hd, &ev->triggers, list)
		hist_trigger_event(hd, &ctx);
}

static void waking(s32 pid, s32 prio, u64 ts)
{
	struct waking_rec r = { .pid = pid, .prio = prio, .target_cpu = 1 };

	strcpy(r.comm, "task");
	fire(&ev_waking, &r, sizeof(r), ts, "waker");
}

static void switch_to(s32 next_pid, const char *next_comm, s32 prev_pid, u64 ts)
{
	struct switch_rec r = { .prev_pid = prev_pid, .prev_prio = 120, .next_pid = next_pid,
				.next_prio = 100 };

	strcpy(r.prev_comm, "prev");
	strcpy(r.next_comm, next_comm);
	fire(&ev_switch, &r, sizeof(r), ts, "prev");
}

static void kmalloc(u64 call_site, u64 req, u64 alloc, s32 pid)
{
	struct kmalloc_rec r = { .call_site = call_site, .bytes_req = req, .bytes_alloc = alloc };

	r.ent.pid = pid;
	fire(&ev_kmalloc, &r, sizeof(r), 0, pid == 1 ? "init" : "bash");
}

Test(hist_out, one_key_counts_sorted_by_hitcount)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid"), 0);
	for (int i = 0; i < 3; i++)
		waking(18249, 1, 0);
	waking(10, 1, 0);
	for (int i = 0; i < 2; i++)
		waking(5257, 1, 0);
	hist_show(&inst, &ev_waking, out, sizeof(out));
	cr_assert_str_eq(out,
		"# event histogram\n"
		"#\n"
		"# trigger info: hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		"#\n"
		"\n"
		"{ pid:         10 } hitcount:          1\n"
		"{ pid:       5257 } hitcount:          2\n"
		"{ pid:      18249 } hitcount:          3\n"
		"\n"
		"Totals:\n"
		"    Hits: 6\n"
		"    Entries: 3\n"
		"    Dropped: 0\n");
}

Test(hist_out, values_modifiers_and_descending_sort)
{
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid.execname:vals=bytes_req,bytes_alloc.hex:"
			      "sort=bytes_req.descending"), 0);
	kmalloc(0xffffffff81000000UL, 100, 128, 1);
	kmalloc(0xffffffff81000000UL, 300, 512, 8710);
	kmalloc(0xffffffff81000000UL, 33, 64, 8710);
	hist_show(&inst, &ev_kmalloc, out, sizeof(out));
	cr_assert(strstr(out,
		"{ common_pid: bash            [      8710] } hitcount:          2  bytes_req:        333  bytes_alloc:        240\n"
		"{ common_pid: init            [         1] } hitcount:          1  bytes_req:        100  bytes_alloc:         80\n"),
		"%s", out);
}

Test(hist_out, log2_buckets_hex_percent_graph)
{
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=bytes_req.log2:sort=bytes_req"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=bytes_req.buckets=10:vals=bytes_alloc.percent,bytes_alloc.graph:sort=bytes_req"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=call_site.hex:vals=bytes_req:nohitcount"), 0);
	kmalloc(0x1234, 3, 300, 1);
	kmalloc(0x1234, 5, 100, 1);
	kmalloc(0x1234, 17, 600, 1);
	hist_show(&inst, &ev_kmalloc, out, sizeof(out));
	cr_assert(strstr(out, "{ bytes_req: ~ 2^2  } hitcount:          1\n"
			      "{ bytes_req: ~ 2^3  } hitcount:          1\n"
			      "{ bytes_req: ~ 2^5  } hitcount:          1\n"), "%s", out);
	cr_assert(strstr(out, "{ bytes_req: ~ 0-9 } hitcount:          2  bytes_alloc (%):  40.00"
			      "  bytes_alloc:        #############\n"
			      "{ bytes_req: ~ 10-19 } hitcount:          1  bytes_alloc (%):  60.00"
			      "  bytes_alloc: ####################\n"), "%s", out);
	cr_assert(strstr(out, "{ call_site: 1234 }  bytes_req:         25\n"), "%s", out);
	/* three histograms, separated by a blank pair */
	cr_assert(strstr(out, "    Dropped: 0\n\n\n# event histogram\n"));
}

Test(hist_out, compound_string_key_and_execname)
{
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_comm,next_pid:vals=prev_prio"), 0);
	switch_to(42, "cyclictest", 1, 0);
	switch_to(42, "cyclictest", 1, 0);
	hist_show(&inst, &ev_switch, out, sizeof(out));
	cr_assert(strstr(out, "{ next_comm: cyclictest                                        , "
			      "next_pid:         42 } hitcount:          2  prev_prio:        240\n"),
		  "%s", out);
}

Test(hist_out, wakeup_latency_pipeline)
{
	cr_assert_eq(synth_events_write(&inst, "wakeup_latency u64 lat; pid_t pid; char comm[16]"), 0);
	synth_events_show(&inst, false, out, sizeof(out));
	cr_assert_str_eq(out, "wakeup_latency\tu64 lat; pid_t pid; char[16] comm\n");
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:"
			      "onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)"), 0);
	cr_assert_eq(hist_cmd(event_by_name("wakeup_latency"), "keys=pid,lat:sort=pid,lat"), 0);

	waking(100, 1, 1000000);		/* ts0 = 1000 us */
	switch_to(100, "cyclictest", 1, 1005000);	/* lat 5 us */
	switch_to(100, "cyclictest", 1, 1009000);	/* ts0 consumed: no new latency */
	waking(200, 1, 2000000);
	switch_to(200, "rt", 1, 2012000);	/* lat 12 */
	switch_to(300, "never_woken", 1, 3000000);	/* no ts0: dropped */

	hist_show(&inst, event_by_name("wakeup_latency"), out, sizeof(out));
	cr_assert(strstr(out, "{ pid:        100, lat:          5 } hitcount:          1\n"
			      "{ pid:        200, lat:         12 } hitcount:          1\n"
			      "\nTotals:\n    Hits: 2\n    Entries: 2\n"), "%s", out);
	hist_show(&inst, &ev_switch, out, sizeof(out));
	cr_assert(strstr(out, "# trigger info: hist:keys=next_pid:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:"
			      "sort=hitcount:size=2048:clock=global:onmatch(sched.sched_waking)."
			      "wakeup_latency($wakeup_lat,next_pid,next_comm) [active]\n"), "%s", out);
	cr_assert(strstr(out, "    Hits: 2\n"), "%s", out);

	/* the synthetic event is in use: not removable until its users go */
	cr_assert_eq(synth_events_write(&inst, "!wakeup_latency"), -EBUSY);
}

Test(hist_out, onmax_save_lines)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:"
			      "onmax($wakeup_lat).save(next_comm,prev_pid)"), 0);
	waking(5, 1, 1000000);
	switch_to(5, "a", 11, 1007000);	/* 7 */
	waking(5, 1, 2000000);
	switch_to(5, "b", 12, 2003000);	/* 3: no new max */
	waking(5, 1, 3000000);
	switch_to(5, "c", 13, 3020000);	/* 20 */
	hist_show(&inst, &ev_switch, out, sizeof(out));
	cr_assert(strstr(out, "{ next_pid:          5 } hitcount:          3\n"
			      "\tmax:         20  next_comm: c                                 prev_pid:         13\n"),
		  "%s", out);
}

Test(hist_out, paused_and_cleared)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid"), 0);
	waking(1, 1, 0);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:pause"), 0);
	waking(1, 1, 0);
	hist_show(&inst, &ev_waking, out, sizeof(out));
	cr_assert(strstr(out, "size=2048 [paused]\n"));
	cr_assert(strstr(out, "hitcount:          1\n"));
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:clear"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:cont"), 0);
	hist_show(&inst, &ev_waking, out, sizeof(out));
	cr_assert(strstr(out, "[active]\n#\n\n\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n"), "%s", out);
}

Test(hist_out, full_map_reports_dropped)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:size=128"), 0);
	for (int pid = 0; pid < 200; pid++)
		waking(pid, 1, 0);
	hist_show(&inst, &ev_waking, out, sizeof(out));
	cr_assert(strstr(out, "Totals:\n    Hits: 128\n    Entries: 128\n    Dropped: 72\n"), "%s", out);
}

Test(hist_out, hist_debug_layout)
{
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid,call_site.sym:values=bytes_req,bytes_alloc,hitcount"), 0);
	hist_debug_show(&ev_kmalloc, out, sizeof(out));
	cr_assert(strstr(out, "# trigger info: hist:keys=common_pid,call_site.sym:vals=hitcount,bytes_req,bytes_alloc:sort=hitcount:size=2048 [active]\n#\n\nhist_data: "));
	cr_assert(strstr(out, "\n\n  n_vals: 3\n  n_keys: 2\n  n_fields: 5\n\n  val fields:\n\n"
			      "    hist_data->fields[0]:\n      flags:\n        VAL: HIST_FIELD_FL_HITCOUNT\n"
			      "      type: u64\n      size: 8\n      is_signed: 0\n\n"
			      "    hist_data->fields[1]:\n      flags:\n        VAL: normal u64 value\n"
			      "      ftrace_event_field name: bytes_req\n      type: size_t\n      size: 8\n      is_signed: 0\n"),
		  "%s", out);
	cr_assert(strstr(out, "\n  key fields:\n\n    hist_data->fields[3]:\n      flags:\n        HIST_FIELD_FL_KEY\n"
			      "      ftrace_event_field name: common_pid\n      type: int\n      size: 8\n      is_signed: 1\n"),
		  "%s", out);
}
