/*
 * The hist engine beyond single triggers: `if <filter>`, name= histograms
 * shared across events, onmatch() params that live on the matching event
 * (the synthetic_<field> histogram), Linux's synthetic record layout, and
 * memory returning to its start after many create/remove cycles.
 */
/* uses: trace/tracing_map.c trace/hist_parse.c trace/hist_field.c trace/trace_events_hist.c trace/hist_actions.c trace/hist_output.c trace/trace_synth.c trace/trace_synth_output.c trace/trace_output.c trace/hist_enable.c trace/trace_filter.c trace/trace_events.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <kernel/errno.h>
#include <trace/trace_output.h>
#include "hist_fixture.h"

/* ASan's allocator statistics (tests always run under ASan). */
size_t __sanitizer_get_current_allocated_bytes(void);

TestSuite(hist_engine, .init = fixture_setup, .fini = fixture_teardown);

static char out[32768];

static void fire(struct hist_event *ev, const void *rec, unsigned int size, u64 ts)
{
	struct hist_event_ctx ctx = { .rec = rec, .rec_size = size, .ts = ts, .cpu = 0,
				      .pid = 7, .comm = "test" };
	struct hist_trigger_data *hd;

	list_for_each_entry(hd, &ev->triggers, list)
		hist_trigger_event(hd, &ctx);
}

static void waking(s32 pid, s32 prio, u64 ts)
{
	struct waking_rec r = { .pid = pid, .prio = prio, .target_cpu = 1 };

	r.ent.pid = pid;
	strcpy(r.comm, "task");
	fire(&ev_waking, &r, sizeof(r), ts);
}

static void switch_to(s32 next_pid, u64 ts)
{
	struct switch_rec r = { .prev_pid = 1, .prev_prio = 120, .next_pid = next_pid,
				.next_prio = 100 };

	strcpy(r.prev_comm, "prev");
	strcpy(r.next_comm, "next");
	fire(&ev_switch, &r, sizeof(r), ts);
}

static void kmalloc_by(s32 pid, u64 req)
{
	struct kmalloc_rec r = { .call_site = 0x1000, .bytes_req = req, .bytes_alloc = req };

	r.ent.pid = pid;
	fire(&ev_kmalloc, &r, sizeof(r), 0);
}

/* The synthetic records the actions generate, as the tracing core would get them. */
static unsigned char emitted[8][512];
static unsigned int n_emitted;

static void capture(struct hist_instance *i, struct hist_event *ev, void *rec,
		    unsigned int size)
{
	if (n_emitted < ARRAY_SIZE(emitted))
		memcpy(emitted[n_emitted++], rec, min(size, (unsigned int)sizeof(emitted[0])));
}

static u64 rec_u64(const unsigned char *rec, unsigned int off)
{
	u64 v;

	memcpy(&v, rec + off, 8);
	return v;
}

/* --- if <filter> ------------------------------------------------------------------------- */

Test(hist_engine, filter_decides_what_is_counted)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid if prio < 100 && comm == \"task\""), 0,
		     "%s", inst.last_error.msg);
	waking(1, 50, 0);
	waking(1, 150, 0);
	waking(2, 99, 0);
	hist_show(&inst, &ev_waking, out, sizeof(out));
	cr_assert(strstr(out, "# trigger info: hist:keys=pid:vals=hitcount:sort=hitcount:size=2048"
			 " if prio < 100 && comm == \"task\" [active]\n"), "%s", out);
	cr_assert(strstr(out, "{ pid:          1 } hitcount:          1\n"), "%s", out);
	cr_assert(strstr(out, "    Hits: 2\n    Entries: 2\n"), "%s", out);
}

Test(hist_engine, filter_must_match_for_removal)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid if prio < 100"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "!keys=pid if prio < 101"), 0);
	cr_assert_eq(n_triggers(&ev_waking), 1);
	cr_assert_eq(hist_cmd(&ev_waking, "!keys=pid if prio < 100"), 0);
	cr_assert_eq(n_triggers(&ev_waking), 0);
}

