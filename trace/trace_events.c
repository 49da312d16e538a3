/*
 * The event registry: every event the kernel knows, by system:name and by
 * id. Built-in events come from TRACE_EVENT() (pointers in section
 * _ftrace_events); synthetic and user events are added at run time.
 * Also the format file text, the common fields, and the trace_ctx of a
 * record being written. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/spinlock.h>
#include <asm/irqflags.h>
#include <trace/trace_event.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_trigger.h>
#include <trace/trace_output.h>
#include <trace/trace.h>
#include <kernel/rcu.h>

/* Set by every commit of an event record (trace_event_buffer.h): see trace.h. */
DEFINE_PER_CPU(bool, trace_cmdline_save);

/*
 * Ids below this are left for fixed entry types (function, stack, ...);
 * Linux numbers events the same way, after its own ftrace entries.
 */
#define TRACE_EVENT_FIRST_ID	32

const struct trace_event_field trace_common_fields[] = {
	{ .type = "unsigned short", .name = "common_type", .offset = 0, .size = 2 },
	{ .type = "unsigned char", .name = "common_flags", .offset = 2, .size = 1 },
	{ .type = "unsigned char", .name = "common_preempt_count", .offset = 3, .size = 1 },
	{ .type = "int", .name = "common_pid", .offset = 4, .size = 4, .is_signed = 1 },
	{ 0 }
};

/*
 * The kernel linker script bounds _ftrace_events; on the host GNU ld does
 * (as __start_ plus the section name), for a section that exists. The
 * NULL entry makes sure it always does.
 */
#ifdef SPOOR_HOST
extern struct trace_event_call *const __start_ftrace_events[] __asm__("__start__ftrace_events");
extern struct trace_event_call *const __stop_ftrace_events[] __asm__("__stop__ftrace_events");
#else
extern struct trace_event_call *const __start_ftrace_events[];
extern struct trace_event_call *const __stop_ftrace_events[];
#endif
static struct trace_event_call *const ftrace_events_anchor
	__used __section("_ftrace_events") __aligned(8) = NULL;

static DEFINE_SPINLOCK(event_lock);	/* serialises registration; readers go lockless */
static struct trace_event_call *event_by_id[TRACE_EVENT_MAX_ID];
static struct trace_event_call *dynamic_events;	/* list through next_dynamic */
static bool builtin_done;

/* Give TRACE_EVENT() fields their offsets, as C laid out the record. */
static int layout_fields(struct trace_event_call *call)
{
	unsigned int offset = sizeof(struct trace_entry);

	for (struct trace_event_field *f = call->fields; f && f->name; f++) {
		if (!f->align)
			continue;	/* built at run time with its offset */
		offset = ALIGN_UP(offset, f->align);
		f->offset = (u16)offset;
		offset += f->size;
	}
	if (offset > call->size && call->fields && call->fields[0].align) {
		pr_err("trace: %s:%s: fields end at %u, past the %u-byte record\n",
		       call->system, call->name, offset, call->size);
		return -EINVAL;
	}
	return 0;
}

/* Caller holds event_lock. */
static int register_call(struct trace_event_call *call)
{
	int ret = layout_fields(call);

	if (ret)
		return ret;
	if (trace_find_event_call(call->system, call->name))
		return -EEXIST;
	for (unsigned int id = TRACE_EVENT_FIRST_ID; id < TRACE_EVENT_MAX_ID; id++) {
		if (!event_by_id[id]) {
			call->id = (u16)id;
			__atomic_store_n(&event_by_id[id], call, __ATOMIC_RELEASE);
			return 0;
		}
	}
	return -ENOSPC;
}

int trace_events_init(void)
{
	int failed = 0;

	spin_lock(&event_lock);
	if (!builtin_done) {
		builtin_done = true;
		for (struct trace_event_call *const *p = __start_ftrace_events;
		     p < __stop_ftrace_events; p++) {
			if (*p && register_call(*p))
				failed++;
		}
	}
	spin_unlock(&event_lock);
	return failed ? -EINVAL : 0;
}

int trace_add_event_call(struct trace_event_call *call)
{
	int ret;

	if (!call || !call->system || !call->name)
		return -EINVAL;
	spin_lock(&event_lock);
	ret = register_call(call);
	if (!ret) {
		call->next_dynamic = dynamic_events;
		dynamic_events = call;
	}
	spin_unlock(&event_lock);
	return ret;
}

