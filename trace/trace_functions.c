/*
 * The function tracer: one ftrace:function record (ip, parent_ip) per
 * call of a traced function, into the array's buffer, printed as Linux
 * prints it ("func <-parent"). Each array has its own ops, so instances
 * trace their own function sets. Kernel only: the callback runs from
 * the trampoline in any context.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/percpu.h>
#include <kernel/kallsyms.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_functions.h>
#include <trace/trace_func_repeats.h>

/* ftrace:function and func_repeats (trace/events/ftrace.tev, defined in trace/trace_print.c). */
extern struct trace_event_call event_function, event_func_repeats;

/* Its record, as the event's format lays it out. */
struct ftrace_entry {
	struct trace_entry ent;
	unsigned long ip;
	unsigned long parent_ip;
};

void *ftrace_record_reserve_ctx(struct trace_array *tr, size_t size, u16 id,
				struct trace_buffer **buffer, unsigned int trace_ctx)
{
	struct rb_event *event;

	*buffer = READ_ONCE(tr->buffer);
	event = ring_buffer_lock_reserve(*buffer, size);
	if (!event)
		return NULL;
	tracing_generic_entry_update(ring_buffer_event_data(event), id, trace_ctx);
	return ring_buffer_event_data(event);
}

void *ftrace_record_reserve(struct trace_array *tr, size_t size, u16 id,
			    struct trace_buffer **buffer)
{
	/* The dispatch disabled preemption: the record shows the traced code's count. */
	return ftrace_record_reserve_ctx(tr, size, id, buffer, tracing_gen_ctx_dec());
}

void ftrace_record_commit(struct trace_buffer *buffer)
{
	ring_buffer_unlock_commit(buffer);
	this_cpu_write(trace_cmdline_save, true);
}

void trace_function_record(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			   unsigned int trace_ctx)
{
	struct trace_buffer *buffer;
	struct ftrace_entry *entry;

	entry = ftrace_record_reserve_ctx(tr, sizeof(*entry), event_function.id, &buffer,
					  trace_ctx);
	if (!entry)
		return;
	entry->ip = ip;
	entry->parent_ip = parent_ip;
	ftrace_record_commit(buffer);
}

/*
 * The function tracer's own options (options/func_stack_trace,
 * func-no-repeats), one value for every array, read by its callback as
 * it goes.
 */
enum { FUNC_OPT_STACK_TRACE, FUNC_OPT_NO_REPEATS };
#define FUNC_OPT(name)	(1ul << FUNC_OPT_##name)
static unsigned long function_flags;
static const char *const function_opt_names[] = { "func_stack_trace", "func-no-repeats", NULL };

/*
 * Frames above the traced function when the stack is taken:
 * function_trace_call, ftrace_ops_list_func and the trampoline's own.
 */
#define FUNCTION_STACK_SKIP	2

/*
 * A run of repeated calls ended: its func_repeats record, with the context
 * of the call ending it. Its delta is taken from the clock read before
 * the reservation: an interrupt between the two then shortens it (the
 * last repeat shows a little late, never before the run's first record)
 * rather than stretching it.
 */
static void record_repeats(struct trace_array *tr, const struct func_repeats *run,
			   unsigned int trace_ctx)
{
	u64 now = ring_buffer_time_stamp(READ_ONCE(tr->buffer));
	struct trace_buffer *buffer;
	struct func_repeats_entry *entry;

	entry = ftrace_record_reserve_ctx(tr, sizeof(*entry), event_func_repeats.id, &buffer,
					  trace_ctx);
	if (!entry)
		return;
	func_repeats_fill(entry, run, now);
	ftrace_record_commit(buffer);
}

/*
 * func-no-repeats: a call that is no repeat of the last one on this CPU
 * ends its run; the run's record first if it had repeats, as Linux's (a
 * pending count is not written when the option or the tracer goes off).
 * Out of line: the callback's paths for a repeat, and with the option
 * off, stay short.
 */
static noinline void function_run_end(struct trace_ftrace *f, struct func_repeats *last,
				      unsigned long ip, unsigned long parent_ip)
{
	if (last->count)
		record_repeats(f->tr, last, tracing_gen_ctx_dec());
	func_repeats_start(last, ip, parent_ip);
}

