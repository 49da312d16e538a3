/*
 * The text of the `trace` files as an array's output options shape it,
 * Linux 6.12's layouts (kernel/trace/trace.c, trace_output.c):
 *
 *   default	 "<comm>-<pid> [cpu] flags secs.usecs: <event text>"
 *   record-tgid a "(tgid)" column after the pid; irq-info off: no flags
 *   context-info off: the event text only, and no header
 *   latency-format "<comm>-<pid> cpu+flags <usecs since reset>us<mark>: ",
 *		 with Linux's latency header; verbose widens it
 *   raw	 "<pid> <cpu> <ns> " then the event's raw text: "type: <id>" for
 *		 events, "# <ip> <text>" for markers, the addresses of function
 *		 records, those and the count and delta of func_repeats
 *   hex, bin	 pid, cpu, ns as hex fields or raw bytes, then "type: <id>"
 *
 * Raw, hex and bin print "type: <id>" for events as Linux does (its
 * TRACE_EVENT()s have no raw forms of their own). Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <kernel/utsname.h>
#include <trace/trace.h>
#include <trace/trace_output.h>
#include <trace/tracer.h>
#include <trace/trace_func_repeats.h>

/* Whether a record is ftrace's own NAME entry (print, function, raw_data). */
static bool is_ftrace(const struct trace_event_call *call, const char *name)
{
	return call && !strcmp(call->system, "ftrace") && !strcmp(call->name, name);
}

/*
 * A kernel stack record (stacktrace trigger or option): one " => symbol"
 * line per frame, with +offset/size under sym-offset and the address
 * under sym-addr, as Linux.
 */
static void print_stack(struct trace_seq *s, const struct ring_buffer_record *rec,
			unsigned long flags)
{
	struct stack_entry st;
	unsigned int n;

	memcpy(&st, rec->data, sizeof(st));
	n = min(st.nr, (rec->length - (u32)sizeof(st)) / (u32)sizeof(unsigned long));
	trace_seq_puts(s, "<stack trace>\n");
	for (unsigned int i = 0; i < n; i++) {
		unsigned long ip;

		memcpy(&ip, rec->data + sizeof(st) + i * sizeof(ip), sizeof(ip));
		trace_seq_puts(s, " => ");
		trace_print_ip_sym(s, ip, flags);
		trace_seq_putc(s, '\n');
	}
}

/* A function tracer record's ip and parent_ip, if rec is one. */
static bool function_ips(const struct trace_event_call *call, const struct ring_buffer_record *rec,
			 unsigned long ip[2])
{
	if (!is_ftrace(call, "function") ||
	    rec->length < sizeof(struct trace_entry) + 2 * sizeof(ip[0]))
		return false;
	memcpy(ip, rec->data + sizeof(struct trace_entry), 2 * sizeof(ip[0]));
	return true;
}

/* A func-no-repeats record, if rec is one. */
static bool func_repeats_record(const struct trace_event_call *call,
				const struct ring_buffer_record *rec, struct func_repeats_entry *e)
{
	if (!is_ftrace(call, "func_repeats") || rec->length < sizeof(*e))
		return false;
	memcpy(e, rec->data, sizeof(*e));
	return true;
}

static u64 ns2usecs(u64 ns)
{
	return (ns + 500) / 1000;
}

/* A time as the default prefix shows it: seconds and microseconds, or the counter's count. */
static void print_time(struct trace_iterator *iter, u64 ts)
{
	if (iter->tr->clock_id == TRACE_CLOCK_COUNTER) {
		trace_seq_printf(&iter->seq, " %12llu", (unsigned long long)ts);
	} else {
		u64 us = ns2usecs(ts);

		trace_seq_printf(&iter->seq, " %5lu.%06lu", (unsigned long)(us / 1000000),
				 (unsigned long)(us % 1000000));
	}
}

/* "func <-parent (repeats: N, last_ts: T)": T the time of the last repeat, as Linux's. */
static void print_func_repeats(struct trace_iterator *iter, const struct ring_buffer_record *rec,
			       const struct func_repeats_entry *e)
{
	struct trace_seq *s = &iter->seq;
	unsigned long flags = iter->tr->trace_flags;

	trace_print_ip_sym(s, e->ip, flags);
	trace_seq_puts(s, " <-");
	trace_print_ip_sym(s, e->parent_ip, flags);
	trace_seq_printf(s, " (repeats: %u, last_ts:", e->count);
	print_time(iter, rec->ts - func_repeats_delta(e));
	trace_seq_puts(s, ")\n");
}

