/*
 * The per-syscall events at work: their probes on the raw_syscalls
 * tracepoints and their `trace` text. Enabling syscalls:sys_enter_openat
 * in an instance attaches syscall_enter_probe to raw_syscalls:sys_enter
 * with that instance's event file; the probe keeps only openat's calls
 * and writes them through the same reserve/commit path TRACE_EVENT()
 * probes use, so the file's soft-disable, filter and triggers (hist
 * among them) apply as to any other event. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_output.h>
#include <trace/trace_syscalls_events.h>

struct trace_event_field syscall_exit_fields[] = {
	SC_NR_FIELD,
	{ .type = "long", .name = "ret", .size = sizeof(long), .align = sizeof(long),
	  .is_signed = 1 },
	{ 0 }
};

/*
 * Room for one record of the file's event, common fields filled. Linux
 * computes a syscall record's context inside the probe, where the
 * tracepoint has preemption disabled: its records show preempt depth 1
 * ("...1."), where TRACE_EVENT() records subtract the call site's level.
 */
static void *syscall_record_reserve(struct trace_event_buffer *fbuffer,
				    struct trace_event_file *file)
{
	struct trace_event_call *call = file->event_call;
	unsigned int trace_ctx = tracing_gen_ctx();	/* before reserve disables preemption */
	struct trace_entry *ent = trace_event_buffer_reserve(fbuffer, file, call->size);

	if (ent)
		tracing_generic_entry_update(ent, call->id, trace_ctx);
	return ent;
}

void syscall_enter_probe(void *data, long id, const unsigned long *args)
{
	struct trace_event_file *file = data;
	const struct syscall_metadata *meta =
		container_of(file->event_call, struct syscall_metadata, enter_event);
	struct trace_event_buffer fbuffer;
	struct syscall_trace_enter *rec;

	/* every enabled syscall event hears every call: keep only ours */
	if (id != meta->nr || trace_event_file_dropped(file))
		return;
	rec = syscall_record_reserve(&fbuffer, file);
	if (!rec)
		return;
	rec->nr = (int)id;
	rec->pad = 0;
	memcpy(rec->args, args, meta->nb_args * sizeof(unsigned long));
	trace_event_buffer_commit(&fbuffer);
}

void syscall_exit_probe(void *data, long id, long ret)
{
	struct trace_event_file *file = data;
	const struct syscall_metadata *meta =
		container_of(file->event_call, struct syscall_metadata, exit_event);
	struct trace_event_buffer fbuffer;
	struct syscall_trace_exit *rec;

	if (id != meta->nr || trace_event_file_dropped(file))
		return;
	rec = syscall_record_reserve(&fbuffer, file);
	if (!rec)
		return;
	rec->nr = (int)id;
	rec->pad = 0;
	rec->ret = ret;
	trace_event_buffer_commit(&fbuffer);
}

/*
 * Linux prints a syscall record as a call, with no "<event name>: "
 * before it: take back the prefix the line printer put there for us.
 */
static void drop_event_name(struct trace_seq *s, const struct trace_event_call *call)
{
	size_t n = strlen(call->name) + 2;

	if (!s->full && s->len >= n && !memcmp(s->buffer + s->len - n, call->name, n - 2) &&
	    !memcmp(s->buffer + s->len - 2, ": ", 2)) {
		s->len -= (unsigned int)n;
		s->buffer[s->len] = '\0';
	}
}

/* "sys_openat(dfd: ffffff9c, filename: 7ffe94229f81, flags: 0, mode: 0)" */
int syscall_enter_output(struct trace_seq *s, struct trace_seq *tmp, const struct trace_entry *ent)
{
	const struct syscall_trace_enter *rec = (const void *)ent;
	const struct trace_event_call *call = trace_find_event_by_id(ent->type);
	const struct syscall_metadata *meta =
		container_of(call, struct syscall_metadata, enter_event);

	drop_event_name(s, call);
	trace_seq_printf(s, "%s(", meta->name);
	/* fields[0] is __syscall_nr; the arguments follow in order */
	for (unsigned int i = 0; i < meta->nb_args; i++)
		trace_seq_printf(s, "%s%s: %lx", i ? ", " : "", call->fields[i + 1].name,
				 rec->args[i]);
	return trace_seq_putc(s, ')');
}

/* "sys_openat -> 0xfffffffffffffffe" */
int syscall_exit_output(struct trace_seq *s, struct trace_seq *tmp, const struct trace_entry *ent)
{
	const struct syscall_trace_exit *rec = (const void *)ent;
	const struct trace_event_call *call = trace_find_event_by_id(ent->type);
	const struct syscall_metadata *meta =
		container_of(call, struct syscall_metadata, exit_event);

	drop_event_name(s, call);
	return trace_seq_printf(s, "%s -> 0x%lx", meta->name, (unsigned long)rec->ret);
}
