/*
 * trace_marker_raw: each write is one ftrace:raw_data record, a binary
 * marker for tools: its first four bytes are an id, the rest a payload,
 * as Linux's (Documentation/trace/ftrace.rst); trace_print_raw_data
 * (trace/trace_output.c) prints them. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/trace_files.h>
#include <trace/trace_event_buffer.h>

/* ftrace:raw_data (trace/events/ftrace.tev, defined in trace/trace_print.c). */
extern struct trace_event_call event_raw_data;

/*
 * Linux reserves the whole write after the id field (so the id's four
 * bytes count twice) and at least room for an id and "<faulted>": the
 * record, and so the bytes its line prints, are that long.
 */
#define RAW_MIN_PAYLOAD		(sizeof(u32) + sizeof("<faulted>") - 1)

static ssize_t trace_marker_raw_write(struct file *file, const char *buf, size_t count,
				      loff_t *pos)
{
	struct trace_array *tr = file_data(file)->tr;
	struct trace_buffer *buffer;
	struct raw_data_entry *entry;
	struct rb_event *event;
	unsigned int trace_ctx;
	size_t size;

	if (!(tr->trace_flags & TRACE_ITER(MARKERS)) || count < sizeof(u32))
		return -EINVAL;
	size = sizeof(*entry) + max(count, RAW_MIN_PAYLOAD);
	/* Linux 6.12 takes what a 4 KiB sub-buffer holds, whatever the buffer's size. */
	if (size > RB_MAX_DATA)
		return -EINVAL;
	if (!READ_ONCE(tr->tracing_on))
		return -EBADF;
	trace_ctx = tracing_gen_ctx();
	this_cpu_write(trace_cmdline_save, true);
	preempt_disable_notrace();
	buffer = READ_ONCE(tr->buffer);
	event = ring_buffer_lock_reserve(buffer, size);
	if (!event) {
		preempt_enable_notrace();
		return -EBADF;
	}
	entry = ring_buffer_event_data(event);
	memset(entry, 0, ring_buffer_event_length(event));	/* the padding prints too */
	tracing_generic_entry_update(&entry->ent, event_raw_data.id, trace_ctx);
	memcpy(&entry->id, buf, count);
	ring_buffer_unlock_commit(buffer);
	preempt_enable_notrace();
	return (ssize_t)count;
}

static const struct file_operations trace_marker_raw_fops = {
	.open = tr_open,
	.write = trace_marker_raw_write,
	.release = tr_release,
};

const struct trace_file_spec trace_marker_raw_files[] = {
	{ "trace_marker_raw", 0220, &trace_marker_raw_fops },
	{ }
};
