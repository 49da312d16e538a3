/*
 * syscalls:sys_enter_<name> / sys_exit_<name>: every event's format file
 * byte for byte against Linux 6.12's (tests/unit/trace_ref/syscalls/formats,
 * read from a running Linux, the ID lines aside), their names against the
 * syscall table, and records written by the probes on the raw tracepoints:
 * only their own number, the arguments the event has, preempt depth 1,
 * filters, and Linux's `trace` text.
 *
 * The ring buffer is a one-record double with an 8-aligned payload (the
 * real one aligns to 4, as Linux on x86, which UBSan reports for these
 * 64-bit fields).
 */
/* uses: trace/syscall_meta.c trace/trace_syscalls_events.c trace/trace_syscalls.c trace/syscall_names.c trace/trace_events.c trace/trace_pid_list.c trace/tracepoint.c trace/trace_output.c trace/trace_filter.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <kernel/types.h>
#include <trace/trace_syscalls_events.h>
#include <trace/trace_output.h>
#include <trace/trace_filter.h>
#include <trace/syscall_names.h>

/* --- the ring-buffer double: the last record written, and how many ---------------- */

struct trace_buffer {
	u64 data[64];		/* the last record */
	unsigned long len;
	int nr;			/* records committed */
	bool open;
};

static struct trace_buffer tb1, tb2;

/* The event handle probes pass back is the buffer itself. */
struct rb_event *ring_buffer_lock_reserve(struct trace_buffer *b, unsigned long len)
{
	cr_assert(!b->open && len <= sizeof(b->data));
	b->open = true;
	b->len = len;
	return (struct rb_event *)b;
}

void *ring_buffer_event_data(struct rb_event *ev)
{
	return ((struct trace_buffer *)ev)->data;
}

int ring_buffer_unlock_commit(struct trace_buffer *b)
{
	b->open = false;
	b->nr++;
	return 0;
}

int ring_buffer_write(struct trace_buffer *b, unsigned long len, const void *data)
{
	cr_assert_leq(len, sizeof(b->data));
	memcpy(b->data, data, len);
	b->len = len;
	b->nr++;
	return 0;
}

/* --- formats and names ---------------------------------------------------------------- */

static char ref[1 << 18];

/* Linux's formats, one after another, each starting "name: ". */
static void load_ref(void)
{
	FILE *f = fopen("tests/unit/trace_ref/syscalls/formats", "r");
	size_t n;

	cr_assert_not_null(f);
	n = fread(ref, 1, sizeof(ref) - 1, f);
	fclose(f);
	ref[n] = '\0';
}

/* Text without its "ID: N\n" line. */
static void drop_id(char *text)
{
	char *id = strstr(text, "\nID: ");
	char *end = id ? strchr(id + 1, '\n') : NULL;

	cr_assert_not_null(end);
	memmove(id, end, strlen(end) + 1);
}

Test(syscall_events, every_format_matches_linux)
{
	static char ours[4096], theirs[4096];
	unsigned int checked = 0;

	cr_assert_eq(trace_events_init(), 0);
	load_ref();
	for (const char *p = ref; (p = strstr(p, "name: ")); checked++) {
		const char *next = strstr(p + 1, "\nname: ");
		size_t len = next ? (size_t)(next + 1 - p) : strlen(p);
		char name[64];
		struct trace_event_call *call;

		cr_assert_lt(len, sizeof(theirs));
		memcpy(theirs, p, len);
		theirs[len] = '\0';
		cr_assert_eq(sscanf(theirs, "name: %63s", name), 1);
		call = trace_find_event_call("syscalls", name);
		cr_assert_not_null(call, "no syscalls:%s", name);
		cr_assert_lt(trace_event_format(call, ours, sizeof(ours)), (int)sizeof(ours));
		drop_id(theirs);
		drop_id(ours);
		cr_expect_str_eq(ours, theirs, "%s", name);
		p += len;
	}
	cr_assert_eq(checked, 256);
}