Test(hist_engine, bad_filter_is_a_filter_error)
{
	char log[512];

	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid if nosuch == 1"), -EINVAL);
	cr_assert_eq(n_triggers(&ev_waking), 0);
	cr_assert_str_eq(inst.last_error.loc, "event filter parse error");
	cr_assert_str_eq(inst.last_error.cmd, "nosuch == 1");
	cr_assert_str_eq(inst.last_error.msg, "Field not found");
	hist_error_format(&inst.last_error, log, sizeof(log));
	cr_assert(strstr(log, "\n  Command: nosuch == 1\n"), "%s", log);
}

Test(hist_engine, constant_divisors_compute_as_linux_does)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=prio/3,pid/4,target_cpu/prio"), 0, "%s", inst.last_error.msg);
	waking(8, 10, 0);	/* prio 10, pid 8, target_cpu 1 */
	hist_show(&inst, &ev_waking, out, sizeof(out));
	/* 10/3 by multiply-and-shift is 4; 8/4 shifts; a variable divisor divides */
	cr_assert(strstr(out, "{ prio/3:          4, pid/4:          2, target_cpu/prio:          0 }"),
		  "%s", out);
}

Test(hist_engine, truncating_keeps_all_if_one_variable_is_referenced)
{
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=prev_pid:x=sched.sched_switch.$lat"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=prev_prio"), 0);
	/* Linux's hist_unreg_all: a referenced variable on the event keeps every trigger */
	hist_unreg_all(&inst, &ev_switch);
	cr_assert_eq(n_triggers(&ev_switch), 3);
	cr_assert_eq(hist_cmd(&ev_switch, "!keys=prev_pid:x=sched.sched_switch.$lat"), 0);
	hist_unreg_all(&inst, &ev_switch);
	cr_assert_eq(n_triggers(&ev_switch), 0);
}

Test(hist_engine, trailing_char_array_keys_read_to_the_record_end)
{
	unsigned char rec[64] __aligned(8) = { 0 };

	cr_assert_eq(hist_cmd(&ev_print, "keys=buf"), 0, "%s", inst.last_error.msg);
	strcpy((char *)rec + 16, "hello marker\n");
	fire(&ev_print, rec, 16 + 14, 0);
	fire(&ev_print, rec, 16 + 14, 0);
	hist_show(&inst, &ev_print, out, sizeof(out));
	cr_assert(strstr(out, "{ buf: hello marker\n"), "%s", out);
	cr_assert(strstr(out, "} hitcount:          2\n"), "%s", out);
}

/* --- name= ---------------------------------------------------------------------------------- */

Test(hist_engine, named_histogram_is_shared_by_two_events)
{
	struct hist_trigger_data *a, *b;

	cr_assert_eq(hist_cmd(&ev_waking, "keys=common_pid:name=tasks"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:name=tasks"), 0,
		     "%s", inst.last_error.msg);
	a = first_trigger(&ev_waking);
	b = first_trigger(&ev_kmalloc);
	cr_assert_eq(a->map, b->map);
	waking(5, 1, 0);
	kmalloc_by(5, 32);
	kmalloc_by(6, 32);
	hist_show(&inst, &ev_kmalloc, out, sizeof(out));
	cr_assert(strstr(out, "# trigger info: hist:name=tasks:keys=common_pid:vals=hitcount:"
			 "sort=hitcount:size=2048 [active]\n"), "%s", out);
	cr_assert(strstr(out, "{ common_pid:          6 } hitcount:          1\n"
			 "{ common_pid:          5 } hitcount:          2\n"), "%s", out);
	cr_assert(strstr(out, "    Hits: 3\n    Entries: 2\n"), "%s", out);
	hist_show(&inst, &ev_waking, out, sizeof(out));
	cr_assert(strstr(out, "    Hits: 3\n    Entries: 2\n"), "%s", out);

	/* pausing one pauses the histogram everywhere */
	cr_assert_eq(hist_cmd(&ev_waking, "keys=common_pid:name=tasks:pause"), 0);
	cr_assert(b->paused);
	kmalloc_by(5, 32);
	cr_assert_eq(tracing_map_hits(b->map), 3);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:name=tasks:cont"), 0);
	cr_assert_not(a->paused);

	/* the first user goes; the table stays with the second */
	cr_assert_eq(hist_cmd(&ev_waking, "!keys=common_pid:name=tasks"), 0);
	kmalloc_by(5, 32);
	cr_assert_eq(tracing_map_hits(b->map), 4);
	/* a new trigger of that name still finds it */
	cr_assert_eq(hist_cmd(&ev_waking, "keys=common_pid:name=tasks"), 0);
	cr_assert_eq(first_trigger(&ev_waking)->map, b->map);
}

Test(hist_engine, named_histograms_must_be_compatible)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=common_pid:name=tasks"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:vals=bytes_req:name=tasks"), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg,
			 "Named hist trigger doesn't match existing named trigger (includes variables)");
	cr_assert_eq(inst.last_error.pos, strlen("hist:keys=common_pid:vals=bytes_req:name="));
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:x=bytes_req:name=tasks"), -EINVAL);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid.hex:name=tasks"), -EINVAL);
	cr_assert_eq(n_triggers(&ev_kmalloc), 0);
	/* another name is another histogram */
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:vals=bytes_req:name=sizes"), 0);
	cr_assert_neq(first_trigger(&ev_kmalloc)->map, first_trigger(&ev_waking)->map);
}

