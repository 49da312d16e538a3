/*
 * function_graph's text, Linux 6.12's layout (kernel/trace/
 * trace_functions_graph.c): one line per call or return,
 *
 *    TIME |  REL TIME |  CPU)  TASK-PID | lat |  DURATION   |  FUNCTION CALLS
 *                                    ! 150.521 us |      foo() {
 *
 * each column as the flags (function_graph's funcgraph-* options, or a
 * latency tracer's fixed set) or latency-format ask. A call
 * whose return is the next record of its CPU is a leaf, "foo();" with
 * its duration; otherwise "foo() {" opens and its return prints "}",
 * naming the function when funcgraph-tail is on or the call was not
 * seen. Other records print as comments, "/" "* text *" "/", indented
 * under the open call. A change of task on a CPU prints a banner.
 * The per-CPU state (last task, open calls) lives with the iterator.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/percpu.h>
#include <trace/trace.h>
#include <trace/trace_output.h>
#include <trace/trace_functions_graph.h>

/* Spaces per depth level. */
#define FGRAPH_INDENT		2
/* Width of the centered "comm-pid" column. */
#define FGRAPH_PROC_WIDTH	14

/* What the printer remembers of a CPU between lines. */
struct fgraph_cpu_state {
	pid_t last_pid;		/* -1 until its first line */
	int depth;		/* comments indent below it */
	unsigned long enter_funcs[FTRACE_RETFUNC_DEPTH];	/* the open call at each depth */
};

/* What a record's line puts before the duration. */
enum fill { FILL_NONE, FILL_FULL, FILL_START, FILL_END };

static struct fgraph_cpu_state *cpu_state(struct trace_iterator *iter, int cpu)
{
	struct fgraph_cpu_state *st = iter->private;

	if (!st) {
		st = kcalloc(nr_cpu_ids, sizeof(*st), GFP_KERNEL);
		if (!st)
			return NULL;
		for (unsigned int c = 0; c < nr_cpu_ids; c++)
			st[c].last_pid = -1;
		iter->private = st;
	}
	return &st[cpu];
}

static void print_cpu(struct trace_seq *s, int cpu)
{
	int width = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);

	trace_seq_printf(s, " %*d) ", width, cpu);
}

/* "comm-pid" (comm cut to 7) centered in 14 columns. */
static void print_proc(struct trace_seq *s, pid_t pid)
{
	char comm[16];
	int len, pad;

	trace_find_cmdline(pid, comm);
	comm[7] = '\0';
	len = (int)strlen(comm) + 1 + snprintf(NULL, 0, "%d", pid);
	pad = len < FGRAPH_PROC_WIDTH ? FGRAPH_PROC_WIDTH - len : 0;
	trace_seq_printf(s, "%*s%s-%d%*s", pad / 2, "", comm, pid, pad - pad / 2, "");
}

/* The banner when cpu's records change task. */
static void check_pid(struct trace_seq *s, struct fgraph_cpu_state *st, int cpu, pid_t pid)
{
	pid_t prev;

	if (!st || st->last_pid == pid)
		return;
	prev = st->last_pid;
	st->last_pid = pid;
	if (prev == -1)
		return;
	trace_seq_puts(s, " ------------------------------------------\n");
	print_cpu(s, cpu);
	print_proc(s, prev);
	trace_seq_puts(s, " => ");
	print_proc(s, pid);
	trace_seq_puts(s, "\n ------------------------------------------\n\n");
}

/* The columns before the duration. */
static void print_prologue(struct trace_iterator *iter, struct fgraph_cpu_state *st, int cpu,
			   const struct trace_entry *ent, u64 ts, unsigned long flags)
{
	struct trace_seq *s = &iter->seq;

	check_pid(s, st, cpu, ent->pid);
	if (!(iter->tr->trace_flags & TRACE_ITER(CONTEXT_INFO)))
		return;
	if (flags & FGRAPH_OPT(ABSTIME))
		trace_seq_printf(s, "%5lu.%06lu |  ", (unsigned long)(ts / 1000000000),
				 (unsigned long)(ts % 1000000000 / 1000));
	/* microseconds since the buffer's start, cut (not rounded) as Linux's */
	if (flags & FGRAPH_PRINT_REL_TIME)
		trace_seq_printf(s, "%9llu us |  ",
				 (unsigned long long)((ts - iter->time_start) / 1000));
	if (flags & FGRAPH_OPT(CPU))
		print_cpu(s, cpu);
	if (flags & FGRAPH_OPT(PROC)) {
		print_proc(s, ent->pid);
		trace_seq_puts(s, " | ");
	}
	if (iter->tr->trace_flags & TRACE_ITER(LATENCY_FMT)) {
		trace_seq_putc(s, ' ');
		trace_print_lat_fmt(s, ent);
		trace_seq_puts(s, " | ");
	}
}

