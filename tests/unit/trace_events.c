/*
 * TRACE_EVENT end to end: every generated event header compiled with
 * CREATE_TRACE_POINTS, each event's format file checked byte for byte
 * against Linux 6.18's (tests/unit/trace_ref, the ID line aside), and
 * records written through the probes and rendered as `trace` lines.
 *
 * The ring buffer here is a double that hands out 8-byte aligned payloads:
 * the real one aligns to 4 as Linux does on x86, which UBSan reports for
 * records with 64-bit fields.
 */
/* uses: trace/trace_events.c trace/trace_pid_list.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c trace/trace_output.c trace/trace_filter.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/types.h>
#include <kernel/preempt.h>

/* What the sched events read from a task. */
struct task_struct {
	char comm[16];
	pid_t pid;
	int prio;
	int cpu;
};
static int task_cpu(const struct task_struct *p) { return p->cpu; }

/* The scheduler's mapping, reduced to what the records below need: bits pass through. */
long __trace_sched_switch_state(bool preempt, unsigned int prev_state,
				const struct task_struct *p)
{
	return preempt ? 0x100 : (long)(prev_state & 0xff);
}

#define CREATE_TRACE_POINTS
#include <trace/events/sched.h>
#include <trace/events/kmem.h>
#include <trace/events/irq.h>
#include <trace/events/timer.h>
#include <trace/events/ipi.h>
#include <trace/events/raw_syscalls.h>
#include <trace/events/ftrace.h>

#include <trace/trace_output.h>
#include <trace/trace_filter.h>

/* --- the ring-buffer double: records back to back, payloads 8-aligned ---------- */

/* A record: the format's event header with array[0] = payload length, payload from array[1]. */
#define REC_SIZE(len)	(8 + ALIGN_UP((size_t)(len), 8))

struct trace_buffer {
	char mem[1 << 16] __aligned(8);
	size_t head;
	struct rb_event *open;
	int nr;
};

static struct trace_buffer tb;

struct rb_event *ring_buffer_lock_reserve(struct trace_buffer *b, unsigned long len)
{
	struct rb_event *ev = (struct rb_event *)(b->mem + b->head);

	cr_assert_null(b->open, "reserve while a record is open");
	if (b->head + REC_SIZE(len) > sizeof(b->mem))
		return NULL;
	ev->type_len = 0;
	ev->array[0] = (u32)len;
	b->head += REC_SIZE(len);
	b->open = ev;
	return ev;
}

void *ring_buffer_event_data(struct rb_event *ev) { return &ev->array[1]; }

int ring_buffer_unlock_commit(struct trace_buffer *b)
{
	b->open = NULL;
	b->nr++;
	return 0;
}

int ring_buffer_write(struct trace_buffer *b, unsigned long len, const void *data)
{
	struct rb_event *ev = ring_buffer_lock_reserve(b, len);

	if (!ev)
		return -EBUSY;
	memcpy(ring_buffer_event_data(ev), data, len);
	return ring_buffer_unlock_commit(b);
}

/* The i-th committed record's payload, and its length. */
static void *record(int i, u32 *len)
{
	size_t off = 0;

	for (;;) {
		struct rb_event *ev = (struct rb_event *)(tb.mem + off);

		cr_assert_lt(off, tb.head, "no record %d", i);
		if (!i--) {
			if (len)
				*len = ev->array[0];
			return ring_buffer_event_data(ev);
		}
		off += REC_SIZE(ev->array[0]);
	}
}

/* --- the running task -------------------------------------------------------- */

static pid_t cur_pid = 10660;
pid_t tracing_task_pid(void) { return cur_pid; }
const char *tracing_task_comm(void) { return "bash"; }

static struct trace_event_file file;

static void enable(struct trace_event_call *call)
{
	cr_assert_eq(trace_events_init(), 0);
	memset(&tb, 0, sizeof(tb));
	file = (struct trace_event_file){ .event_call = call, .buffer = &tb };
	cr_assert_eq(trace_event_reg(&file, true), 0);
}

static void disable(void)
{
	cr_assert_eq(trace_event_reg(&file, false), 0);
}