void trace_iter_print_record(struct trace_iterator *iter, const struct ring_buffer_record *rec)
{
	const struct trace_entry *ent = (const void *)rec->data;
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct trace_seq *s = &iter->seq;
	struct func_repeats_entry repeats;
	unsigned long ip[2];

	if (ent->type == TRACE_STACK_ID) {
		print_stack(s, rec, iter->tr->trace_flags);
		return;
	}
	if (function_ips(call, rec, ip)) {
		trace_print_function(s, ip[0], ip[1], iter->tr->trace_flags);
		return;
	}
	if (func_repeats_record(call, rec, &repeats)) {
		print_func_repeats(iter, rec, &repeats);
		return;
	}
	if (is_ftrace(call, "raw_data")) {
		trace_print_raw_data(s, ent, rec->length);
		return;
	}
	/* ftrace's own records (trace_marker) print without an event name, as Linux's. */
	if (call && call->output && !strcmp(call->system, "ftrace") &&
	    trace_event_record_valid(call, ent, rec->length)) {
		call->output(s, &iter->tmp, ent);
		if (s->len && s->buffer[s->len - 1] == '\n')
			return;		/* the marker text brought its own */
	} else {
		trace_print_event(s, &iter->tmp, ent, rec->length);
	}
	trace_seq_putc(s, '\n');
}

/* The raw option: markers and functions have raw forms, everything else its type. */
static void print_raw_record(struct trace_iterator *iter, const struct ring_buffer_record *rec)
{
	const struct trace_entry *ent = (const void *)rec->data;
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct trace_seq *s = &iter->seq;
	struct func_repeats_entry repeats;
	unsigned long ip[2];

	if (is_ftrace(call, "raw_data")) {
		trace_print_raw_data(s, ent, rec->length);
	} else if (is_ftrace(call, "print") && trace_event_record_valid(call, ent, rec->length)) {
		memcpy(&ip[0], rec->data + sizeof(*ent), sizeof(ip[0]));
		trace_seq_printf(s, "# %lx %s", ip[0],
				 (const char *)rec->data + sizeof(*ent) + sizeof(ip[0]));
	} else if (function_ips(call, rec, ip)) {
		trace_seq_printf(s, "%lx %lx\n", ip[0], ip[1]);
	} else if (func_repeats_record(call, rec, &repeats)) {
		trace_seq_printf(s, "%lu %lu %u %llu\n", repeats.ip, repeats.parent_ip, repeats.count,
				 (unsigned long long)func_repeats_delta(&repeats));
	} else {
		trace_seq_printf(s, "type: %u\n", ent->type);
	}
}

/*
 * Linux's SEQ_PUT_HEX_FIELD: a little-endian value as hex digits, most
 * significant first, in groups of up to 8 bytes each followed by a space.
 */
static int put_hex(struct trace_seq *s, const void *mem, size_t len)
{
	const unsigned char *p = mem;

	for (size_t start = 0; start < len; start += 8) {
		size_t n = min(len - start, (size_t)8);

		for (size_t i = n; i-- > 0;)
			trace_seq_printf(s, "%02x", p[start + i]);
		trace_seq_putc(s, ' ');
	}
	return s->full ? -EOVERFLOW : 0;
}

/* hex and bin: the context as fields, then the function's addresses or the type. */
static void print_fields(struct trace_iterator *iter, int cpu,
			 const struct ring_buffer_record *rec, bool hex)
{
	const struct trace_entry *ent = (const void *)rec->data;
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct trace_seq *s = &iter->seq;
	int (*put)(struct trace_seq *, const void *, size_t) = hex ? put_hex : trace_seq_putmem;
	int pid = ent->pid;
	u64 ts = rec->ts;

	if (iter->tr->trace_flags & TRACE_ITER(CONTEXT_INFO)) {
		put(s, &pid, sizeof(pid));
		put(s, &cpu, sizeof(cpu));
		put(s, &ts, sizeof(ts));
	}
	if (is_ftrace(call, "function") && rec->length >= sizeof(*ent) + 2 * sizeof(long))
		put(s, rec->data + sizeof(*ent), 2 * sizeof(long));
	else
		trace_seq_printf(s, "type: %u\n", ent->type);
	if (hex)
		trace_seq_putc(s, '\n');
}

/* Linux's marks after a latency line's time (how long until the next record) or a duration. */
char trace_find_mark(u64 delta_ns)
{
	static const struct { u64 ns; char sym; } marks[] = {
		{ 1000000000ull, '$' }, { 100000000ull, '@' }, { 10000000ull, '*' },
		{ 1000000ull, '#' }, { 100000ull, '!' }, { 10000ull, '+' },
	};

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (delta_ns > marks[i].ns)
			return marks[i].sym;
	return ' ';
}

