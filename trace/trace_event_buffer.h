/*
 * How a TRACE_EVENT probe writes its record into an instance's ring
 * buffer. Without a filter, or with triggers that may all run on a
 * reserved record (hist without actions), the record is built in place:
 * reserve, fill, triggers, commit. Otherwise it is built in a per-CPU,
 * per-context scratch record (trace_buffered_event_get), shown to the
 * triggers, tested, and copied into the ring only if it passes, as Linux's
 * buffered events do: the ring never holds a record that was then thrown
 * away. Used by the probes
 * trace/define_trace.h generates; inline, so only files that create
 * tracepoints link the ring buffer.
 */
#ifndef TRACE_TRACE_EVENT_BUFFER_H
#define TRACE_TRACE_EVENT_BUFFER_H

#include <kernel/types.h>
#include <kernel/preempt.h>
#include <kernel/jump_label.h>
#include <trace/ring_buffer.h>
#include <trace/trace_event.h>
#include <trace/trace_filter.h>
#include <trace/trace.h>

/* One record being written. */
struct trace_event_buffer {
	struct trace_event_file *trace_file;
	struct trace_buffer *buffer;	/* read once: a snapshot swap cannot split a record */
	bool scratch;			/* entry is scratch, not ring memory */
	unsigned long flags;		/* the file's flags when the record started */
	struct event_filter *filter;
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

/*
 * tp_printk (a boot option, trace/trace_boot.c): each record an event
 * commits is also printed on the console, as Linux's. Behind a static key,
 * so it costs one NOP while off (trace/trace_events.c).
 */
DECLARE_STATIC_KEY_FALSE(tracepoint_printk_key);
/*
 * On while an array has the stacktrace option set: each event it records
 * is followed by a kernel stack record (trace/trace_events.c).
 */
DECLARE_STATIC_KEY_FALSE(trace_event_stack_key);
void trace_event_stack(struct trace_event_file *file);
void trace_event_printk(const struct trace_event_buffer *fbuffer);

/* Nothing to do for this hit: not attached, or dropped with no trigger to run. */
static inline bool trace_event_file_dropped(const struct trace_event_file *file)
{
	unsigned long flags = READ_ONCE(file->flags);

	return !(flags & EVENT_FILE_FL_ENABLED) ||
	       (flags & (EVENT_FILE_FL_SOFT_DISABLED | EVENT_FILE_FL_TRIGGER_MODE)) ==
		       EVENT_FILE_FL_SOFT_DISABLED;
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

/*
 * Room for a record of len bytes, common fields filled; NULL when it
 * cannot be written. A record that may not reach the ring (a filter, a
 * trigger that must see it first, soft-disabled) is built in scratch.
 */
static inline void *trace_event_buffer_reserve(struct trace_event_buffer *fbuffer,
					       struct trace_event_file *file, size_t len)
{
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	struct rb_event *event;

	fbuffer->trace_file = file;
	fbuffer->len = len;
	fbuffer->flags = READ_ONCE(file->flags);
	fbuffer->filter = READ_ONCE(file->filter);
	fbuffer->buffer = READ_ONCE(file->buffer);
	if (unlikely(fbuffer->flags & EVENT_FILE_FL_PID_FILTER) && file->tr &&
	    trace_event_ignore_this_pid(file->tr))
		return NULL;
	fbuffer->scratch = fbuffer->filter || (fbuffer->flags & EVENT_FILE_FL_SOFT_DISABLED) ||
			   (fbuffer->flags & (EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_IN_PLACE)) ==
				   EVENT_FILE_FL_TRIGGER_MODE;
	if (fbuffer->scratch) {
		preempt_disable_notrace();
		fbuffer->entry = trace_buffered_event_get(len);
		if (!fbuffer->entry) {
			preempt_enable_notrace();
			return NULL;
		}
	} else {
		event = ring_buffer_lock_reserve(fbuffer->buffer, len);
		if (!event)
			return NULL;
		fbuffer->entry = ring_buffer_event_data(event);
	}
	tracing_generic_entry_update(fbuffer->entry, file->event_call->id, trace_ctx);
	return fbuffer->entry;
}

/*
 * Publish the record. In place: its triggers, then the commit. From
 * scratch: triggers first (they see every hit,
 * filtered or not, as Linux's), then the ring gets it if the event is
 * not soft-disabled and the filter passes. Triggers may have swapped the
 * buffer (snapshot) or stopped it (traceoff): the buffer is read again.
 */
static inline void trace_event_buffer_commit(struct trace_event_buffer *fbuffer)
{
	struct trace_event_file *file = fbuffer->trace_file;

	if (static_branch_unlikely(&tracepoint_printk_key))
		trace_event_printk(fbuffer);
	if (!fbuffer->scratch) {
		if (fbuffer->flags & EVENT_FILE_FL_TRIGGER_MODE)
			event_triggers_call(file, fbuffer->entry, (unsigned int)fbuffer->len, true);
		ring_buffer_unlock_commit(fbuffer->buffer);
		this_cpu_write(trace_cmdline_save, true);
		if (static_branch_unlikely(&trace_event_stack_key))
			trace_event_stack(file);
		return;
	}
	if (fbuffer->flags & EVENT_FILE_FL_TRIGGER_MODE)
		event_triggers_call(file, fbuffer->entry, (unsigned int)fbuffer->len, false);
	if (!(READ_ONCE(file->flags) & EVENT_FILE_FL_SOFT_DISABLED) &&
	    (!fbuffer->filter || filter_match(fbuffer->filter, fbuffer->entry))) {
		ring_buffer_write(READ_ONCE(file->buffer), fbuffer->len, fbuffer->entry);
		this_cpu_write(trace_cmdline_save, true);
		if (static_branch_unlikely(&trace_event_stack_key))
			trace_event_stack(file);
	}
	trace_buffered_event_put();
	preempt_enable_notrace();
}

/*
 * A record built whole elsewhere (user events, kprobe events: len bytes,
 * common fields included) into the file's buffer, through filter and
 * triggers; its common fields are this hit's.
 */
static inline void trace_event_write_record(struct trace_event_file *file, const void *rec,
					    size_t len)
{
	struct trace_event_buffer fbuffer;
	struct trace_entry *ent;

	if (trace_event_file_dropped(file))
		return;
	ent = trace_event_buffer_reserve(&fbuffer, file, len);
	if (!ent)
		return;
	memcpy(ent + 1, (const u8 *)rec + sizeof(*ent), len - sizeof(*ent));
	trace_event_buffer_commit(&fbuffer);
}

#endif