/* --- onmatch() params from the matching event ------------------------------------------------- */

#define SWITCH_PRIO_CMD "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:" \
	"onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio)"

Test(hist_engine, onmatch_field_of_matching_event_gets_its_own_histogram)
{
	struct hist_trigger_data *var_hd;
	char buf[512];

	cr_assert_eq(synth_events_write(&inst, "wakeup_latency u64 lat; pid_t pid; int prio"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, SWITCH_PRIO_CMD), 0, "%s at %u", inst.last_error.msg,
		     inst.last_error.pos);
	cr_assert_eq(n_triggers(&ev_waking), 2);
	var_hd = list_entry(ev_waking.triggers.prev, struct hist_trigger_data, list);
	hist_trigger_print(buf, sizeof(buf), var_hd, false);
	cr_assert_str_eq(buf, "hist:keys=pid:vals=hitcount:synthetic_prio=prio:sort=hitcount:"
			 "size=2048 [active]");
	hist_debug_show(&ev_waking, out, sizeof(out));
	cr_assert(strstr(out, "      flags:\n        HIST_FIELD_FL_VAR\n"
			 "      ftrace_event_field name: prio\n      var.name: synthetic_prio\n"
			 "      var.idx (into tracing_map_elt.vars[]): 0\n      type: int\n"
			 "      size: 4\n      is_signed: 1\n"), "%s", out);
	hist_debug_show(&ev_switch, out, sizeof(out));
	cr_assert(strstr(out, "      name: synthetic_prio\n      var.idx (into tracing_map_elt.vars[]): 0\n"
			 ), "%s", out);

	inst.synth_emit = capture;
	n_emitted = 0;
	waking(42, 33, 1000000);
	switch_to(42, 1500000);
	cr_assert_eq(n_emitted, 1);
	cr_assert_eq(rec_u64(emitted[0], 8), 500);	/* lat */
	cr_assert_eq((s32)rec_u64(emitted[0], 16), 42);	/* pid */
	cr_assert_eq((s32)rec_u64(emitted[0], 24), 33);	/* prio */
	/* read-once: a second switch without a wakeup generates nothing */
	switch_to(42, 1600000);
	cr_assert_eq(n_emitted, 1);

	/* removing the trigger removes the histogram it made */
	cr_assert_eq(hist_cmd(&ev_switch, "!" SWITCH_PRIO_CMD), 0);
	cr_assert_eq(n_triggers(&ev_switch), 0);
	cr_assert_eq(n_triggers(&ev_waking), 1);
}

Test(hist_engine, onmatch_field_errors_leave_nothing_behind)
{
	cr_assert_eq(synth_events_write(&inst, "wakeup_latency u64 lat; pid_t pid; int prio"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(sched.sched_waking).wakeup_latency($lat,next_pid,bogus)"), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Couldn't create histogram for field");
	cr_assert_eq(inst.last_error.pos, strstr(inst.last_error.cmd, "bogus") - inst.last_error.cmd);
	cr_assert_eq(n_triggers(&ev_waking), 1);
	/* the matching event has no histogram keyed like this one */
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(kmem.kmalloc).wakeup_latency($lat,next_pid,node)"), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Matching event histogram not found");
	cr_assert_eq(n_triggers(&ev_kmalloc), 0);
	/* a qualified param must name the onmatch() event */
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(sched.sched_waking).wakeup_latency($lat,next_pid,kmem.kmalloc.node)"),
		     -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Couldn't create field variable");
	/* the qualified spelling of the matching event's field works */
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(sched.sched_waking).wakeup_latency($lat,next_pid,sched.sched_waking.prio)"),
		     0, "%s", inst.last_error.msg);
	cr_assert_eq(n_triggers(&ev_waking), 2);
	cr_assert_eq(n_triggers(&ev_switch), 1);
}