void fgraph_duration_text(char *buf, size_t size, u64 ns)
{
	int len = snprintf(buf, size, "%llu", (unsigned long long)(ns / 1000));

	if (len < 7) {
		char frac[4];
		/* As many digits of the nanoseconds as keep the number within 7. */
		int digits = min(3, 7 - len);

		snprintf(frac, sizeof(frac), "%03u", (unsigned int)(ns % 1000));
		frac[digits] = '\0';
		snprintf(buf + len, size - (size_t)len, ".%s", frac);
		len += digits + 1;
	}
	snprintf(buf + len, size - (size_t)len, " us %*s", len < 8 ? 8 - len : 0, "");
}

/* "  12.345 us   |  ": the duration's text, then the column's bar. */
static void print_duration(struct trace_iterator *iter, u64 ns, enum fill fill,
			   unsigned long flags)
{
	struct trace_seq *s = &iter->seq;
	char text[FGRAPH_DURATION_MAX];

	if (!(flags & FGRAPH_OPT(DURATION)) ||
	    !(iter->tr->trace_flags & TRACE_ITER(CONTEXT_INFO)))
		return;
	switch (fill) {
	case FILL_FULL:
		trace_seq_puts(s, "              |  ");
		return;
	case FILL_START:
		trace_seq_puts(s, "  ");
		return;
	case FILL_END:
		trace_seq_puts(s, " |");
		return;
	case FILL_NONE:
		break;
	}
	if (flags & FGRAPH_OPT(OVERHEAD))
		trace_seq_printf(s, "%c ", trace_find_mark(ns));
	else
		trace_seq_puts(s, "  ");
	fgraph_duration_text(text, sizeof(text), ns);
	trace_seq_puts(s, text);
	trace_seq_puts(s, "|  ");
}

static void indent(struct trace_seq *s, int depth)
{
	trace_seq_printf(s, "%*s", depth > 0 ? depth * FGRAPH_INDENT : 0, "");
}

static bool depth_ok(int depth)
{
	return depth >= 0 && depth < FTRACE_RETFUNC_DEPTH;
}

/* A call: a leaf with its return (the CPU's next record), or an open "{". */
static void print_entry(struct trace_iterator *iter, struct fgraph_cpu_state *st, int cpu,
			const struct ring_buffer_record *rec, unsigned long flags)
{
	struct ftrace_graph_ent_entry e;
	const struct ring_buffer_record *next;
	struct trace_seq *s = &iter->seq;

	memcpy(&e, rec->data, sizeof(e));
	print_prologue(iter, st, cpu, &e.ent, rec->ts, flags);
	next = trace_iter_peek(iter, cpu);
	if (next && next->length >= sizeof(struct ftrace_graph_ret_entry)) {
		struct ftrace_graph_ret_entry r;

		memcpy(&r, next->data, sizeof(r));
		if (r.ent.type == event_funcgraph_exit.id && r.ent.pid == e.ent.pid && r.func == e.func) {
			trace_iter_skip(iter, cpu);
			if (st) {
				st->depth = e.depth - 1;
				if (depth_ok(e.depth))
					st->enter_funcs[e.depth] = 0;
			}
			print_duration(iter, r.rettime - r.calltime, FILL_NONE, flags);
			indent(s, e.depth);
			trace_seq_printf(s, "%ps();\n", (void *)e.func);
			return;
		}
	}
	if (st) {
		st->depth = e.depth;
		if (depth_ok(e.depth))
			st->enter_funcs[e.depth] = e.func;
	}
	print_duration(iter, 0, FILL_FULL, flags);
	indent(s, e.depth);
	trace_seq_printf(s, "%ps() {\n", (void *)e.func);
}

static void print_return(struct trace_iterator *iter, struct fgraph_cpu_state *st, int cpu,
			 const struct ring_buffer_record *rec, unsigned long flags)
{
	struct ftrace_graph_ret_entry r;
	struct trace_seq *s = &iter->seq;
	bool matched = true;

	memcpy(&r, rec->data, sizeof(r));
	if (st) {
		st->depth = r.depth - 1;
		if (depth_ok(r.depth)) {
			matched = st->enter_funcs[r.depth] == r.func;
			st->enter_funcs[r.depth] = 0;
		}
	}
	print_prologue(iter, st, cpu, &r.ent, rec->ts, flags);
	print_duration(iter, r.rettime - r.calltime, FILL_NONE, flags);
	indent(s, r.depth);
	if (matched && !(flags & FGRAPH_OPT(TAIL)))
		trace_seq_puts(s, "}\n");
	else
		trace_seq_printf(s, "} /* %ps */\n", (void *)r.func);
	if (flags & FGRAPH_OPT(OVERRUN))
		trace_seq_printf(s, " (Overruns: %u)\n", r.overrun);
}

