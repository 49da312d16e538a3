/*
 * The tracer registry and an array's current tracer. Switching stops
 * the old tracer before starting the new one, and empties the buffer in
 * between as Linux does, so what `trace` shows is the new tracer's alone.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/fs/seq_file.h>
#include <trace/trace.h>
#include <trace/tracer.h>

/* "nop": no tracer; events and markers still record. Registered first, so listed last. */
static struct tracer nop_trace = { .name = "nop" };
static struct tracer *trace_types = &nop_trace;

int register_tracer(struct tracer *t)
{
	for (struct tracer *o = trace_types; o; o = o->next)
		if (!strcmp(o->name, t->name))
			return -EBUSY;
	t->next = trace_types;
	trace_types = t;
	return 0;
}

struct tracer *tracing_tracers(void)
{
	return trace_types;
}

struct tracer *tracing_tracer(const struct trace_array *tr)
{
	return tr->current_trace ? tr->current_trace : &nop_trace;
}

int tracing_set_tracer(struct trace_array *tr, const char *name)
{
	struct tracer *t = trace_types, *old = tracing_tracer(tr);
	int ret;

	while (t && strcmp(t->name, name))
		t = t->next;
	if (!t)
		return -EINVAL;
	if (t == old)
		return 0;
	if (old->reset)
		old->reset(tr);
	tr->current_trace = &nop_trace;
	tracing_reset(tr, RING_BUFFER_ALL_CPUS);
	if (t->init) {
		ret = t->init(tr);
		if (ret)
			return ret;
	}
	tr->current_trace = t;
	return 0;
}

void tracing_show_tracers(struct seq_file *m)
{
	for (struct tracer *t = trace_types; t; t = t->next)
		seq_printf(m, "%s%c", t->name, t->next ? ' ' : '\n');
}