/* --- synthetic records --------------------------------------------------------------------------- */

Test(hist_engine, synthetic_fields_sit_in_u64_slots)
{
	struct synth_event *se;
	char fmt[16];

	cr_assert_eq(synth_events_write(&inst, "lat_ev u64 lat; pid_t pid; char comm[16]; "
					"char name[]; int prio"), 0);
	se = synth_event_find(&inst, "lat_ev");
	cr_assert_not_null(se);
	cr_assert_eq(se->fields[0].offset, 8);
	cr_assert_eq(se->fields[1].offset, 16);
	cr_assert_eq(se->fields[1].size, 4);
	cr_assert_eq(se->fields[2].offset, 24);
	cr_assert_eq(se->fields[2].size, 16);
	cr_assert_eq(se->fields[3].offset, 24 + STR_VAR_LEN_MAX);
	cr_assert_eq(se->fields[3].size, 8);
	cr_assert_eq(se->fields[4].offset, 32 + STR_VAR_LEN_MAX);
	cr_assert_eq(se->fixed_size, 40 + STR_VAR_LEN_MAX);
	/* the filter engine sees them through the event call */
	snprintf(fmt, sizeof(fmt), "%s", trace_find_event_field(&se->call, "prio")->type);
	cr_assert_str_eq(fmt, "int");
	cr_assert_eq(hist_cmd(&se->event, "keys=pid if prio > 10"), 0, "%s", inst.last_error.msg);
}

/* --- memory ---------------------------------------------------------------------------------------- */

#define LEAK_WAKING "keys=pid:ts0=common_timestamp.usecs:size=128"
#define LEAK_SWITCH "keys=next_pid:lat=common_timestamp.usecs-$ts0:size=128:" \
	"onmatch(sched.sched_waking).lat_ev($lat,next_pid,next_comm,prio):" \
	"onmax($lat).save(prev_pid,prev_comm) if next_prio < 200"

Test(hist_engine, ten_thousand_create_remove_cycles_return_all_memory)
{
	size_t before, after;

	cr_assert_eq(synth_events_write(&inst, "lat_ev u64 lat; pid_t pid; char comm[16]; int prio"), 0);
	/* one cycle first, so one-time allocations are not counted */
	for (int i = 0; i < 10001; i++) {
		if (i == 1)
			before = __sanitizer_get_current_allocated_bytes();
		cr_assert_eq(hist_cmd(&ev_waking, LEAK_WAKING), 0);
		cr_assert_eq(hist_cmd(&ev_switch, LEAK_SWITCH), 0, "%s", inst.last_error.msg);
		cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:name=shared:size=128"), 0);
		cr_assert_eq(hist_cmd(&ev_waking, "keys=common_pid:name=shared:size=128"), 0);
		waking(3, 1, 1000);
		switch_to(3, 2000);
		cr_assert_eq(hist_cmd(&ev_kmalloc, "!keys=common_pid:name=shared"), 0);
		cr_assert_eq(hist_cmd(&ev_switch, "!" LEAK_SWITCH), 0);
		cr_assert_eq(n_triggers(&ev_waking), 2);
		hist_unreg_all(&inst, &ev_waking);
		cr_assert_eq(n_triggers(&ev_waking), 0);
	}
	after = __sanitizer_get_current_allocated_bytes();
	cr_assert_eq(after, before, "%zu bytes before, %zu after", before, after);
}

/* --- dynamic_events ----------------------------------------------------------------------------- */