void function_trace_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			 struct ftrace_regs *fregs)
{
	struct trace_ftrace *f = op->private;
	struct trace_array *tr = f->tr;
	unsigned long flags = READ_ONCE(function_flags);

	if (!READ_ONCE(tr->tracing_on) || trace_function_ignore_pid(tr))
		return;
	if (flags & FUNC_OPT(NO_REPEATS)) {
		struct func_repeats *last = &f->repeats[smp_processor_id()];

		/* A repeat is only counted. */
		if (func_repeats_match(last, ip, parent_ip)) {
			func_repeats_count(last, ring_buffer_time_stamp(READ_ONCE(tr->buffer)));
			return;
		}
		function_run_end(f, last, ip, parent_ip);
	}
	trace_function_record(tr, ip, parent_ip, tracing_gen_ctx_dec());
	/* func_stack_trace: the stack that led here, after the call's record, as Linux's. */
	if (flags & FUNC_OPT(STACK_TRACE))
		trace_dump_stack_record(tr, FUNCTION_STACK_SKIP);
}

/*
 * "func <-parent", as Linux's function tracer prints with its default
 * options (the event's print fmt, " %ps <-- %ps", is for trace.dat
 * readers); the trace file applies the array's options (trace_iter_print.c).
 */
static int function_output(struct trace_seq *s, struct trace_seq *tmp,
			   const struct trace_entry *ent)
{
	const struct ftrace_entry *e = (const void *)ent;

	trace_print_function(s, e->ip, e->parent_ip, TRACE_FLAGS_DEFAULT);
	return 0;
}

int ftrace_tracer_init(struct trace_array *tr,
		       int (*start)(struct trace_array *tr, struct ftrace_ops *ops))
{
	int ret;

	if (!tr->ftrace)
		return -ENODEV;
	ftrace_lock();
	ret = start(tr, &tr->ftrace->ops);
	ftrace_unlock();
	/* Records name their task by pid: keep the names, as enabling an event does. */
	if (!ret)
		trace_cmdlines_start();
	return ret;
}

void ftrace_tracer_reset(struct trace_array *tr, void (*stop)(struct ftrace_ops *ops))
{
	ftrace_lock();
	stop(&tr->ftrace->ops);
	ftrace_unlock();
	trace_cmdlines_stop();
}

static int function_start(struct trace_array *tr, struct ftrace_ops *ops)
{
	/* No run carries over from an earlier start. */
	memset(tr->ftrace->repeats, 0, nr_cpu_ids * sizeof(*tr->ftrace->repeats));
	ops->func = function_trace_call;
	return register_ftrace_function(ops);
}

static void function_stop(struct ftrace_ops *ops)
{
	unregister_ftrace_function(ops);
}

static int function_trace_init(struct trace_array *tr)
{
	return ftrace_tracer_init(tr, function_start);
}

static void function_trace_reset(struct trace_array *tr)
{
	ftrace_tracer_reset(tr, function_stop);
}

static struct tracer function_trace = {
	.name = "function",
	.init = function_trace_init,
	.reset = function_trace_reset,
	.opts = function_opt_names,
	.opt_flags = &function_flags,
};

int trace_ftrace_alloc(struct trace_array *tr)
{
	struct trace_ftrace *f;

	if (!ftrace_nr_sites)
		return 0;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->repeats = kcalloc(nr_cpu_ids, sizeof(*f->repeats), GFP_KERNEL);
	if (!f->repeats)
		goto free;
	if (ftrace_ops_init(&f->ops))
		goto free_repeats;
	if (ftrace_ops_init(&f->probe_ops)) {
		ftrace_ops_free(&f->ops);
		goto free_repeats;
	}
	f->tr = tr;
	f->ops.private = f;
	tr->ftrace = f;
	return 0;
free_repeats:
	kfree(f->repeats);
free:
	kfree(f);
	return -ENOMEM;
}

void ftrace_mods_free(struct ftrace_mod **list)
{
	while (*list) {
		struct ftrace_mod *m = *list;

		*list = m->next;
		kfree(m);
	}
}

void trace_ftrace_free(struct trace_array *tr)
{
	struct trace_ftrace *f = tr->ftrace;

	if (!f)
		return;
	tr->ftrace = NULL;
	/* The probes went at rmdir (ftrace_probes_clear), while their events were there. */
	ftrace_mods_free(&f->mods[0]);
	ftrace_mods_free(&f->mods[1]);
	ftrace_ops_free(&f->probe_ops);
	ftrace_ops_free(&f->ops);
	kfree(f->repeats);
	kfree(f);
}

const char *ftrace_site_name(unsigned int i, void *unused)
{
	const char *name;
	unsigned long off, size;

	if (!kallsyms_lookup(ftrace_sites[i].ip, &name, &off, &size) || off)
		return NULL;
	return name;
}

int trace_functions_init(void)
{
	if (!ftrace_nr_sites)
		return 0;
	event_function.output = function_output;
	return register_tracer(&function_trace);
}