int trace_remove_event_call(struct trace_event_call *call)
{
	int ret = -ENOENT;

	spin_lock(&event_lock);
	for (struct trace_event_call **pp = &dynamic_events; *pp; pp = &(*pp)->next_dynamic) {
		if (*pp == call) {
			*pp = call->next_dynamic;
			WRITE_ONCE(event_by_id[call->id], NULL);
			ret = 0;
			break;
		}
	}
	spin_unlock(&event_lock);
	return ret;
}

struct trace_event_call *trace_find_event_by_id(unsigned int id)
{
	if (id >= TRACE_EVENT_MAX_ID)
		return NULL;
	return __atomic_load_n(&event_by_id[id], __ATOMIC_ACQUIRE);
}

struct trace_event_call *trace_next_event_call(struct trace_event_call *prev)
{
	unsigned int id = prev ? prev->id + 1u : 0;

	for (; id < TRACE_EVENT_MAX_ID; id++) {
		struct trace_event_call *call = trace_find_event_by_id(id);

		if (call)
			return call;
	}
	return NULL;
}

struct trace_event_call *trace_find_event_call(const char *system, const char *name)
{
	for (struct trace_event_call *call = trace_next_event_call(NULL); call;
	     call = trace_next_event_call(call))
		if (!strcmp(call->name, name) && (!system || !strcmp(call->system, system)))
			return call;
	return NULL;
}