/* The text of record i after "name: ". */
static const char *render(int i)
{
	static struct trace_seq s, tmp;
	u32 len;
	struct trace_entry *ent = record(i, &len);

	trace_seq_init(&s);
	cr_assert_eq(trace_print_event(&s, &tmp, ent, len), 0);
	return s.buffer;
}

/* --- format files -------------------------------------------------------------- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[16384];
	size_t n;

	cr_assert_not_null(f, "cannot open %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

Test(trace_event_format, every_event_matches_linux)
{
	static const char *const events[][2] = {
		{ "sched", "sched_switch" }, { "sched", "sched_waking" },
		{ "sched", "sched_wakeup" }, { "sched", "sched_wakeup_new" },
		{ "sched", "sched_process_fork" }, { "sched", "sched_process_exit" },
		{ "sched", "sched_stat_runtime" }, { "kmem", "kmalloc" }, { "kmem", "kfree" },
		{ "kmem", "mm_page_alloc" }, { "kmem", "mm_page_free" },
		{ "irq", "irq_handler_entry" }, { "irq", "irq_handler_exit" },
		{ "irq", "softirq_entry" }, { "irq", "softirq_exit" },
		{ "timer", "hrtimer_expire_entry" }, { "ipi", "ipi_send_cpu" },
		{ "raw_syscalls", "sys_enter" }, { "raw_syscalls", "sys_exit" },
		{ "ftrace", "print" }, { "ftrace", "function" }, { "ftrace", "func_repeats" },
	};
	static char got[16384];
	int n = 0;

	cr_assert_eq(trace_events_init(), 0);
	for (size_t i = 0; i < ARRAY_SIZE(events); i++) {
		struct trace_event_call *call = trace_find_event_call(events[i][0], events[i][1]);
		char path[256], id_line[32];
		const char *want, *want_rest, *got_rest;

		cr_assert_not_null(call, "%s:%s not registered", events[i][0], events[i][1]);
		cr_assert_geq(call->id, 32);
		cr_assert_eq(trace_find_event_by_id(call->id), call);
		snprintf(path, sizeof(path), "tests/unit/trace_ref/%s/%s/format",
			 events[i][0], events[i][1]);
		want = slurp(path);
		cr_assert_lt(trace_event_format(call, got, sizeof(got)), (int)sizeof(got));
		/* name line, then "ID: <ours>" where Linux has its own id, then the rest byte for byte */
		want_rest = strchr(strstr(want, "\nID: ") + 1, '\n');
		got_rest = strchr(strstr(got, "\nID: ") + 1, '\n');
		snprintf(id_line, sizeof(id_line), "\nID: %u\n", call->id);
		cr_assert_not_null(strstr(got, id_line));
		cr_assert_eq(strncmp(got, want, (size_t)(strstr(want, "\nID: ") - want)), 0);
		cr_assert_str_eq(got_rest, want_rest, "%s:%s format differs", events[i][0],
				 events[i][1]);
		n++;
	}
	cr_assert_eq(n, 22);
}

Test(trace_event_format, registry)
{
	struct trace_event_call *c;
	int n = 0;

	cr_assert_eq(trace_events_init(), 0);
	for (c = trace_next_event_call(NULL); c; c = trace_next_event_call(c))
		n++;
	cr_assert_eq(n, 33, "%d events registered", n);
	cr_assert_null(trace_find_event_call("sched", "nope"));
	cr_assert_not_null(trace_find_event_call(NULL, "kfree"));
	cr_assert_null(trace_find_event_by_id(0));
	cr_assert_null(trace_find_event_by_id(70000));
	c = trace_find_event_call("irq", "irq_handler_entry");
	cr_assert_eq(trace_find_event_field(c, "name")->filter_type, FILTER_DYN_STRING);
	cr_assert_eq(trace_find_event_field(c, "common_pid")->offset, 4);
	cr_assert_null(trace_find_event_field(c, "bogus"));
	cr_assert_eq(trace_add_event_call(&event_kfree), -EEXIST);
}

