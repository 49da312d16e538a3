/*
 * What an event is, for everything that reads records: the tracefs files,
 * filters, triggers, hist, and output. TRACE_EVENT() (trace/define_trace.h)
 * produces these descriptors; synthetic and user events build them at run
 * time. Pure.
 *
 * Owners: the tracing-core work extends struct trace_event_call (probes,
 * enable state, triggers, filter, output); hist reads fields through it.
 */
#ifndef TRACE_TRACE_EVENT_H
#define TRACE_TRACE_EVENT_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <trace/tracepoint.h>

struct trace_buffer;
struct event_filter;

/* How a field is read and compared: Linux's filter types. */
enum filter_type {
	FILTER_OTHER = 0,	/* a number: size and is_signed say how to read it */
	FILTER_STATIC_STRING,	/* char name[N] inside the record */
	FILTER_DYN_STRING,	/* __data_loc: u32 (len << 16 | offset from record start) */
	FILTER_RDYN_STRING,	/* __rel_loc: offset from the end of the u32 itself */
	FILTER_PTR_STRING,	/* a char * (kernel address) */
	FILTER_TRACE_FN,
	FILTER_CPUMASK,
	FILTER_COMM,		/* the special common_comm / comm */
	FILTER_CPU,		/* the special common_cpu / cpu */
	FILTER_STACKTRACE,	/* the special common_stacktrace */
};

/*
 * One field of a record, exactly as the event's format file lists it.
 * TRACE_EVENT() tables leave offset 0 and give align: the registry lays
 * the fields out in order at registration, as C lays out the record
 * struct (every field at the next multiple of its alignment).
 */
struct trace_event_field {
	const char *type;	/* C type as printed, e.g. "pid_t", "char[16]", "__data_loc char[]" */
	const char *name;	/* e.g. "prev_comm" */
	u16 offset;		/* from the start of the record (common fields included) */
	u16 size;		/* bytes in the record (4 for __data_loc, 0 for a trailing char[]) */
	u8 is_signed;
	u8 filter_type;		/* enum filter_type */
	u8 align;		/* alignment in the record; 0 when offset is already set */
};

/* The common fields every record starts with (struct trace_entry in Linux). */
struct trace_entry {
	u16 type;		/* common_type: the event id */
	u8 flags;		/* common_flags: TRACE_FLAG_* */
	u8 preempt_count;	/* common_preempt_count: low 4 bits preempt depth */
	s32 pid;		/* common_pid */
};

#define TRACE_FLAG_IRQS_OFF		0x01
#define TRACE_FLAG_IRQS_NOSUPPORT	0x02
#define TRACE_FLAG_NEED_RESCHED		0x04
#define TRACE_FLAG_HARDIRQ		0x08
#define TRACE_FLAG_SOFTIRQ		0x10
#define TRACE_FLAG_PREEMPT_RESCHED	0x20
#define TRACE_FLAG_NMI			0x40
#define TRACE_FLAG_BH_OFF		0x80

/* The common fields as a field table, in the order format files list them. */
extern const struct trace_event_field trace_common_fields[];
#define TRACE_NR_COMMON_FIELDS 4

/* One entry of a __print_flags / __print_symbolic table. */
struct trace_print_flags {
	unsigned long mask;
	const char *name;	/* NULL ends a table */
};

struct trace_seq;
struct trace_event_file;

/*
 * Renders the part of a `trace` line after "name: " for one record of
 * this event (TP_printk). `tmp` is scratch space for __print_flags and
 * friends. Returns 0, or -EOVERFLOW when s filled up.
 */
typedef int (*trace_event_output_fn)(struct trace_seq *s, struct trace_seq *tmp,
				     const struct trace_entry *ent);

/*
 * An event. TRACE_EVENT() defines one per event and puts a pointer to it
 * in section _ftrace_events; runtime events (synthetic, user events) are
 * added with trace_add_event_call(). All events share one id space.
 */
struct trace_event_call {
	const char *system;	/* events/<system>/ */
	const char *name;	/* events/<system>/<name>/ */
	u16 id;			/* common_type of its records; set at registration */
	u16 size;		/* bytes of the fixed part of a record */
	/* The event's own fields (common fields not included), ending at name == NULL. */
	struct trace_event_field *fields;
	const char *print_fmt;	/* the format file's "print fmt:" text */
	trace_event_output_fn output;
	struct tracepoint *tp;	/* NULL for events with no tracepoint */
	void *probe;		/* attached to tp with a struct trace_event_file as data */
	void *perf_probe;	/* attached to tp with the call as data while perf uses it */
	/*
	 * Attach/detach for one instance's file instead of tp and probe
	 * (Linux's class->reg): user events track who traces them. Called
	 * under trace_types_lock; NULL for most events.
	 */
	int (*reg)(struct trace_event_file *file, bool enable);
	/* The same for perf (attach perf_probe with the call as data); NULL: perf does it. */
	int (*perf_reg)(struct trace_event_call *call, bool enable);
	struct trace_event_call *next_dynamic;	/* runtime-added events, newest first */
	/* Users that hold a runtime event (eprobes on it): it cannot be removed (EBUSY). */
	unsigned int refs;
};

