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

/* One field of a record, exactly as the event's format file lists it. */
struct trace_event_field {
	const char *type;	/* C type as printed, e.g. "pid_t", "char[16]", "__data_loc char[]" */
	const char *name;	/* e.g. "prev_comm" */
	u16 offset;		/* from the start of the record (common fields included) */
	u16 size;		/* bytes in the record (4 for __data_loc) */
	u8 is_signed;
	u8 filter_type;		/* enum filter_type */
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

#endif