/* Each event pair is named after its number's entry point, and there is one pair per call. */
Test(syscall_events, names_follow_the_table)
{
	unsigned int enter = 0, exits = 0;
	bool seen[NR_syscalls] = { false };

	cr_assert_eq(trace_events_init(), 0);
	for (struct trace_event_call *call = trace_next_event_call(NULL); call;
	     call = trace_next_event_call(call)) {
		const struct syscall_metadata *meta;
		char want[80];

		if (strcmp(call->system, "syscalls"))
			continue;
		if (call->output == syscall_enter_output) {
			meta = container_of(call, struct syscall_metadata, enter_event);
			cr_assert_eq(call->size, 16 + 8 * meta->nb_args, "%s", call->name);
			snprintf(want, sizeof(want), "sys_enter_%s", meta->name + 4);
			cr_assert(!seen[meta->nr], "nr %d twice", meta->nr);
			seen[meta->nr] = true;
			enter++;
		} else {
			meta = container_of(call, struct syscall_metadata, exit_event);
			cr_assert_eq(call->size, 24);
			snprintf(want, sizeof(want), "sys_exit_%s", meta->name + 4);
			exits++;
		}
		cr_expect_str_eq(call->name, want);
		cr_assert_lt(meta->nr, NR_syscalls);
		cr_expect_str_eq(syscall_entry_name(meta->nr), meta->name, "nr %d", meta->nr);
	}
	cr_expect_eq(enter, 131);
	cr_expect_eq(exits, 131);
	/* the stat family goes by its entry points, as in Linux */
	cr_expect_not_null(trace_find_event_call("syscalls", "sys_enter_newstat"));
	cr_expect_not_null(trace_find_event_call("syscalls", "sys_exit_newuname"));
	cr_expect_not_null(trace_find_event_call("syscalls", "sys_enter_sendfile64"));
	cr_expect_null(trace_find_event_call("syscalls", "sys_enter_stat"));
}

/* --- records ----------------------------------------------------------------------------- */

static pid_t cur_pid = 42;
pid_t tracing_task_pid(void) { return cur_pid; }
const char *tracing_task_comm(void) { return "cat"; }

static struct trace_event_file file1, file2;

static struct trace_event_call *event(const char *name)
{
	struct trace_event_call *call = trace_find_event_call("syscalls", name);

	cr_assert_not_null(call, "%s", name);
	return call;
}

static void attach(struct trace_event_file *file, struct trace_buffer *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	*file = (struct trace_event_file){ .event_call = event(name), .buffer = b };
	cr_assert_eq(trace_event_reg(file, true), 0);
}

static void detach(struct trace_event_file *file)
{
	cr_assert_eq(trace_event_reg(file, false), 0);
	filter_free(file->filter);
	file->filter = NULL;
}

/* The `trace` text of b's last record (what follows the line's common prefix). */
static const char *render(struct trace_buffer *b)
{
	static struct trace_seq s, tmp;

	trace_seq_init(&s);
	trace_seq_init(&tmp);
	cr_assert_eq(trace_print_event(&s, &tmp, (struct trace_entry *)b->data, b->len), 0);
	return s.buffer;
}

static void setup(void)
{
	cr_assert_eq(trace_events_init(), 0);
}

TestSuite(syscall_records, .init = setup);

Test(syscall_records, enter_keeps_its_own_number_and_its_arguments)
{
	const unsigned long args[6] = { 0xffffff9c, 0x7ffe94229f81, 0, 0, 0xdead, 0xbeef };
	const struct syscall_trace_enter *rec = (const void *)tb1.data;

	attach(&file1, &tb1, "sys_enter_openat");
	trace_sys_enter(0, args);	/* read: not ours */
	trace_sys_enter(2, args);	/* open: not ours either */
	cr_assert_eq(tb1.nr, 0);
	trace_sys_enter(257, args);
	cr_assert_eq(tb1.nr, 1);
	cr_assert_eq(tb1.len, 16 + 4 * 8);
	cr_expect_eq(rec->ent.type, file1.event_call->id);
	cr_expect_eq(rec->ent.pid, 42);
	/* as Linux's: the context is taken in the probe, under the call site's preempt_disable */
	cr_expect_eq(rec->ent.preempt_count, 1);
	cr_expect_eq(rec->nr, 257);
	cr_expect_eq(rec->pad, 0);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(rec->args[i], args[i]);
	cr_expect_str_eq(render(&tb1),
			 "sys_openat(dfd: ffffff9c, filename: 7ffe94229f81, flags: 0, mode: 0)");
	detach(&file1);
	trace_sys_enter(257, args);
	cr_expect_eq(tb1.nr, 1);
}