/*
 * Any other record: its text as a comment under the open call, as the
 * `trace` file prints it after the context (a stack's lines too), but a
 * trace_marker write is its text alone, as Linux's printk messages.
 */
static void print_comment(struct trace_iterator *iter, struct fgraph_cpu_state *st, int cpu,
			  const struct ring_buffer_record *rec, unsigned long flags)
{
	const struct trace_entry *ent = (const void *)rec->data;
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct trace_seq *s = &iter->seq;
	int depth = st ? st->depth : 0;

	print_prologue(iter, st, cpu, ent, rec->ts, flags);
	print_duration(iter, 0, FILL_FULL, flags);
	if (depth > 0)
		indent(s, depth + 1);
	trace_seq_puts(s, "/* ");
	if (call && !strcmp(call->system, "ftrace") && !strcmp(call->name, "print") &&
	    trace_event_record_valid(call, ent, rec->length))
		trace_seq_puts(s, (const char *)rec->data + sizeof(*ent) + sizeof(unsigned long));
	else
		trace_iter_print_record(iter, rec);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	trace_seq_puts(s, " */\n");
}

void fgraph_print_line_flags(struct trace_iterator *iter, int cpu,
			     const struct ring_buffer_record *rec, unsigned long flags)
{
	const struct trace_entry *ent = (const void *)rec->data;
	struct fgraph_cpu_state *st = cpu_state(iter, cpu);

	if (ent->type == event_funcgraph_entry.id && rec->length >= sizeof(struct ftrace_graph_ent_entry))
		print_entry(iter, st, cpu, rec, flags);
	else if (ent->type == event_funcgraph_exit.id && rec->length >= sizeof(struct ftrace_graph_ret_entry))
		print_return(iter, st, cpu, rec, flags);
	else
		print_comment(iter, st, cpu, rec, flags);
}

void fgraph_print_line(struct trace_iterator *iter, int cpu, const struct ring_buffer_record *rec)
{
	fgraph_print_line_flags(iter, cpu, rec, READ_ONCE(fgraph_flags));
}

/* The legend's columns, as the options show them (opt 0: latency-format's flags). */
static const struct {
	unsigned long opt;
	const char *text[2];
} header_cols[] = {
	{ FGRAPH_OPT(ABSTIME), { "     TIME       ", "      |         " } },
	{ FGRAPH_PRINT_REL_TIME, { "   REL TIME     ", "      |         " } },
	{ FGRAPH_OPT(CPU), { " CPU", " |  " } },
	{ FGRAPH_OPT(PROC), { "  TASK/PID       ", "   |    |        " } },
	{ 0, { "||||   ", "||||   " } },
	{ FGRAPH_OPT(DURATION), { "  DURATION   ", "   |   |      " } },
};

void fgraph_print_header_flags(struct trace_iterator *iter, unsigned long flags)
{
	struct trace_seq *s = &iter->seq;
	bool lat = iter->tr->trace_flags & TRACE_ITER(LATENCY_FMT);

	if (lat) {
		int size = (flags & FGRAPH_OPT(ABSTIME) ? 16 : 0) +
			   (flags & FGRAPH_PRINT_REL_TIME ? 16 : 0) + (flags & FGRAPH_OPT(CPU) ? 4 : 0) +
			   (flags & FGRAPH_OPT(PROC) ? 17 : 0);

		static const char *const legend[] = {
			"  _-----=> irqs-off        ", " / _----=> need-resched    ",
			"| / _---=> hardirq/softirq ", "|| / _--=> preempt-depth   ",
			"||| /                      ",
		};

		for (size_t i = 0; i < ARRAY_SIZE(legend); i++)
			trace_seq_printf(s, "#%*s%s\n", size, "", legend[i]);
	}
	for (int row = 0; row < 2; row++) {
		trace_seq_putc(s, '#');
		for (size_t i = 0; i < ARRAY_SIZE(header_cols); i++) {
			unsigned long opt = header_cols[i].opt;

			if (opt ? flags & opt : lat)
				trace_seq_puts(s, header_cols[i].text[row]);
		}
		trace_seq_puts(s, row ? "               |   |   |   |\n"
				      : "               FUNCTION CALLS\n");
	}
}

void fgraph_print_header(struct trace_iterator *iter)
{
	fgraph_print_header_flags(iter, READ_ONCE(fgraph_flags));
}
