/*
 * Fake events for the hist tests, shaped exactly like Linux 6.18's format
 * files (sched_waking, sched_switch, kmem/kmalloc, raw_syscalls/sys_enter),
 * and an instance holding them. Included by tests/unit/hist_*.c.
 */
#ifndef TESTS_UNIT_HIST_FIXTURE_H
#define TESTS_UNIT_HIST_FIXTURE_H

#include <kernel/string.h>
#include <trace/hist.h>
#include <trace/trace_events_hist.h>
#include <trace/trace_synth.h>

static const struct trace_event_field waking_fields[] = {
	{ .type = "char[16]", .name = "comm", .offset = 8, .size = 16,
	  .filter_type = FILTER_STATIC_STRING },
	{ .type = "pid_t", .name = "pid", .offset = 24, .size = 4, .is_signed = 1 },
	{ .type = "int", .name = "prio", .offset = 28, .size = 4, .is_signed = 1 },
	{ .type = "int", .name = "target_cpu", .offset = 32, .size = 4, .is_signed = 1 },
	{ 0 }
};

static const struct trace_event_field switch_fields[] = {
	{ .type = "char[16]", .name = "prev_comm", .offset = 8, .size = 16,
	  .filter_type = FILTER_STATIC_STRING },
	{ .type = "pid_t", .name = "prev_pid", .offset = 24, .size = 4, .is_signed = 1 },
	{ .type = "int", .name = "prev_prio", .offset = 28, .size = 4, .is_signed = 1 },
	{ .type = "long", .name = "prev_state", .offset = 32, .size = 8, .is_signed = 1 },
	{ .type = "char[16]", .name = "next_comm", .offset = 40, .size = 16,
	  .filter_type = FILTER_STATIC_STRING },
	{ .type = "pid_t", .name = "next_pid", .offset = 56, .size = 4, .is_signed = 1 },
	{ .type = "int", .name = "next_prio", .offset = 60, .size = 4, .is_signed = 1 },
	{ 0 }
};

static const struct trace_event_field kmalloc_fields[] = {
	{ .type = "unsigned long", .name = "call_site", .offset = 8, .size = 8 },
	{ .type = "const void *", .name = "ptr", .offset = 16, .size = 8 },
	{ .type = "size_t", .name = "bytes_req", .offset = 24, .size = 8 },
	{ .type = "size_t", .name = "bytes_alloc", .offset = 32, .size = 8 },
	{ .type = "unsigned long", .name = "gfp_flags", .offset = 40, .size = 8 },
	{ .type = "int", .name = "node", .offset = 48, .size = 4, .is_signed = 1 },
	{ 0 }
};

static const struct trace_event_field sys_enter_fields[] = {
	{ .type = "long", .name = "id", .offset = 8, .size = 8, .is_signed = 1 },
	{ .type = "unsigned long[6]", .name = "args", .offset = 16, .size = 48 },
	{ 0 }
};

/* ftrace:print: a trailing char buf[] of size 0, running to the end of the record. */
static const struct trace_event_field print_fields[] = {
	{ .type = "unsigned long", .name = "ip", .offset = 8, .size = 8 },
	{ .type = "char[]", .name = "buf", .offset = 16, .size = 0, .is_signed = 1,
	  .filter_type = FILTER_STATIC_STRING },
	{ 0 }
};

/* Records with the layouts above. */
struct waking_rec { struct trace_entry ent; char comm[16]; s32 pid, prio, target_cpu; };
struct switch_rec {
	struct trace_entry ent; char prev_comm[16]; s32 prev_pid, prev_prio; s64 prev_state;
	char next_comm[16]; s32 next_pid, next_prio;
};
struct kmalloc_rec {
	struct trace_entry ent; u64 call_site, ptr, bytes_req, bytes_alloc, gfp_flags; s32 node;
};

static struct hist_instance inst;
static struct hist_event ev_waking, ev_switch, ev_kmalloc, ev_sys_enter, ev_print;

/* The events' descriptors as the tracing core has them (field tables without the common ones). */
#define FIXTURE_CALL(sys, ev, nr, f) \
	{ .system = sys, .name = ev, .id = nr, .fields = (struct trace_event_field *)f }
static const struct trace_event_call call_waking = FIXTURE_CALL("sched", "sched_waking", 1, waking_fields);
static const struct trace_event_call call_switch = FIXTURE_CALL("sched", "sched_switch", 2, switch_fields);
static const struct trace_event_call call_kmalloc = FIXTURE_CALL("kmem", "kmalloc", 3, kmalloc_fields);
static const struct trace_event_call call_sys_enter = FIXTURE_CALL("raw_syscalls", "sys_enter", 4,
								   sys_enter_fields);
static const struct trace_event_call call_print = FIXTURE_CALL("ftrace", "print", 5, print_fields);

static void add_event(struct hist_event *ev, const struct trace_event_call *call)
{
	hist_event_init(ev, call);
	list_add_tail(&ev->list, &inst.events);
}

static void fixture_setup(void)
{
	hist_instance_init(&inst);
	add_event(&ev_waking, &call_waking);
	add_event(&ev_switch, &call_switch);
	add_event(&ev_kmalloc, &call_kmalloc);
	add_event(&ev_sys_enter, &call_sys_enter);
	add_event(&ev_print, &call_print);
}

/* Remove one trigger of ev by its own printed text (the selftests' reset); false if none could go. */
static bool remove_one_trigger(struct hist_event *ev)
{
	static char cmd[8192];
	struct hist_trigger_data *hd;

	list_for_each_entry(hd, &ev->triggers, list) {
		struct hist_trigger_data *left;

		hist_trigger_print(cmd, sizeof(cmd), hd, true);
		/* cmd + 5: without "hist:"; fails with EBUSY while referenced */
		if (event_hist_trigger_parse(&inst, ev, cmd + 5, true))
			continue;
		list_for_each_entry(left, &ev->triggers, list)
			if (left == hd)
				return false;	/* its own text did not remove it: a printing bug */
		return true;
	}
	return false;
}

/* Remove every trigger (referencing ones go first, as they can) and every synthetic event. */
static void fixture_teardown(void)
{
	bool removed = true;

	while (removed) {
		struct hist_event *ev;

		removed = false;
		list_for_each_entry(ev, &inst.events, list)
			while (remove_one_trigger(ev))
				removed = true;
	}
	synth_events_release_all(&inst);
}

static __unused struct hist_event *event_by_name(const char *name)
{
	struct hist_event *ev;

	list_for_each_entry(ev, &inst.events, list)
		if (!strcmp(ev->name, name))
			return ev;
	return NULL;
}

/* Write "hist:<param>" or "!hist:<param>" (param starting with '!') to an event's trigger. */
static int hist_cmd(struct hist_event *ev, const char *param)
{
	if (param[0] == '!')
		return event_hist_trigger_parse(&inst, ev, param + 1, true);
	return event_hist_trigger_parse(&inst, ev, param, false);
}

static __unused unsigned int n_triggers(struct hist_event *ev)
{
	struct hist_trigger_data *hd;
	unsigned int n = 0;

	list_for_each_entry(hd, &ev->triggers, list)
		n++;
	return n;
}

static __unused struct hist_trigger_data *first_trigger(struct hist_event *ev)
{
	return list_first_entry_or_null(&ev->triggers, struct hist_trigger_data, list);
}

#endif