/*
 * An event in one trace instance: where its records go and what decides
 * whether one is kept. The tracefs side (trace/trace_event_files.c) owns
 * these, one per event per instance; the probe gets one as its data
 * pointer.
 */
struct trace_array;
struct event_trigger_data;
struct dentry;

struct trace_event_file {
	struct trace_event_call *event_call;
	/*
	 * The instance's ring buffer. A snapshot swap repoints it; a writer
	 * reads it once per record (trace_event_buffer), so a record lands
	 * whole in one buffer.
	 */
	struct trace_buffer *buffer;
	struct event_filter *filter;	/* NULL: keep every record */
	/* A refused filter's text, caret and reason, shown by `filter` (no filter then applies). */
	char *filter_err;
	unsigned long flags;		/* EVENT_FILE_FL_* */
	struct trace_array *tr;		/* NULL in unit tests of the probe alone */
	/* Triggers, newest last; walked locklessly by probes (freed after a grace period). */
	struct event_trigger_data *triggers;
	unsigned int sm_ref;		/* soft-mode users: triggers on it, enable_event targets */
	struct list_head list;		/* in tr->events */
	struct dentry *dir;		/* events/<sys>/<name> */
	/*
	 * Its tracefs files open now. A runtime event can go while one is
	 * open (a user event deleted): the file is then marked FREED, its
	 * operations fail with ENODEV, and it is freed with the last close.
	 */
	unsigned int open_ref;
};

#define EVENT_FILE_FL_ENABLED		0x01	/* the probe is attached */
#define EVENT_FILE_FL_SOFT_DISABLED	0x02	/* attached, but records are dropped */
#define EVENT_FILE_FL_SOFT_MODE		0x04	/* attached for triggers (sm_ref > 0) */
#define EVENT_FILE_FL_TRIGGER_MODE	0x08	/* has triggers: run them on every hit */
#define EVENT_FILE_FL_RECORD		0x10	/* enabled through enable/set_event */
#define EVENT_FILE_FL_FREED		0x20	/* its event is gone; open files keep it */
#define EVENT_FILE_FL_PID_FILTER	0x40	/* its array has set_event_pid or _notrace_pid */
#define EVENT_FILE_FL_TRIGGER_IN_PLACE	0x80	/* every trigger may run on the reserved record */

/*
 * Run the file's triggers for one record (rec: common fields first) that
 * the probe built; each trigger with an `if` filter only when it matches.
 * in_place: rec is still reserved in the ring, so only the triggers that
 * may run on it there (event_trigger_data.in_place) run. Any context.
 */
void event_triggers_call(struct trace_event_file *file, void *rec, unsigned int size, bool in_place);

/* Registry (trace/trace_events.c). */

/* Event ids are below this. */
#define TRACE_EVENT_MAX_ID	2048

/* Give every built-in event an id. Call once at boot, before tracing. */
int trace_events_init(void);
/* Add a runtime event: -EEXIST if system:name exists, -ENOSPC when ids run out. */
int trace_add_event_call(struct trace_event_call *call);
int trace_remove_event_call(struct trace_event_call *call);
struct trace_event_call *trace_find_event_call(const char *system, const char *name);
struct trace_event_call *trace_find_event_by_id(unsigned int id);
/* Iterate all events: start with NULL; returns NULL after the last. */
struct trace_event_call *trace_next_event_call(struct trace_event_call *prev);
/* The field called name: event fields first, then the common fields; NULL if none. */
const struct trace_event_field *trace_find_event_field(const struct trace_event_call *call,
						       const char *name);
/* Attach (enable) or detach the event's probe for one instance's file. */
int trace_event_reg(struct trace_event_file *file, bool enable);
/*
 * The events/<sys>/<name>/format text. Returns the length it needs (like
 * snprintf); the text is cut at size - 1.
 */
int trace_event_format(const struct trace_event_call *call, char *buf, size_t size);

/*
 * The running task as the common fields record it. kernel/sched provides
 * these; until it does, weak stand-ins in trace/trace_events.c say pid 0,
 * "<idle>", as Linux does for the idle task.
 */
pid_t tracing_task_pid(void);
const char *tracing_task_comm(void);

/*
 * common_flags and common_preempt_count of a record written now, packed
 * as Linux's trace_ctx: flags << 16 | migrate-disable << 4 | preempt depth.
 */
unsigned int tracing_gen_ctx(void);
/*
 * The same, for a probe: the tracepoint call site disabled preemption
 * around its probes, which the record must not show (Linux's
 * tracing_gen_ctx_dec).
 */
unsigned int tracing_gen_ctx_dec(void);

#endif