const struct trace_event_field *trace_find_event_field(const struct trace_event_call *call,
						       const char *name)
{
	for (const struct trace_event_field *f = call->fields; f && f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	for (const struct trace_event_field *f = trace_common_fields; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* Attach or detach the probe: the event's own reg() when it has one. */
static int event_probe_reg(struct trace_event_call *call, struct trace_event_file *file,
			   bool enable)
{
	if (call->reg)
		return call->reg(file, enable);
	return enable ? tracepoint_probe_register(call->tp, call->probe, file) :
			tracepoint_probe_unregister(call->tp, call->probe, file);
}

int trace_event_reg(struct trace_event_file *file, bool enable)
{
	struct trace_event_call *call = file->event_call;
	int ret;

	if (!call->reg && (!call->tp || !call->probe))
		return -EOPNOTSUPP;
	if (!enable) {
		ret = event_probe_reg(call, file, false);
		WRITE_ONCE(file->flags, file->flags & ~EVENT_FILE_FL_ENABLED);
		return ret;
	}
	WRITE_ONCE(file->flags, file->flags | EVENT_FILE_FL_ENABLED);
	ret = event_probe_reg(call, file, true);
	if (ret)
		WRITE_ONCE(file->flags, file->flags & ~EVENT_FILE_FL_ENABLED);
	return ret == -EEXIST ? 0 : ret;
}

void event_triggers_call(struct trace_event_file *file, void *rec, unsigned int size, bool in_place)
{
	struct event_trigger_data *data;

	for (data = rcu_dereference(file->triggers); data; data = rcu_dereference(data->next)) {
		/* one added since the probe chose the ring: it meets the next record */
		if (in_place && !data->in_place)
			continue;
		if (data->filter && !filter_match(data->filter, rec))
			continue;
		data->ops->trigger(data, rec, size);
	}
}

DEFINE_STATIC_KEY_FALSE(trace_event_stack_key);

/* The stacktrace option: the stack of the code that hit the event, after its record. */
void trace_event_stack(struct trace_event_file *file)
{
	struct trace_array *tr = file->tr;

	if (tr && (READ_ONCE(tr->trace_flags) & TRACE_ITER(STACKTRACE)))
		trace_dump_stack_record(tr, 2);
}

/* snprintf that keeps counting past the end, for "returns the length it needs". */
struct text {
	char *buf;
	size_t size, len;
};

static void __printf(2, 3) text_printf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	size_t room = t->len < t->size ? t->size - t->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

/* One "\tfield:..." line; arrays print their dimension after the name. */
static void format_field(struct text *t, const struct trace_event_field *f)
{
	const char *dim = strchr(f->type, '[');

	if (!dim || !strncmp(f->type, "__data_loc", 10))
		text_printf(t, "\tfield:%s %s;", f->type, f->name);
	else
		text_printf(t, "\tfield:%.*s %s%s;", (int)(dim - f->type), f->type, f->name, dim);
	text_printf(t, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->offset, f->size, !!f->is_signed);
}

int trace_event_format(const struct trace_event_call *call, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	text_printf(&t, "name: %s\nID: %u\nformat:\n", call->name, call->id);
	for (const struct trace_event_field *f = trace_common_fields; f->name; f++)
		format_field(&t, f);
	text_printf(&t, "\n");
	for (const struct trace_event_field *f = call->fields; f && f->name; f++)
		format_field(&t, f);
	text_printf(&t, "\nprint fmt: %s\n", call->print_fmt ? call->print_fmt : "\"\"");
	return (int)t.len;
}

/*
 * Scratch records for filtered events, per context level (task, softirq,
 * irq, NMI) so nested probes on a CPU never share one, two deep: an
 * eprobe's record is built while the record of the event it rides on is
 * still in scratch.
 */
#define TRACE_BUFFERED_NEST	2
struct trace_buffered_event {
	u8 busy[4];		/* by level: scratch records in use */
	char data[4][TRACE_BUFFERED_NEST][RB_MAX_DATA] __aligned(8);
};
static DEFINE_PER_CPU(struct trace_buffered_event, trace_buffered_event);

void *trace_buffered_event_get(size_t len)
{
	struct trace_buffered_event *b = this_cpu_ptr(&trace_buffered_event);
	int level = interrupt_context_level();
	unsigned int depth = b->busy[level];

	if (len > RB_MAX_DATA || depth == TRACE_BUFFERED_NEST)
		return NULL;
	b->busy[level] = (u8)(depth + 1);
	barrier();
	return b->data[level][depth];
}

void trace_buffered_event_put(void)
{
	struct trace_buffered_event *b = this_cpu_ptr(&trace_buffered_event);

	barrier();
	b->busy[interrupt_context_level()]--;
}

DEFINE_STATIC_KEY_FALSE(tracepoint_printk_key);
static DEFINE_SPINLOCK(tp_printk_lock);
static struct trace_seq tp_printk_seq, tp_printk_tmp;	/* under tp_printk_lock */
static DEFINE_PER_CPU(bool, tp_printk_busy);

void trace_event_printk(const struct trace_event_buffer *fbuffer)
{
	unsigned long flags;

	/* What the ring keeps, as Linux prints: not soft-disabled, through the filter. */
	if ((fbuffer->flags & EVENT_FILE_FL_SOFT_DISABLED) ||
	    (fbuffer->filter && !filter_match(fbuffer->filter, fbuffer->entry)))
		return;
	/*
	 * Not from an NMI (it may have interrupted the console's lock), nor
	 * from an event printk itself fires while this CPU prints one.
	 */
	if (in_nmi() || this_cpu_read(tp_printk_busy))
		return;
	local_irq_save(flags);
	this_cpu_write(tp_printk_busy, true);
	spin_lock(&tp_printk_lock);
	trace_seq_init(&tp_printk_seq);
	trace_print_event(&tp_printk_seq, &tp_printk_tmp, fbuffer->entry, fbuffer->len);
	printk("%s\n", tp_printk_seq.buffer);
	spin_unlock(&tp_printk_lock);
	this_cpu_write(tp_printk_busy, false);
	local_irq_restore(flags);
}

unsigned int tracing_gen_ctx(void)
{
	unsigned long pc = preempt_count();
	unsigned int flags = 0;

	/* Most records come from task context: one test skips the four. */
	if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))) {
		if (pc & NMI_MASK)
			flags |= TRACE_FLAG_NMI;
		if (pc & HARDIRQ_MASK)
			flags |= TRACE_FLAG_HARDIRQ;
		if (pc & SOFTIRQ_OFFSET)
			flags |= TRACE_FLAG_SOFTIRQ;
		if ((pc & SOFTIRQ_MASK) >> (SOFTIRQ_SHIFT + 1))
			flags |= TRACE_FLAG_BH_OFF;
	}
	/* Spoor has one need-resched bit; Linux sets both flags for it ('N'). */
	if (this_cpu_read(need_resched))
		flags |= TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED;
	if (arch_irqs_disabled())
		flags |= TRACE_FLAG_IRQS_OFF;
	/* No migrate_disable() in Spoor: the high nibble stays 0. */
	return flags << 16 | (unsigned int)min(pc & PREEMPT_MASK, 0xfUL);
}

unsigned int tracing_gen_ctx_dec(void)
{
	unsigned int ctx = tracing_gen_ctx();

	return ctx & 0xf ? ctx - 1 : ctx;
}

__attribute__((weak)) pid_t tracing_task_pid(void)
{
	return 0;
}

__attribute__((weak)) const char *tracing_task_comm(void)
{
	return "<idle>";
}