Test(syscall_records, no_arguments)
{
	const unsigned long args[6] = { 1, 2, 3, 4, 5, 6 };

	attach(&file1, &tb1, "sys_enter_getpid");
	trace_sys_enter(39, args);
	cr_assert_eq(tb1.nr, 1);
	cr_expect_eq(tb1.len, 16);
	cr_expect_str_eq(render(&tb1), "sys_getpid()");
	detach(&file1);
}

Test(syscall_records, exit_and_its_filter)
{
	struct filter_error err = { 0 };

	attach(&file1, &tb1, "sys_exit_openat");
	trace_sys_exit(257, 3);
	cr_assert_eq(tb1.nr, 1);
	cr_expect_eq(tb1.len, 24);
	cr_expect_str_eq(render(&tb1), "sys_openat -> 0x3");
	cr_assert_eq(filter_parse(file1.event_call, "ret < 0", &file1.filter, &err), 0);
	trace_sys_exit(257, 4);
	trace_sys_exit(3, -2);		/* close: not ours */
	cr_expect_eq(tb1.nr, 1);
	trace_sys_exit(257, -2);
	cr_assert_eq(tb1.nr, 2);
	cr_expect_eq(((const struct syscall_trace_exit *)tb1.data)->ret, -2);
	cr_expect_str_eq(render(&tb1), "sys_openat -> 0xfffffffffffffffe");
	detach(&file1);
}

Test(syscall_records, filter_on_an_argument)
{
	const unsigned long rd[6] = { 3, 0x1000, 64 }, other[6] = { 4, 0x1000, 64 };
	struct filter_error err = { 0 };

	attach(&file1, &tb1, "sys_enter_read");
	cr_assert_eq(filter_parse(file1.event_call, "fd == 3 && count >= 64", &file1.filter, &err), 0);
	trace_sys_enter(0, other);
	cr_expect_eq(tb1.nr, 0);
	trace_sys_enter(0, rd);
	cr_expect_eq(tb1.nr, 1);
	cr_expect_str_eq(render(&tb1), "sys_read(fd: 3, buf: 1000, count: 40)");
	detach(&file1);
}

/* Two instances, two events on the same raw tracepoint: each gets only its own. */
Test(syscall_records, each_file_its_own_records)
{
	const unsigned long args[6] = { 1, 0x2000, 5 };

	attach(&file1, &tb1, "sys_enter_write");
	attach(&file2, &tb2, "sys_enter_close");
	trace_sys_enter(1, args);
	trace_sys_enter(1, args);
	trace_sys_enter(3, args);
	cr_expect_eq(tb1.nr, 2);
	cr_expect_eq(tb2.nr, 1);
	cr_expect_str_eq(render(&tb1), "sys_write(fd: 1, buf: 2000, count: 5)");
	cr_expect_str_eq(render(&tb2), "sys_close(fd: 1)");
	detach(&file1);
	detach(&file2);
}

/* Soft-disabled (a trigger's target, not enabled): no record. */
Test(syscall_records, soft_disabled_records_nothing)
{
	const unsigned long args[6] = { 0 };

	attach(&file1, &tb1, "sys_enter_sched_yield");
	file1.flags |= EVENT_FILE_FL_SOFT_DISABLED;
	trace_sys_enter(24, args);
	cr_expect_eq(tb1.nr, 0);
	file1.flags &= ~EVENT_FILE_FL_SOFT_DISABLED;
	trace_sys_enter(24, args);
	cr_expect_eq(tb1.nr, 1);
	cr_expect_str_eq(render(&tb1), "sys_sched_yield()");
	detach(&file1);
}
