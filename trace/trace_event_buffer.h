/*
 * How a TRACE_EVENT probe writes its record into an instance's ring
 * buffer. Without a filter the record is built in place: reserve, fill,
 * commit. With a filter it is built in a per-CPU, per-context scratch
 * record (trace_buffered_event_get), tested, and copied into the ring
 * only if it passes, as Linux's buffered events do: the ring never holds
 * a record that was then thrown away. Used by the probes
 * trace/define_trace.h generates; inline, so only files that create
 * tracepoints link the ring buffer.
 */
#ifndef TRACE_TRACE_EVENT_BUFFER_H
#define TRACE_TRACE_EVENT_BUFFER_H

#include <kernel/types.h>
#include <kernel/preempt.h>
#include <trace/ring_buffer.h>
#include <trace/trace_event.h>
#include <trace/trace_filter.h>

/* One record being written. */
struct trace_event_buffer {
	struct trace_event_file *trace_file;
	struct event_filter *filter;	/* set: entry is scratch, not ring memory */
	struct trace_entry *entry;
	size_t len;
};

/*
 * Scratch for one record of up to RB_MAX_DATA bytes on this CPU in this
 * context (trace/trace_events.c); NULL if the context's scratch is in use
 * (a probe re-entered) or len is too big. Call with preemption off.
 */
void *trace_buffered_event_get(size_t len);
void trace_buffered_event_put(void);

static inline bool trace_event_file_dropped(const struct trace_event_file *file)
{
	unsigned long flags = READ_ONCE(file->flags);

	return !(flags & EVENT_FILE_FL_ENABLED) || (flags & EVENT_FILE_FL_SOFT_DISABLED);
}

/* The common fields of a record written now (Linux's tracing_generic_entry_update). */
static inline void tracing_generic_entry_update(struct trace_entry *entry, u16 type,
						unsigned int trace_ctx)
{
	entry->type = type;
	entry->flags = (u8)(trace_ctx >> 16);
	entry->preempt_count = (u8)trace_ctx;
	entry->pid = tracing_task_pid();
}

/* Room for a record of len bytes, common fields filled; NULL when it cannot be written. */
static inline void *trace_event_buffer_reserve(struct trace_event_buffer *fbuffer,
					       struct trace_event_file *file, size_t len)
{
	unsigned int trace_ctx = tracing_gen_ctx();
	struct rb_event *event;

	fbuffer->trace_file = file;
	fbuffer->len = len;
	fbuffer->filter = READ_ONCE(file->filter);
	if (fbuffer->filter) {
		preempt_disable();
		fbuffer->entry = trace_buffered_event_get(len);
		if (!fbuffer->entry) {
			preempt_enable();
			return NULL;
		}
	} else {
		event = ring_buffer_lock_reserve(file->buffer, len);
		if (!event)
			return NULL;
		fbuffer->entry = ring_buffer_event_data(event);
	}
	tracing_generic_entry_update(fbuffer->entry, file->event_call->id, trace_ctx);
	return fbuffer->entry;
}

/* Publish the record; a filtered one only if it passes. */
static inline void trace_event_buffer_commit(struct trace_event_buffer *fbuffer)
{
	if (!fbuffer->filter) {
		ring_buffer_unlock_commit(fbuffer->trace_file->buffer);
		return;
	}
	if (filter_match(fbuffer->filter, fbuffer->entry))
		ring_buffer_write(fbuffer->trace_file->buffer, fbuffer->len, fbuffer->entry);
	trace_buffered_event_put();
	preempt_enable();
}

#endif