/* --- records and their text ---------------------------------------------------- */

static struct task_struct bash = { "bash", 10660, 120, 0 };
static struct task_struct mig = { "migration/0", 18, 0, 0 };

Test(trace_event_record, sched_switch_layout_and_text)
{
	struct trace_event_raw_sched_switch *r;
	u32 len;

	enable(&event_sched_switch);
	preempt_count_add(2);
	trace_sched_switch(true, &bash, &mig, 0);
	trace_sched_switch(false, &mig, &bash, 0x1 | 0x2);
	preempt_count_sub(2);
	disable();
	trace_sched_switch(false, &mig, &bash, 0);	/* detached: not recorded */
	cr_assert_eq(tb.nr, 2);

	r = record(0, &len);
	cr_assert_eq(len, sizeof(*r));
	cr_assert_eq(r->ent.type, event_sched_switch.id);
	cr_assert_eq(r->ent.pid, 10660);
	cr_assert_eq(r->ent.preempt_count, 2);
	cr_assert_eq(r->prev_state, 0x100);
	cr_assert_str_eq(r->next_comm, "migration/0");
	cr_assert_str_eq(render(0), "sched_switch: prev_comm=bash prev_pid=10660 prev_prio=120 "
			 "prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0");
	cr_assert_str_eq(render(1), "sched_switch: prev_comm=migration/0 prev_pid=18 prev_prio=0 "
			 "prev_state=S|D ==> next_comm=bash next_pid=10660 next_prio=120");
}

Test(trace_event_record, wakeup_class_instances)
{
	struct task_struct t = { "rcu_preempt", 15, 120, 3 };

	enable(&event_sched_waking);
	trace_sched_waking(&t);
	trace_sched_wakeup(&t);		/* another event of the class: not enabled */
	disable();
	cr_assert_eq(tb.nr, 1);
	cr_assert_str_eq(render(0), "sched_waking: comm=rcu_preempt pid=15 prio=120 target_cpu=003");
	cr_assert_eq(event_sched_wakeup.fields, event_sched_waking.fields);
	cr_assert_neq(event_sched_wakeup.id, event_sched_waking.id);
}

Test(trace_event_record, dynamic_strings)
{
	struct task_struct child = { "sleep", 10662, 120, 1 };
	struct trace_event_raw_sched_process_fork *r;
	u32 loc, len;

	enable(&event_sched_process_fork);
	trace_sched_process_fork(&bash, &child);
	disable();
	r = record(0, &len);
	loc = r->__data_loc_parent_comm;
	cr_assert_eq(loc & 0xffff, sizeof(*r));
	cr_assert_eq(loc >> 16, 5);
	cr_assert_eq(r->__data_loc_child_comm, (u32)(6u << 16 | (sizeof(*r) + 5)));
	cr_assert_eq(len, sizeof(*r) + 5 + 6);
	cr_assert_str_eq(render(0), "sched_process_fork: comm=bash pid=10660 child_comm=sleep child_pid=10662");

	enable(&event_irq_handler_entry);
	trace_irq_handler_entry(4, NULL);	/* Linux records a NULL string as "(null)" */
	disable();
	cr_assert_str_eq(render(0), "irq_handler_entry: irq=4 name=(null)");
}

