/*
 * Turning records into text: the trace_seq a line is built in, the
 * helpers TP_printk() uses, and the pieces of a `trace` file line
 * (Linux's layout, see linux-6.18-trace-sample.txt):
 *
 *             bash-10660   [000] d..2.  1299.362696: sched_switch: prev_comm=...
 *   <comm>-<pid>, [cpu], flags, secs.usecs: event name: TP_printk text
 *
 * Pure.
 */
#ifndef TRACE_TRACE_OUTPUT_H
#define TRACE_TRACE_OUTPUT_H

#include <kernel/types.h>
#include <trace/trace_event.h>

/* Linux 6.12's: a 4 KiB trace_marker write and its line prefix fit one line. */
#define TRACE_SEQ_BUFFER_SIZE	8192

/*
 * Text being built. A write that does not fit leaves the text as it was
 * and sets full; everything after that is refused too, so a cut line is
 * never half-printed.
 */
struct trace_seq {
	unsigned int len;
	bool full;
	char buffer[TRACE_SEQ_BUFFER_SIZE];	/* NUL-terminated at len */
};

void trace_seq_init(struct trace_seq *s);
/* 0, or -EOVERFLOW when it did not fit. */
int trace_seq_printf(struct trace_seq *s, const char *fmt, ...) __printf(2, 3);
int trace_seq_vprintf(struct trace_seq *s, const char *fmt, va_list ap) __printf(2, 0);
int trace_seq_puts(struct trace_seq *s, const char *str);
int trace_seq_putc(struct trace_seq *s, char c);
/* Bytes as they are (the bin option), NULs included. */
int trace_seq_putmem(struct trace_seq *s, const void *mem, size_t len);

/*
 * __print_flags: names of the set flags, joined by delim, in table order
 * (a multi-bit mask matches when all its bits are set and consumes them);
 * bits left over are appended as 0x<hex>. Written into p as a string of
 * its own; returns it ("" when p is full).
 */
const char *trace_print_flags_seq(struct trace_seq *p, const char *delim, unsigned long flags,
				  const struct trace_print_flags *flag_array);
/* __print_symbolic: the name whose value equals val, else 0x<hex>. */
const char *trace_print_symbols_seq(struct trace_seq *p, unsigned long val,
				    const struct trace_print_flags *symbol_array);

/*
 * The flags column: irqs-off/BH-disabled (d D b X .), need-resched
 * (N n p .), hardirq/softirq (Z z H h s .), preempt depth and
 * migrate-disable depth (hex digit or .), e.g. "d..2.".
 */
int trace_print_lat_fmt(struct trace_seq *s, const struct trace_entry *ent);

/*
 * The common prefix of a line: "%16s-%-7d [%03d] <flags> %5lu.%06lu: ".
 * comm is the task's name as saved_cmdlines knows it ("<idle>" for pid 0,
 * "<...>" when unknown); ts in nanoseconds, printed rounded to usecs.
 */
int trace_print_context(struct trace_seq *s, const struct trace_entry *ent, const char *comm,
			int cpu, u64 ts);

/*
 * "<name>: <TP_printk text>" for a record of len bytes, looked up by its
 * common_type. Unknown ids print "Unknown type <id>" and records whose
 * dynamic fields point outside them print "<name>: [bad record]", as no
 * record may make output read past its end. tmp is scratch space.
 */
int trace_print_event(struct trace_seq *s, struct trace_seq *tmp,
		      const struct trace_entry *ent, size_t len);
/*
 * A code address as Linux's seq_print_ip_sym prints it under the options:
 * the symbol (symbol+off/size with sym-offset), " <%016lx>" after it with
 * sym-addr; "0" for none. flags: TRACE_ITER_* bits.
 */
void trace_print_ip_sym(struct trace_seq *s, unsigned long ip, unsigned long flags);
/* A function tracer record: "func", then " <-parent" with print-parent, then a newline. */
void trace_print_function(struct trace_seq *s, unsigned long ip, unsigned long parent_ip,
			  unsigned long flags);
/* A record of len bytes whose every field lies inside it (used by trace_print_event). */
bool trace_event_record_valid(const struct trace_event_call *call,
			      const struct trace_entry *ent, size_t len);

/*
 * A trace_marker_raw record (ftrace:raw_data, trace/trace_marker_raw.c):
 * the writer's 32-bit id and the bytes after it.
 */
struct raw_data_entry {
	struct trace_entry ent;
	u32 id;
	char buf[];
};
/*
 * Its line: "# <id in hex> buf:" and every byte after the id, the ring
 * buffer's padding included, as Linux prints it (in raw mode too).
 */
void trace_print_raw_data(struct trace_seq *s, const struct trace_entry *ent, size_t len);

/* The help an empty or freed snapshot file shows after its "# tracer:" lines. */
int trace_print_snapshot_help(struct trace_seq *s, bool allocated, bool per_cpu);

/*
 * The comment block at the top of the `trace` file: tracer name,
 * entries-in-buffer/entries-written, #P, and the column legend.
 */
int trace_print_header(struct trace_seq *s, const char *tracer, unsigned long entries,
		       unsigned long written, unsigned int nr_cpus);

#endif
