/*
 * The snapshot files: `snapshot` of an array and per_cpu/cpuN/snapshot.
 * Reading shows the spare buffer as `trace` shows the live one, or, when
 * it is empty or freed, Linux's help text. Writing a number drives it:
 * 0 frees it, 1 allocates it if needed and swaps it with the live buffer,
 * anything else empties it. A CPU's file can only empty that CPU's part:
 * 0 and 1 are EINVAL there, as on a Linux without per-CPU buffer swaps.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/errno.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_files.h>

static int snapshot_open(struct inode *inode, struct file *file)
{
	return trace_open_buffer(inode, file, true);
}

static ssize_t snapshot_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct trace_seq *s;
	ssize_t n;

	if (!file->private_data) {
		/* No spare buffer: no iterator either, only the help (too big for the stack). */
		s = kmalloc(sizeof(*s), GFP_KERNEL);
		if (!s)
			return -ENOMEM;
		trace_seq_init(s);
		trace_seq_puts(s, "# tracer: nop\n#\n");
		trace_print_snapshot_help(s, false, file_data(file)->cpu != RING_BUFFER_ALL_CPUS);
		n = simple_read_from_buffer(buf, count, pos, s->buffer, s->len);
		kfree(s);
		return n;
	}
	n = trace_iter_read(file->private_data, buf, count);
	*pos += n;
	return n;
}

static ssize_t snapshot_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_file_data *d = file_data(file);
	struct trace_array *tr = d->tr;
	bool per_cpu = d->cpu != RING_BUFFER_ALL_CPUS;
	unsigned long val;
	int ret;

	ret = trace_parse_ulong(buf, count, &val);
	if (ret)
		return ret;
	trace_types_lock();
	/* A latency tracer owns the snapshot buffer: its max trace (Linux's use_max_tr). */
	if (tr->current_trace && tr->current_trace->print_max)
		ret = -EBUSY;
	else if (val <= 1 && per_cpu)
		ret = -EINVAL;
	else if (val == 0) {
		tracing_free_snapshot(tr);
	} else if (val == 1) {
		ret = tracing_alloc_snapshot(tr);
		if (!ret)
			ret = tracing_snapshot(tr);
	} else if (tr->snapshot) {
		if (per_cpu)
			ring_buffer_reset_cpu(tr->snapshot, d->cpu);
		else
			ring_buffer_reset(tr->snapshot);
	}
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations snapshot_fops = {
	.open = snapshot_open,
	.read = snapshot_read,
	.write = snapshot_write,
	.release = trace_iter_release,
};

const struct trace_file_spec trace_snapshot_files[] = {
	{ "snapshot", TRACE_MODE_WRITE, &snapshot_fops },
	{ }
};

const struct trace_file_spec trace_snapshot_cpu_files[] = {
	{ "snapshot", TRACE_MODE_WRITE, &snapshot_fops },
	{ }
};