/* latency-format's prefix: times since the buffer was last emptied. */
static void print_latency_context(struct trace_iterator *iter, int cpu,
				  const struct ring_buffer_record *rec, const char *comm,
				  u64 next_ts)
{
	const struct trace_entry *ent = (const void *)rec->data;
	struct trace_seq *s = &iter->seq;
	bool in_ns = iter->tr->clock_id != TRACE_CLOCK_COUNTER;
	u64 abs = rec->ts - iter->time_start, rel = next_ts - rec->ts;

	if (in_ns) {
		abs = ns2usecs(abs);
		rel = ns2usecs(rel);
	}
	if (!(iter->tr->trace_flags & TRACE_ITER(VERBOSE))) {
		trace_seq_printf(s, "%8.8s-%-7d %3d", comm, ent->pid, cpu);
		trace_print_lat_fmt(s, ent);
		if (in_ns)
			trace_seq_printf(s, " %4lluus%c: ", (unsigned long long)abs,
					 trace_find_mark(rel * 1000));
		else
			trace_seq_printf(s, " %4llu: ", (unsigned long long)abs);
		return;
	}
	trace_seq_printf(s, "%16s %7d %3d %d %08x %08lx ", comm, ent->pid, cpu, ent->flags,
			 ent->preempt_count & 0xf, iter->idx);
	if (in_ns)
		trace_seq_printf(s, "[%08llx] %llu.%03llums (+%llu.%03llums): ",
				 (unsigned long long)ns2usecs(rec->ts),
				 (unsigned long long)(abs / 1000), (unsigned long long)(abs % 1000),
				 (unsigned long long)(rel / 1000), (unsigned long long)(rel % 1000));
	else
		trace_seq_printf(s, "[%016llx] %llu (+%llu): ", (unsigned long long)rec->ts,
				 (unsigned long long)abs, (unsigned long long)rel);
}

/* The default prefix, with the tgid and flags columns as the options say. */
static void print_context(struct trace_iterator *iter, int cpu,
			  const struct ring_buffer_record *rec, const char *comm)
{
	const struct trace_entry *ent = (const void *)rec->data;
	unsigned long flags = iter->tr->trace_flags;
	struct trace_seq *s = &iter->seq;

	if (!(flags & TRACE_ITER(RECORD_TGID)) && (flags & TRACE_ITER(IRQ_INFO)) && iter->tr->clock_id != TRACE_CLOCK_COUNTER) {
		trace_print_context(s, ent, comm, cpu, rec->ts);
		return;
	}
	trace_seq_printf(s, "%16s-%-7d ", comm, ent->pid);
	if (flags & TRACE_ITER(RECORD_TGID)) {
		pid_t tgid = trace_find_tgid(ent->pid);

		if (tgid)
			trace_seq_printf(s, "(%7d) ", tgid);
		else
			trace_seq_puts(s, "(-------) ");
	}
	trace_seq_printf(s, "[%03d] ", cpu);
	if (flags & TRACE_ITER(IRQ_INFO))
		trace_print_lat_fmt(s, ent);
	print_time(iter, rec->ts);
	trace_seq_puts(s, ": ");
}

void trace_iter_print_line(struct trace_iterator *iter, int cpu,
			   const struct ring_buffer_record *rec, u64 next_ts)
{
	const struct trace_entry *ent = (const void *)rec->data;
	unsigned long flags = iter->tr->trace_flags;
	struct trace_seq *s = &iter->seq;
	char comm[16];

	if (flags & (TRACE_ITER(BIN) | TRACE_ITER(HEX))) {
		print_fields(iter, cpu, rec, !(flags & TRACE_ITER(BIN)));
		return;
	}
	if (flags & TRACE_ITER(RAW)) {
		if (flags & TRACE_ITER(CONTEXT_INFO))
			trace_seq_printf(s, "%d %d %llu ", ent->pid, cpu, (unsigned long long)rec->ts);
		print_raw_record(iter, rec);
		return;
	}
	if (tracer_own_layout(iter->tr)) {
		iter->tr->current_trace->print_line(iter, cpu, rec);
		return;
	}
	if (flags & TRACE_ITER(CONTEXT_INFO)) {
		trace_find_cmdline(ent->pid, comm);
		if (flags & TRACE_ITER(LATENCY_FMT))
			print_latency_context(iter, cpu, rec, comm, next_ts);
		else
			print_context(iter, cpu, rec, comm);
	}
	trace_iter_print_record(iter, rec);
}

