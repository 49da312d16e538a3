/*
 * The small tunables of a trace array, with Linux 6.12's texts and errors:
 * tracing_thresh (top level), tracing_max_latency, buffer_percent,
 * buffer_subbuf_size_kb, timestamp_mode and free_buffer. Numbers are
 * kstrtoul's (trace_parse_ulong): blanks, signs and overflow are EINVAL
 * or ERANGE and leave the old value.
 *
 * The two latencies are what the latency tracers (trace/trace_latency.h)
 * compare with: writing 0 to tracing_max_latency starts the search for a
 * max over. buffer_percent is the watermark poll(2) applies to a CPU's
 * trace_pipe_raw (trace_files.c, as Linux's trace_poll).
 * buffer_subbuf_size_kb resizes the ring buffer's sub-buffers.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/trace_files.h>
#include <trace/trace_latency.h>

/* tracing_thresh in ns: one for the whole system, as Linux's (the latency tracers read it). */
unsigned long tracing_thresh;

/*
 * Both latency files hold nanoseconds and speak microseconds, Linux's
 * tracing_nsecs_read/write: the write multiplies by 1000 (wrapping, as
 * Linux's does), the read divides; all ones reads as -1.
 */
static ssize_t nsecs_read(unsigned long ns, char *buf, size_t count, loff_t *pos)
{
	char text[32];
	int n;

	if (ns == (unsigned long)-1)
		n = snprintf(text, sizeof(text), "-1\n");
	else
		n = snprintf(text, sizeof(text), "%ld\n", (long)(ns / 1000));
	return simple_read_from_buffer(buf, count, pos, text, (size_t)n);
}

static ssize_t nsecs_write(unsigned long *ns, const char *buf, size_t count)
{
	unsigned long us;
	int ret = trace_parse_ulong(buf, count, &us);

	if (ret)
		return ret;
	WRITE_ONCE(*ns, us * 1000);
	return (ssize_t)count;
}

static ssize_t tracing_thresh_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return nsecs_read(READ_ONCE(tracing_thresh), buf, count, pos);
}

static ssize_t tracing_thresh_write(struct file *file, const char *buf, size_t count,
				    loff_t *pos)
{
	return nsecs_write(&tracing_thresh, buf, count);
}

static const struct file_operations tracing_thresh_fops = {
	.read = tracing_thresh_read,
	.write = tracing_thresh_write,
};

static ssize_t max_latency_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return nsecs_read(READ_ONCE(file_data(file)->tr->max_latency), buf, count, pos);
}

static ssize_t max_latency_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return nsecs_write(&file_data(file)->tr->max_latency, buf, count);
}

static const struct file_operations max_latency_fops = {
	.open = tr_open,
	.read = max_latency_read,
	.write = max_latency_write,
	.release = tr_release,
};

/* buffer_percent: 0..100 (ERANGE never: Linux says EINVAL above 100). */
static int buffer_percent_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", ((struct trace_file_data *)m->private)->tr->buffer_percent);
	return 0;
}
TRACE_SHOW_FILE(buffer_percent)

static ssize_t buffer_percent_write(struct file *file, const char *buf, size_t count,
				    loff_t *pos)
{
	unsigned long val;
	int ret = trace_parse_ulong(buf, count, &val);

	if (ret)
		return ret;
	if (val > 100)
		return -EINVAL;
	WRITE_ONCE(file_data(file)->tr->buffer_percent, (unsigned int)val);
	return (ssize_t)count;
}

static const struct file_operations buffer_percent_fops = {
	.open = buffer_percent_open,
	.read = seq_read,
	.write = buffer_percent_write,
	.release = tr_single_release,
};

/*
 * buffer_subbuf_size_kb: the KiB asked for round up to a power-of-two
 * number of 4 KiB pages, 1 to 128 of them (Linux's orders 0..7); 0 and
 * more than 512 KiB are EINVAL. A change empties the buffers, as Linux's.
 */
static int subbuf_size_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = ((struct trace_file_data *)m->private)->tr;

	seq_printf(m, "%u\n", RB_SUBBUF_SIZE(READ_ONCE(tr->subbuf_order)) / 1024);
	return 0;
}
TRACE_SHOW_FILE(subbuf_size)

static ssize_t subbuf_size_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	unsigned long kb, pages;
	unsigned int order = 0;
	int ret = trace_parse_ulong(buf, count, &kb);

	if (ret)
		return ret;
	if (!kb || kb > RB_SUBBUF_SIZE(RB_SUBBUF_MAX_ORDER) / 1024)
		return -EINVAL;
	pages = DIV_ROUND_UP(kb * 1024, RB_PAGE_SIZE);
	while ((1ul << order) < pages)
		order++;
	trace_types_lock();
	ret = tracing_set_subbuf_order(file_data(file)->tr, order);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations subbuf_size_fops = {
	.open = subbuf_size_open,
	.read = seq_read,
	.write = subbuf_size_write,
	.release = tr_single_release,
};

/*
 * timestamp_mode: Linux 6.12 records deltas unless something asks for
 * absolute time stamps, which nothing in Spoor (nor, since 6.x, a hist
 * trigger) does. Read-only: a write is EINVAL.
 */
static ssize_t timestamp_mode_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	static const char text[] = "[delta] absolute\n";

	return simple_read_from_buffer(buf, count, pos, text, sizeof(text) - 1);
}

static const struct file_operations timestamp_mode_fops = {
	.open = tr_open,
	.read = timestamp_mode_read,
	.release = tr_release,
};

/*
 * free_buffer: writes are taken and ignored; closing the file shrinks the
 * buffer to its minimum, stopping tracing first if disable_on_free is
 * set, as Linux's (meant for a tool that keeps it open while it runs).
 */
static ssize_t free_buffer_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return (ssize_t)count;
}

static int free_buffer_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = file_data(file)->tr;

	if (tr->trace_flags & TRACE_ITER(STOP_ON_FREE))
		tracer_tracing_on(tr, false);
	trace_types_lock();
	tracing_resize(tr, 0, RING_BUFFER_ALL_CPUS);
	trace_types_unlock();
	return tr_release(inode, file);
}

static const struct file_operations free_buffer_fops = {
	.open = tr_open,
	.write = free_buffer_write,
	.release = free_buffer_release,
};

const struct trace_file_spec trace_tunable_files[] = {
	{ "tracing_max_latency", TRACE_MODE_WRITE, &max_latency_fops },
	{ "buffer_percent", TRACE_MODE_WRITE, &buffer_percent_fops },
	{ "buffer_subbuf_size_kb", TRACE_MODE_WRITE, &subbuf_size_fops },
	{ "timestamp_mode", TRACE_MODE_READ, &timestamp_mode_fops },
	{ "free_buffer", 0200, &free_buffer_fops },
	{ }
};

const struct trace_file_spec trace_tunable_top_files[] = {
	{ "tracing_thresh", TRACE_MODE_WRITE, &tracing_thresh_fops },
	{ }
};