Test(hist_engine, dynamic_events_s_lines_define_and_remove)
{
	cr_assert_eq(synth_dynevents_write(&inst, "s:synthetic/lat_ev u64 lat; pid_t pid"), 0);
	cr_assert_eq(synth_dynevents_write(&inst, "s:other char[] name; long[] stack"), 0);
	synth_events_show(&inst, true, out, sizeof(out));
	cr_assert_str_eq(out, "s:synthetic/lat_ev\tu64 lat; pid_t pid\n"
			 "s:synthetic/other\tchar[] name; long[] stack\n");
	synth_events_show(&inst, false, out, sizeof(out));
	cr_assert(strstr(out, "lat_ev\tu64 lat; pid_t pid\nother\tchar[] name; long[] stack\n"),
		  "%s", out);
	/* the same event again, through either file */
	cr_assert_eq(synth_dynevents_write(&inst, "s:lat_ev u64 x"), -EEXIST);
	cr_assert_str_eq(inst.last_error.msg, "Event already exists");
	cr_assert_eq(inst.last_error.pos, 2);
	/* too short: the dynamic_events form of the message */
	cr_assert_eq(synth_dynevents_write(&inst, "s:synthetic/bad u64"), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg,
			 "Command must be of the form: s or -:[synthetic/]<name> field[;field] ...");
	cr_assert_str_eq(inst.last_error.loc, "synthetic_events");
	cr_assert_str_eq(inst.last_error.cmd, "s:synthetic/bad u64");
	/* not ours: other kinds of dynamic event, with no error_log entry */
	cr_assert_eq(synth_dynevents_write(&inst, "p:myprobe do_sys_open"), -EINVAL);
	cr_assert_null(inst.last_error.msg);
	/* removal */
	cr_assert_eq(synth_dynevents_write(&inst, "-:synthetic/lat_ev"), 0);
	cr_assert_eq(synth_dynevents_write(&inst, "!s:other"), 0);
	cr_assert_eq(synth_dynevents_write(&inst, "-:other"), -ENOENT);
	synth_events_show(&inst, true, out, sizeof(out));
	cr_assert_str_eq(out, "");
}

/*
 * Linux's synthetic_events syntax-error selftest: each command with a ^
 * where the caret must point, and the error it must report.
 */
struct synth_error_case {
	char cmd[48];
	char msg[80];
	bool dynevents;
};

static struct synth_error_case synth_error_cases[] = {
	{ "myevent ^chr arg", "Invalid type", false },
	{ "myevent ^unsigned arg", "Incomplete type", false },
	{ "myevent char ^str]; int v", "Illegal name", false },
	{ "^mye-vent char str[]", "Illegal name", false },
	{ "myevent char ^st-r[]", "Illegal name", false },
	{ "myevent char str;^[]", "Invalid field", false },
	{ "myevent char str; ^int", "Invalid field", false },
	{ "myevent char ^str[; int v", "Invalid array specification", false },
	{ "myevent char ^str[kdjdk]", "Invalid array specification", false },
	{ "myevent char ^str[257]", "Invalid array specification", false },
	{ "^mye;vent char str[]", "Command must be of the form: <name> field[;field] ...", false },
	{ "^myevent ; char str[]", "Command must be of the form: <name> field[;field] ...", false },
	{ "^myevent; char str[]", "Command must be of the form: <name> field[;field] ...", false },
	{ "^myevent ;char str[]", "Command must be of the form: <name> field[;field] ...", false },
	{ "^; char str[]", "Command must be of the form: <name> field[;field] ...", false },
	{ "^;myevent char str[]", "Command must be of the form: <name> field[;field] ...", false },
	{ "^myevent", "Command must be of the form: <name> field[;field] ...", false },
	{ "^s:junk/myevent char str[",
	  "Command must be of the form: s or -:[synthetic/]<name> field[;field] ...", true },
};

ParameterizedTestParameters(hist_engine, synthetic_syntax_errors)
{
	return cr_make_param_array(struct synth_error_case, synth_error_cases,
				   ARRAY_SIZE(synth_error_cases));
}