void trace_iter_print_latency_header(struct trace_iterator *iter, unsigned long entries,
				     unsigned long written)
{
	static const struct trace_max_data none;
	struct trace_seq *s = &iter->seq;
	/* A latency tracer's snapshot has its section's facts; the live buffer none. */
	const struct trace_max_data *m = iter->max ? &iter->tr->max_data : &none;
	const char *fmt = iter->tr->trace_flags & TRACE_ITER(SYM_OFFSET) ? "%pS" : "%ps";

	trace_seq_printf(s, "# %s latency trace v1.1.5 on %s\n", tracing_current_tracer(iter->tr),
			 UTS_RELEASE);
	trace_seq_puts(s, "# --------------------------------------------------------------------\n");
	trace_seq_printf(s, "# latency: %llu us, #%lu/%lu, CPU#%d | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:%u)\n",
			 (unsigned long long)(m->latency / 1000), entries, written, m->cpu,
			 nr_cpu_ids);
	trace_seq_printf(s, "#    -----------------\n"
			    "#    | task: %.16s-%d (uid:0 nice:%d policy:0 rt_prio:0)\n"
			    "#    -----------------\n", m->comm, m->pid, m->nice);
	if (m->critical_start) {
		trace_seq_puts(s, "#  => started at: ");
		trace_seq_printf(s, fmt, (void *)m->critical_start);
		trace_seq_puts(s, "\n#  => ended at:   ");
		trace_seq_printf(s, fmt, (void *)m->critical_end);
		trace_seq_puts(s, "\n#\n");
	}
	trace_seq_puts(s, "#\n");
}

/* latency-format's header, for a buffer with entries. */
static void print_latency_header(struct trace_iterator *iter, unsigned long entries,
				 unsigned long written)
{
	trace_iter_print_latency_header(iter, entries, written);
	if (iter->tr->trace_flags & TRACE_ITER(VERBOSE))
		return;
	trace_seq_puts(&iter->seq,
		"#                    _------=> CPU#            \n"
		"#                   / _-----=> irqs-off/BH-disabled\n"
		"#                  | / _----=> need-resched    \n"
		"#                  || / _---=> hardirq/softirq \n"
		"#                  ||| / _--=> preempt-depth   \n"
		"#                  |||| / _-=> migrate-disable \n"
		"#                  ||||| /     delay           \n"
		"#  cmd     pid     |||||| time  |   caller     \n"
		"#     \\   /        ||||||  \\    |    /       \n");
}

/* The column legend without the flags columns (irq-info off), tgid or not. */
static void print_plain_help(struct trace_seq *s, bool tgid)
{
	trace_seq_printf(s, "#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION\n",
			 tgid ? "   TGID   " : "");
	trace_seq_printf(s, "#              | |      %s   |         |         |\n",
			 tgid ? "     |    " : "");
}

/* The legend with the flags columns, shifted right by the tgid column. */
static void print_irq_help(struct trace_seq *s, bool tgid)
{
	static const char *const legend[] = {
		"  _-----=> irqs-off/BH-disabled", " / _----=> need-resched",
		"| / _---=> hardirq/softirq", "|| / _--=> preempt-depth",
		"||| / _-=> migrate-disable", "|||| /     delay",
	};
	int pad = tgid ? 12 : 2;

	for (size_t i = 0; i < ARRAY_SIZE(legend); i++)
		trace_seq_printf(s, "#                            %*s%s\n", pad, "", legend[i]);
	trace_seq_printf(s, "#           TASK-PID  %s CPU#  |||||  TIMESTAMP  FUNCTION\n",
			 tgid ? "     TGID   " : "  ");
	trace_seq_printf(s, "#              | |    %s   |   |||||     |         |\n",
			 tgid ? "       |    " : "  ");
}

void trace_iter_print_header(struct trace_iterator *iter, unsigned long entries,
			     unsigned long written)
{
	unsigned long flags = iter->tr->trace_flags;
	struct trace_seq *s = &iter->seq;
	const struct tracer *t = iter->tr->current_trace;

	trace_seq_printf(s, "# tracer: %s\n#\n", tracing_current_tracer(iter->tr));
	if (!(flags & TRACE_ITER(CONTEXT_INFO)))
		return;
	if (tracer_own_layout(iter->tr)) {
		/* Its legend, after latency-format's header (when there are entries). */
		if (flags & TRACE_ITER(LATENCY_FMT)) {
			if (!entries)
				return;
			trace_iter_print_latency_header(iter, entries, written);
		}
		t->print_header(iter);
		return;
	}
	if (flags & TRACE_ITER(LATENCY_FMT)) {
		if (entries)
			print_latency_header(iter, entries, written);
		return;
	}
	if (flags & TRACE_ITER(VERBOSE))
		return;
	trace_seq_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%u\n#\n",
			 entries, written, nr_cpu_ids);
	if (flags & TRACE_ITER(IRQ_INFO))
		print_irq_help(s, flags & TRACE_ITER(RECORD_TGID));
	else
		print_plain_help(s, flags & TRACE_ITER(RECORD_TGID));
}
