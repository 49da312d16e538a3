/*
 * Reading a trace array as text, one line at a time: the `trace` files
 * (non-consuming: per-CPU iterators merged by time stamp) and the
 * `trace_pipe` files (consuming the oldest event of any CPU). The text of
 * the header and of each record follows the array's options
 * (trace/trace_iter_print.c). Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/percpu.h>
#include <trace/trace.h>
#include <trace/trace_output.h>
#include <trace/tracer.h>

struct trace_iterator *trace_iter_open(struct trace_array *tr, struct trace_buffer *buffer,
				       int cpu, bool consume)
{
	size_t n = (size_t)nr_cpu_ids;
	/* One record per CPU, and one for the line being printed (latency-format). */
	struct trace_iterator *iter = kzalloc(sizeof(*iter) + (n + 1) * sizeof(iter->rec[0]),
					      GFP_KERNEL);

	if (!iter)
		return NULL;
	iter->tr = tr;
	iter->buffer = buffer;
	iter->cpu_file = cpu;
	iter->consume = consume;
	iter->header = !consume;
	iter->time_start = tr->time_start;
	for (int c = 0; !consume && c < (int)n; c++) {
		if (cpu != RING_BUFFER_ALL_CPUS && c != cpu)
			continue;
		iter->iters[c] = ring_buffer_read_start(buffer, c);
		if (!iter->iters[c]) {
			trace_iter_close(iter);
			return NULL;
		}
	}
	return iter;
}

void trace_iter_close(struct trace_iterator *iter)
{
	if (!iter)
		return;
	for (int c = 0; c < (int)nr_cpu_ids; c++)
		if (iter->iters[c])
			ring_buffer_read_finish(iter->iters[c]);
	kfree(iter->private);
	kfree(iter);
}

void trace_iter_skip_before(struct trace_iterator *iter, u64 ts)
{
	struct ring_buffer_record *rec = &iter->rec[nr_cpu_ids];

	iter->time_start = ts;
	for (int c = 0; c < (int)nr_cpu_ids; c++) {
		if (!iter->iters[c])
			continue;
		while (!ring_buffer_iter_peek(iter->iters[c], rec) && rec->ts < ts) {
			ring_buffer_iter_advance(iter->iters[c]);
			iter->skipped++;
		}
	}
}

/*
 * entries and entries-written of the iterator's buffer (one CPU or all),
 * as the header counts them: with records skipped, the ones shown (Linux
 * then leaves the overruns out too).
 */
static void buffer_counts(struct trace_iterator *iter, unsigned long *entries,
			  unsigned long *written)
{
	struct ring_buffer_stats st;

	*entries = *written = 0;
	for (int c = 0; c < (int)nr_cpu_ids; c++) {
		if ((iter->cpu_file != RING_BUFFER_ALL_CPUS && c != iter->cpu_file) ||
		    ring_buffer_stats_cpu(iter->buffer, c, &st))
			continue;
		*entries += st.entries;
		*written += st.entries + (iter->skipped ? 0 : st.overrun);
	}
	*entries -= min(*entries, iter->skipped);
	if (iter->skipped)
		*written = *entries;
}

/* Whether cpu has a next event, then in iter->rec[cpu]. */
static bool peek_cpu(struct trace_iterator *iter, int c)
{
	if (!iter->have[c]) {
		int ret = iter->consume ? ring_buffer_peek(iter->buffer, c, &iter->rec[c])
					: ring_buffer_iter_peek(iter->iters[c], &iter->rec[c]);
		iter->have[c] = ret == 0;
	}
	return iter->have[c];
}

/* The CPU whose next event is oldest, its record in iter->rec[cpu]; -1 when all are read. */
static int next_cpu(struct trace_iterator *iter)
{
	int best = -1;

	for (int c = 0; c < (int)nr_cpu_ids; c++) {
		if (iter->cpu_file != RING_BUFFER_ALL_CPUS && c != iter->cpu_file)
			continue;
		if (peek_cpu(iter, c) && (best < 0 || iter->rec[c].ts < iter->rec[best].ts))
			best = c;
	}
	return best;
}

/* Past cpu's record in iter->rec[cpu] (just taken out). */
static void advance_cpu(struct trace_iterator *iter, int cpu)
{
	iter->have[cpu] = false;
	if (iter->consume)
		ring_buffer_consume(iter->buffer, cpu, &iter->rec[cpu]);
	else
		ring_buffer_iter_advance(iter->iters[cpu]);
}

const struct ring_buffer_record *trace_iter_peek(struct trace_iterator *iter, int cpu)
{
	return peek_cpu(iter, cpu) ? &iter->rec[cpu] : NULL;
}

void trace_iter_skip(struct trace_iterator *iter, int cpu)
{
	if (peek_cpu(iter, cpu))
		advance_cpu(iter, cpu);
}

int trace_iter_next_line(struct trace_iterator *iter)
{
	struct ring_buffer_record *rec;
	const struct trace_entry *ent;
	u64 next_ts;
	int cpu;

	trace_seq_init(&iter->seq);
	iter->seq_pos = 0;
	if (iter->header) {
		unsigned long entries, written;

		iter->header = false;
		if (iter->snapshot && trace_iter_empty(iter)) {
			trace_seq_puts(&iter->seq, "# tracer: nop\n#\n");
			trace_print_snapshot_help(&iter->seq, true,
						  iter->cpu_file != RING_BUFFER_ALL_CPUS);
			return 0;
		}
		buffer_counts(iter, &entries, &written);
		trace_iter_print_header(iter, entries, written);
		return 0;
	}
	cpu = next_cpu(iter);
	if (cpu < 0)
		return -EAGAIN;
	rec = &iter->rec[cpu];
	advance_cpu(iter, cpu);
	if (rec->length < sizeof(*ent)) {
		trace_seq_puts(&iter->seq, "[bad record]\n");
		return 0;
	}
	ent = (const void *)rec->data;
	if (rec->lost_events && iter->consume)
		trace_seq_printf(&iter->seq, "CPU:%d [LOST %lu EVENTS]\n", cpu, rec->lost_events);
	next_ts = rec->ts;
	/* Kept aside: peeks (the next record's time, a tracer's lookahead) reuse rec[cpu]. */
	memcpy(&iter->rec[nr_cpu_ids], rec, offsetof(struct ring_buffer_record, data) + rec->length);
	rec = &iter->rec[nr_cpu_ids];
	if (iter->tr->trace_flags & TRACE_ITER(LATENCY_FMT)) {
		/* Its line shows the time to the next record. */
		int next = next_cpu(iter);

		if (next >= 0)
			next_ts = iter->rec[next].ts;
	}
	trace_iter_print_line(iter, cpu, rec, next_ts);
	iter->idx++;
	return 0;
}

bool trace_iter_empty(struct trace_iterator *iter)
{
	for (int c = 0; c < (int)nr_cpu_ids; c++) {
		if (iter->cpu_file != RING_BUFFER_ALL_CPUS && c != iter->cpu_file)
			continue;
		if (iter->have[c] || !ring_buffer_empty_cpu(iter->buffer, c))
			return false;
	}
	return true;
}