ParameterizedTest(struct synth_error_case *c, hist_engine, synthetic_syntax_errors)
{
	char cmd[48];
	const char *caret = strchr(c->cmd, '^');
	size_t pos = (size_t)(caret - c->cmd);
	int ret;

	memcpy(cmd, c->cmd, pos);
	strcpy(cmd + pos, caret + 1);
	ret = c->dynevents ? synth_dynevents_write(&inst, cmd) : synth_events_write(&inst, cmd);
	cr_assert_eq(ret, -EINVAL, "%s", cmd);
	cr_assert_str_eq(inst.last_error.loc, "synthetic_events");
	cr_assert_str_eq(inst.last_error.cmd, cmd);
	cr_assert_str_eq(inst.last_error.msg, c->msg, "%s", cmd);
	cr_assert_eq(inst.last_error.pos, pos, "%s: caret at %u", cmd, inst.last_error.pos);
	synth_events_show(&inst, false, out, sizeof(out));
	cr_assert_str_eq(out, "");
}

/* --- enable_hist / disable_hist --------------------------------------------------------------------- */

Test(hist_engine, enable_hist_targets_every_hist_of_an_event)
{
	struct hist_event *target;
	const char *rest;
	char buf[64];

	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=call_site"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=bytes_req:pause"), 0);
	cr_assert_eq(hist_enable_parse_target(&inst, ":kmem:kmalloc:5 if pid > 1", &target, &rest), 0);
	cr_assert_eq(target, &ev_kmalloc);
	cr_assert_str_eq(rest, ":5 if pid > 1");
	hist_enable_print(buf, sizeof(buf), false, target);
	cr_assert_str_eq(buf, "disable_hist:kmem:kmalloc");
	hist_enable_fire(target, false);
	cr_assert(first_trigger(&ev_kmalloc)->paused);
	hist_enable_fire(target, true);
	cr_assert_not(first_trigger(&ev_kmalloc)->paused);
	cr_assert_not(list_entry(ev_kmalloc.triggers.prev, struct hist_trigger_data, list)->paused);

	cr_assert_eq(hist_enable_parse_target(&inst, ":kmem:nosuch", &target, &rest), -EINVAL);
	cr_assert_eq(hist_enable_parse_target(&inst, ":kmem", &target, &rest), -EINVAL);
	cr_assert_eq(hist_enable_parse_target(&inst, "", &target, &rest), -EINVAL);
	cr_assert_eq(hist_enable_parse_target(&inst, "::kmalloc", &target, &rest), -EINVAL);
	cr_assert_eq(hist_enable_parse_target(&inst, ":kmem:kmalloc", &target, &rest), 0);
	cr_assert_str_eq(rest, "");
}

/* --- the tracing core's hooks ---------------------------------------------------------------------- */

static int n_live;
static int register_result;

static int count_register(struct hist_instance *i, struct hist_trigger_data *hd)
{
	if (!register_result)
		n_live++;
	return register_result;
}

static void count_unregister(struct hist_instance *i, struct hist_trigger_data *hd)
{
	n_live--;
}

static const char *clock_seen;

static int check_clock(struct hist_instance *i, const char *clock)
{
	clock_seen = clock;
	return strcmp(clock, "global") && strcmp(clock, "local") ? -EINVAL : 0;
}

Test(hist_engine, every_live_trigger_is_registered_with_the_core_once)
{
	inst.trigger_register = count_register;
	inst.trigger_unregister = count_unregister;
	inst.set_clock = check_clock;
	n_live = 0;
	cr_assert_eq(synth_events_write(&inst, "wakeup_latency u64 lat; pid_t pid; int prio"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_str_eq(clock_seen, "global");
	cr_assert_eq(hist_cmd(&ev_switch, SWITCH_PRIO_CMD), 0);
	cr_assert_eq(n_live, 3);	/* with the synthetic_prio histogram */
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:pause"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:pause"), 0);	/* an existing one: paused */
	cr_assert_eq(n_live, 4);
	cr_assert_eq(hist_cmd(&ev_switch, "!" SWITCH_PRIO_CMD), 0);
	cr_assert_eq(n_live, 2);

	/* the core refusing a trigger refuses the command, leaving nothing */
	register_result = -ENOMEM;
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:name=x"), -ENOMEM);
	cr_assert_eq(n_triggers(&ev_kmalloc), 0);
	cr_assert(list_empty(&inst.named));
	register_result = 0;

	/* a clock the core does not have */
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=call_site:t=common_timestamp:clock=perf"), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Couldn't set trace_clock");
	cr_assert_eq(inst.last_error.pos, strlen("hist:keys=call_site:t=common_timestamp:clock="));
	cr_assert_eq(n_live, 2);
	fixture_teardown();
	cr_assert_eq(n_live, 0);
}