Test(trace_event_record, flags_symbols_arrays_flex)
{
	unsigned long args[6] = { 1, 0x2000, 3, 4, 5, 0xdeadbeef };
	const char msg[] = "hello world";	/* written without its NUL */
	struct trace_event_raw_print *p;
	u32 len;

	enable(&event_softirq_entry);
	trace_softirq_entry(7);
	trace_softirq_exit(7);
	disable();
	cr_assert_str_eq(render(0), "softirq_entry: vec=7 [action=SCHED]");

	enable(&event_kmalloc);
	/* Linux's GFP_KERNEL is __GFP_RECLAIM | __GFP_IO | __GFP_FS = 0xcc0; __GFP_ACCOUNT is 1 << 22. */
	trace_kmalloc(0, (void *)0x1000, 24, 32, 0xcc0, -1);
	trace_kmalloc(0, (void *)0x1000, 24, 32, 0xcc0 | (1u << 22), 0);
	trace_kmalloc(0, (void *)0x1000, 24, 32, 0, 0);
	trace_kmalloc(0, (void *)0x1000, 24, 32, 1u << 30, 0);
	disable();
	cr_assert_not_null(strstr(render(0), " bytes_req=24 bytes_alloc=32 gfp_flags=GFP_KERNEL node=-1 accounted=false"));
	cr_assert_not_null(strstr(render(1), "gfp_flags=GFP_KERNEL_ACCOUNT node=0 accounted=true"));
	cr_assert_not_null(strstr(render(2), "gfp_flags=none node=0"));
	cr_assert_not_null(strstr(render(3), "gfp_flags=0x40000000 node=0"));

	enable(&event_sys_enter);
	trace_sys_enter(59, args);
	disable();
	cr_assert_str_eq(render(0), "sys_enter: NR 59 (1, 2000, 3, 4, 5, deadbeef)");

	enable(&event_print);
	trace_print(0x1234, msg, 5);
	disable();
	p = record(0, &len);
	cr_assert_eq(len, sizeof(*p) + 6);
	cr_assert_str_eq(p->buf, "hello");
	cr_assert_eq(p->ip, 0x1234);
}

Test(trace_event_record, filter_keeps_only_matches)
{
	struct event_filter *f;
	struct filter_error err;

	enable(&event_sched_switch);
	cr_assert_eq(filter_parse(&event_sched_switch, "next_pid == 18 && prev_comm ~ \"ba*\"", &f, &err), 0);
	file.filter = f;
	trace_sched_switch(false, &bash, &mig, 0);	/* kept */
	trace_sched_switch(false, &mig, &bash, 0);	/* dropped */
	file.filter = NULL;
	trace_sched_switch(false, &mig, &bash, 0);	/* no filter: kept */
	disable();
	filter_free(f);
	cr_assert_eq(tb.nr, 2);
	cr_assert_not_null(strstr(render(0), "next_pid=18"));
	cr_assert_not_null(strstr(render(1), "next_pid=10660"));
}

Test(trace_event_record, soft_disabled_and_full_buffer)
{
	enable(&event_sys_exit);
	file.flags |= EVENT_FILE_FL_SOFT_DISABLED;
	trace_sys_exit(1, 2);
	cr_assert_eq(tb.nr, 0);
	file.flags &= ~EVENT_FILE_FL_SOFT_DISABLED;
	tb.head = sizeof(tb.mem) - 8;	/* no room: the probe gives up quietly */
	trace_sys_exit(1, 2);
	cr_assert_eq(tb.nr, 0);
	disable();
	cr_assert_eq(trace_event_reg(&file, false), -ENOENT);
}

Test(trace_event_record, bad_records_never_read_outside)
{
	static struct trace_seq s, tmp;
	char rec[64] __aligned(8);
	struct trace_event_raw_irq_handler_entry *r = (void *)rec;

	cr_assert_eq(trace_events_init(), 0);
	memset(rec, 'x', sizeof(rec));
	r->ent.type = event_irq_handler_entry.id;
	r->__data_loc_name = 40u << 16 | 16;	/* 40 bytes at 16: past a 32-byte record */
	trace_seq_init(&s);
	trace_print_event(&s, &tmp, &r->ent, 32);
	cr_assert_str_eq(s.buffer, "irq_handler_entry: [bad record]");
	r->__data_loc_name = 4u << 16 | 16;	/* inside, but no NUL */
	trace_seq_init(&s);
	trace_print_event(&s, &tmp, &r->ent, 32);
	cr_assert_str_eq(s.buffer, "irq_handler_entry: [bad record]");
	r->ent.type = 9999;
	trace_seq_init(&s);
	trace_print_event(&s, &tmp, &r->ent, 32);
	cr_assert_str_eq(s.buffer, "Unknown type 9999");
	trace_seq_init(&s);
	trace_print_event(&s, &tmp, &r->ent, 3);
	cr_assert_str_eq(s.buffer, "[bad record]");
}
