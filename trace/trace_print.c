/*
 * ftrace's own records: the ftrace:print event (trace/events/ftrace.tev)
 * that trace_marker writes, and kernel stack records for the stacktrace
 * trigger. Both are written straight into an array's buffer, whether or
 * not any event is enabled, as Linux's trace_marker and stack entries are.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>
#include <kernel/stacktrace.h>
#include <trace/trace.h>
#include <trace/trace_event_buffer.h>

#define CREATE_TRACE_POINTS
#include <trace/events/ftrace.h>

/* Longest text one trace_marker write takes (Linux 6.12's TRACE_MARKER_MAX_SIZE). */
#define TRACE_MARKER_MAX	4096

int trace_marker_record(struct trace_array *tr, const char *text, size_t len, unsigned long ip)
{
	struct trace_event_raw_print *entry;
	struct trace_event_file *print;
	struct trace_buffer *buffer;
	struct rb_event *event = NULL;
	unsigned int trace_ctx = tracing_gen_ctx();
	unsigned long flags;
	bool newline, triggers, in_place;
	size_t size;

	if (!READ_ONCE(tr->tracing_on))
		return -EBADF;
	/* The writer's name is saved at its next switch, as for any committed record. */
	this_cpu_write(trace_cmdline_save, true);
	if (len > TRACE_MARKER_MAX)
		len = TRACE_MARKER_MAX;
	/*
	 * Text that does not fit one event is cut where the event ends and the
	 * write is short, as Linux's: a writer looping over the rest (echo,
	 * printf) records it as the next event. The event is one a 4 KiB
	 * sub-buffer takes (4,054 bytes of text), whatever the buffer's
	 * sub-buffer size: Linux 6.12 cuts there too.
	 */
	if (sizeof(*entry) + len + 2 > RB_MAX_DATA)
		len = RB_MAX_DATA - sizeof(*entry) - 2;
	/* The record's text ends in a newline, added if the writer left it out. */
	newline = !len || text[len - 1] != '\n';
	size = sizeof(*entry) + len + newline + 1;
	preempt_disable_notrace();
	/*
	 * With triggers on events/ftrace/print the record is built in scratch,
	 * copied to the ring, then shown to them, as Linux runs them on its
	 * reserved record: the marker lands in the buffer a snapshot trigger
	 * then swaps out, before a stacktrace trigger's stack, and a traceoff
	 * trigger does not lose it. Triggers that may run on the reserved
	 * record (hist without actions) run there, before the commit.
	 */
	print = READ_ONCE(tr->trace_marker_file);
	flags = print ? READ_ONCE(print->flags) : 0;
	triggers = flags & EVENT_FILE_FL_TRIGGER_MODE;
	in_place = !triggers || (flags & EVENT_FILE_FL_TRIGGER_IN_PLACE);
	buffer = READ_ONCE(tr->buffer);
	if (!in_place) {
		entry = trace_buffered_event_get(size);
	} else {
		event = ring_buffer_lock_reserve(buffer, size);
		entry = event ? ring_buffer_event_data(event) : NULL;
	}
	if (!entry) {
		preempt_enable_notrace();
		return -EBADF;
	}
	tracing_generic_entry_update(&entry->ent, event_print.id, trace_ctx);
	entry->ip = ip;
	memcpy(entry->buf, text, len);
	entry->buf[len] = '\0';
	/* Triggers see the text without the newline added here, as in Linux. */
	if (triggers && in_place)
		event_triggers_call(print, entry, (unsigned int)(size - newline), true);
	if (newline)
		memcpy(entry->buf + len, "\n", 2);
	if (in_place) {
		ring_buffer_unlock_commit(buffer);
		preempt_enable_notrace();
		return (int)len;
	}
	if (ring_buffer_write(buffer, size, entry)) {
		trace_buffered_event_put();
		preempt_enable_notrace();
		return -EBADF;
	}
	entry->buf[len] = '\0';
	event_triggers_call(print, entry, (unsigned int)(size - newline), false);
	trace_buffered_event_put();
	preempt_enable_notrace();
	return (int)len;
}

void trace_dump_stack_record(struct trace_array *tr, unsigned int skip)
{
	struct {
		struct stack_entry st;
		unsigned long ips[TRACE_STACK_MAX];
	} rec;
	unsigned int trace_ctx = tracing_gen_ctx_dec();

	memset(&rec, 0, sizeof(rec));
	rec.st.nr = stack_trace_save(rec.ips, TRACE_STACK_MAX, skip + 1);
	tracing_generic_entry_update(&rec.st.ent, TRACE_STACK_ID, trace_ctx);
	ring_buffer_write(READ_ONCE(tr->buffer),
			  sizeof(rec.st) + rec.st.nr * sizeof(unsigned long), &rec);
}