/* --- how synthetic events print ------------------------------------------------------------------------ */

Test(hist_engine, synthetic_format_and_trace_line_are_linux_s)
{
	static struct trace_seq s, tmp;
	unsigned char rec[512] __aligned(8) = { 0 };
	struct trace_entry *ent = (struct trace_entry *)rec;
	struct synth_event *se;
	s32 pid = -3;
	u64 lat = 1234;
	u32 gfp = 0xcc0, loc;

	cr_assert_eq(synth_events_write(&inst, "lat_ev u64 lat; pid_t pid; char comm[16]; "
					"char name[]; gfp_t gfp"), 0);
	se = synth_event_find(&inst, "lat_ev");
	cr_assert_str_eq(se->call.print_fmt, "\"lat=%llu, pid=%d, comm=%s, name=%s, gfp=%x\", "
			 "REC->lat, REC->pid, REC->comm, __get_str(name), REC->gfp");
	cr_assert_eq(trace_add_event_call(&se->call), 0);
	ent->type = se->call.id;
	memcpy(rec + se->fields[0].offset, &lat, 8);
	memcpy(rec + se->fields[1].offset, &pid, 4);
	strcpy((char *)rec + se->fields[2].offset, "bash");
	loc = 6u << 16 | se->fixed_size;
	memcpy(rec + se->fields[3].offset, &loc, 4);
	strcpy((char *)rec + se->fixed_size, "hello");
	memcpy(rec + se->fields[4].offset, &gfp, 4);
	trace_seq_init(&s);
	trace_seq_init(&tmp);
	trace_print_event(&s, &tmp, ent, se->fixed_size + 8);
	cr_assert_str_eq(s.buffer, "lat_ev: lat=1234 pid=-3 comm=bash name=hello gfp=cc0 (GFP_KERNEL)");
	cr_assert_eq(trace_remove_event_call(&se->call), 0);
}

/* --- trace instances ---------------------------------------------------------------------------------- */

Test(hist_engine, an_instance_finds_synthetic_events_at_home_and_goes_away_whole)
{
	struct hist_instance sub;
	struct hist_event sub_waking, sub_switch, sub_lat;
	struct synth_event *se;

	cr_assert_eq(synth_events_write(&inst, "lat_ev u64 lat; pid_t pid"), 0);
	se = synth_event_find(&inst, "lat_ev");
	hist_instance_init(&sub);
	sub.synth_home = &inst;
	hist_event_init(&sub_waking, &call_waking);
	hist_event_init(&sub_switch, &call_switch);
	hist_event_init(&sub_lat, &se->call);	/* the instance's view of the synthetic event */
	list_add_tail(&sub_waking.list, &sub.events);
	list_add_tail(&sub_switch.list, &sub.events);
	list_add_tail(&sub_lat.list, &sub.events);

	cr_assert_eq(event_hist_trigger_parse(&sub, &sub_waking, "keys=pid:ts0=common_timestamp", false), 0);
	cr_assert_eq(event_hist_trigger_parse(&sub, &sub_switch, "keys=next_pid:l=common_timestamp-$ts0:"
					      "onmatch(sched.sched_waking).lat_ev($l,next_pid)", false), 0,
		     "%s", sub.last_error.msg);
	cr_assert_eq(event_hist_trigger_parse(&sub, &sub_lat, "keys=pid", false), 0);
	/* the instance's own view is not mistaken for the synthetic event itself */
	cr_assert_eq(synth_event_find(&sub, "lat_ev"), se);
	cr_assert_eq(se->ref, 1);
	/* the top level's variables are not the instance's */
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:l=common_timestamp-$ts0"), -EINVAL);

	hist_instance_destroy(&sub);
	cr_assert(list_empty(&sub_waking.triggers) && list_empty(&sub_switch.triggers) &&
		  list_empty(&sub_lat.triggers));
	cr_assert_eq(se->ref, 0);
	cr_assert_eq(synth_events_write(&inst, "!lat_ev"), 0);
}
