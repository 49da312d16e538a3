/*
 * Probe events (trace/trace_probe_event.c): what kprobe, fprobe, tprobe
 * and eprobe events share. Each is an event under events/GROUP/ whose
 * records a probe builds from its fetch arguments (trace/trace_probe.h)
 * at each hit; the probe is armed while an instance traces the event.
 * They live in one list, in creation order, which is dynamic_events'
 * listing order, and share its `-:[GRP/]EVENT` removal.
 */
#ifndef TRACE_TRACE_PROBE_EVENT_H
#define TRACE_TRACE_PROBE_EVENT_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <trace/tracepoint.h>
#include <trace/trace_probe.h>

struct probe_event;
struct pt_regs;
struct trace_seq;

/* One kind of probe event (kprobe, fprobe, tprobe, eprobe). */
struct probe_event_type {
	const char *log_loc;		/* error_log's location, e.g. "trace_kprobe" */
	/* Arm (on) or disarm the probe: first instance tracing it, last one leaving. */
	int (*arm)(struct probe_event *pe, bool on);
	/* The event's dynamic_events line, without the newline, snprintf-style. */
	int (*show)(const struct probe_event *pe, char *buf, size_t size);
	/* One probe's line of the kind's profile file (kprobe_profile), snprintf-style. */
	int (*profile_line)(const struct probe_event *pe, char *buf, size_t size);
	/* `trace`'s text before the arguments, e.g. `(vfs_read+0x0/0x1b0)`. */
	void (*print_head)(struct trace_seq *s, const struct probe_event *pe, const u8 *rec);
	/* Free what the kind added around the event (the probe event itself included). */
	void (*free)(struct probe_event *pe);
	/*
	 * A line naming an existing event of the kind adds a probe to it when
	 * the arguments lay out alike (Linux's kprobes and fprobes; eprobes not).
	 */
	bool appendable;
	size_t size;			/* of the kind's struct, the probe event at its start */
};

/* One event. Kinds embed it. */
struct probe_event {
	struct list_head list;		/* probe_events, creation order */
	const struct probe_event_type *type;
	char *group, *event;
	enum probe_head head;
	/*
	 * An event with several probes (appended lines): the others hang off
	 * the first, which alone owns the event (list, tp, call); a hit of
	 * any records into the first's.
	 */
	struct probe_event *next_probe;
	struct probe_event *owner;	/* the first probe; NULL: this is it */
	unsigned int nr_files;		/* instances tracing it: the probe is armed while > 0 */
	unsigned long nhit;
	struct tracepoint tp;		/* the instances' probes, as a tracepoint's */
	struct trace_event_call call;
	struct probe_args args;
};

/* Record head words: __probe_ip, or __probe_func and __probe_ret_ip. */
struct probe_hit {
	struct pt_regs *regs;		/* registers and stack the arguments read */
	/* a return probe's: the PROBE_ENTRY_ARGS arguments at the call ($argN) */
	const unsigned long *entry_args;
	const u8 *event_rec;		/* an eprobe's: the record whose fields it reads */
	unsigned long ip, ret_ip;
	enum probe_head head;
	bool in_tracepoint;		/* run by a tracepoint's call site: inside its guard */
	/* a uprobe's: every read is of user memory; @+OFFSET is at file_base + OFFSET */
	bool user;
	unsigned long file_base;
};

/*
 * Build the record of one hit and hand it to every instance tracing the
 * event. Any context, preemption off (a trampoline, an int3 handler, a
 * tracepoint call site: the record's preempt count is the caller's less
 * one, as for a tracepoint's probe).
 */
void probe_event_hit(struct probe_event *pe, const struct probe_hit *hit);

/*
 * Finish and add a parsed event (group, event and args set): its fields
 * and print fmt, the event and its files. -EEXIST (logged in c) when the
 * name is taken. On failure the caller frees pe.
 */
int probe_event_add(struct probe_event *pe, enum probe_head head, struct probe_cmd *c,
		    int name_pos);
/* The event by name (group NULL: any group), or NULL. */
struct probe_event *probe_event_find(const char *group, const char *event);
/* The next event of type (NULL: any kind) after pe (NULL: the first), or NULL. */
struct probe_event *probe_event_next(struct probe_event *pe, const struct probe_event_type *type);
/* `(vfs_read+0x0/0x1b0)`, or `(ksys_read+0x5a/0xb0 <- vfs_read)`: a record's head words. */
void probe_print_ip_head(struct trace_seq *s, const u8 *rec, bool is_return);
/* Is call a probe event's? */
bool probe_event_is(const struct trace_event_call *call);
/* Free the parts probe_event_add and the parsing allocated (not pe itself). */
void probe_event_free_common(struct probe_event *pe);

/*
 * A dynamic_events line (only NULL), or a kprobe_events or uprobe_events
 * one (only: that kind; trace_types_lock held), errors into error_log:
 * `-:[GRP/]EVENT`, `-:GRP/`, `!X:[GRP/]EVENT ...`, or a definition by its
 * first letter (p, r: a uprobe when the place is a path; f, t, e in
 * dynamic_events only). -ECHILD when dynamic_events' line is none of these.
 */
int probe_event_command(const char *cmd, const struct probe_event_type *only);
/* The listing of the events of type (NULL: every kind), snprintf-style. */
int probe_events_show(const struct probe_event_type *type, char *buf, size_t size);
/* Remove every event of type (NULL: all): -EBUSY, and nothing removed, if one is traced. */
int probe_events_release(const struct probe_event_type *type);
/*
 * A kind's two tracefs files, e.g. kprobe_events (its commands, its
 * listing; an O_TRUNC open removes its events) and kprobe_profile (a
 * profile_line per probe).
 */
int probe_events_create_files(const struct probe_event_type *type, const char *events,
			      const char *profile);

/* The kinds and their creators (c->argv[0] starts with their letter). */
extern const struct probe_event_type trace_kprobe_type, trace_fprobe_type, trace_eprobe_type,
	trace_uprobe_type;
int trace_fprobe_create(struct probe_cmd *c);
int trace_eprobe_create(struct probe_cmd *c);
int trace_kprobe_create(struct probe_cmd *c);
int trace_uprobe_create(struct probe_cmd *c);
/* fprobes' return hook; uprobe_events and uprobe_profile (boot, once: trace_kprobe_init). */
int trace_fprobe_init(void);
int trace_uprobe_init(void);

#endif
