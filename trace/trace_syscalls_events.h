/*
 * Per-syscall events, as Linux has them: syscalls:sys_enter_<name> and
 * syscalls:sys_exit_<name> for each system call in trace/syscall_meta.c.
 * They are ordinary events to everything that reads events (enable,
 * format, filter, trigger, hist, id, set_event) and come into being the
 * same way static events do: a struct trace_event_call in section
 * _ftrace_events. What they do not have is a tracepoint of their own:
 * their probe sits on the raw_syscalls sys_enter/sys_exit tracepoint,
 * which the system-call dispatcher fires for every call, and records only
 * calls of its own number. Pure.
 */
#ifndef TRACE_TRACE_SYSCALLS_EVENTS_H
#define TRACE_TRACE_SYSCALLS_EVENTS_H

#include <kernel/types.h>
#include <trace/trace_event.h>
#include <trace/events/raw_syscalls.h>

#define SYSCALL_EVENT_SYSTEM	"syscalls"
#define SYSCALL_ARGS_MAX	6

/*
 * One system call's events. The argument types and names are those of
 * Linux's SYSCALL_DEFINE for it: the enter event's format file lists
 * them, its `trace` line names them.
 */
struct syscall_metadata {
	const char *name;		/* "sys_openat": the entry point's name */
	int nr;				/* x86_64 number */
	unsigned int nb_args;
	struct trace_event_call enter_event;	/* syscalls:sys_enter_<name> */
	struct trace_event_call exit_event;	/* syscalls:sys_exit_<name> */
};

/*
 * The records, as Linux lays them out: the common fields, the number as
 * an int, then each argument (or the return value) in a full word.
 */
struct syscall_trace_enter {
	struct trace_entry ent;
	int nr;
	u32 pad;			/* zeroed: the ring buffer can be read raw */
	unsigned long args[];		/* nb_args of them */
};

struct syscall_trace_exit {
	struct trace_entry ent;
	int nr;
	u32 pad;
	long ret;
};

/* The probes on the raw tracepoints; data is the event's trace_event_file. */
void syscall_enter_probe(void *data, long id, const unsigned long *args);
void syscall_exit_probe(void *data, long id, long ret);
/*
 * perf's probes on them (trace/perf_syscalls.c); data is the event's
 * trace_event_call. Kernel only, as every perf probe (stage8_perf.h).
 */
void perf_syscall_enter(void *data, long id, const unsigned long *args);
void perf_syscall_exit(void *data, long id, long ret);
#ifdef SPOOR_HOST
#define SYSCALL_PERF_PROBE(fn)	NULL
#else
#define SYSCALL_PERF_PROBE(fn)	((void *)(fn))
#endif
/* The `trace` text: "sys_openat(dfd: ffffff9c, ...)" and "sys_openat -> 0x3". */
int syscall_enter_output(struct trace_seq *s, struct trace_seq *tmp, const struct trace_entry *ent);
int syscall_exit_output(struct trace_seq *s, struct trace_seq *tmp, const struct trace_entry *ent);

/* Every exit event has the same fields: __syscall_nr, ret. */
extern struct trace_event_field syscall_exit_fields[];
#define SYSCALL_EXIT_PRINT_FMT	"\"0x%lx\", REC->ret"

/*
 * SYSCALL_EVENTn(name, nr, "type1", "arg1", ...) defines the metadata and
 * both events of system call nr, whose entry point is sys_<name>, with n
 * arguments. The field table, the format file's print fmt (every
 * argument printed as 0x%08lx of its word) and the two calls are built
 * at compile time, so the registry finds complete events at boot.
 */
#define SYSCALL_EVENT0(name, nr, ...)	SYSCALL_EVENT(0, name, nr, __VA_ARGS__)
#define SYSCALL_EVENT1(name, nr, ...)	SYSCALL_EVENT(1, name, nr, __VA_ARGS__)
#define SYSCALL_EVENT2(name, nr, ...)	SYSCALL_EVENT(2, name, nr, __VA_ARGS__)
#define SYSCALL_EVENT3(name, nr, ...)	SYSCALL_EVENT(3, name, nr, __VA_ARGS__)
#define SYSCALL_EVENT4(name, nr, ...)	SYSCALL_EVENT(4, name, nr, __VA_ARGS__)
#define SYSCALL_EVENT5(name, nr, ...)	SYSCALL_EVENT(5, name, nr, __VA_ARGS__)
#define SYSCALL_EVENT6(name, nr, ...)	SYSCALL_EVENT(6, name, nr, __VA_ARGS__)

/*
 * SC_MAPn(first, rest, t1, a1, ...): first(t1, a1) rest(t2, a2) ... for n
 * (type, name) pairs; the first pair gets its own macro so that lists
 * joined by a separator can leave it out before the first item.
 */
#define SC_MAP0(first, rest, ...)
#define SC_MAP1(first, rest, t, a, ...)	first(t, a)
#define SC_MAP2(first, rest, t, a, ...)	first(t, a) SC_MAP1(rest, rest, __VA_ARGS__)
#define SC_MAP3(first, rest, t, a, ...)	first(t, a) SC_MAP2(rest, rest, __VA_ARGS__)
#define SC_MAP4(first, rest, t, a, ...)	first(t, a) SC_MAP3(rest, rest, __VA_ARGS__)
#define SC_MAP5(first, rest, t, a, ...)	first(t, a) SC_MAP4(rest, rest, __VA_ARGS__)
#define SC_MAP6(first, rest, t, a, ...)	first(t, a) SC_MAP5(rest, rest, __VA_ARGS__)

/* An argument's field: a full word, unsigned, as Linux defines every one. */
#define SC_FIELD(t, a)	{ .type = t, .name = a, .size = sizeof(unsigned long), \
			  .align = sizeof(unsigned long) },
#define SC_FMT_FIRST(t, a)	a ": 0x%08lx"
#define SC_FMT_NEXT(t, a)	", " a ": 0x%08lx"
#define SC_FMT_REC(t, a)	", ((unsigned long)(REC->" a "))"
#define SC_NR_FIELD	{ .type = "int", .name = "__syscall_nr", .size = sizeof(int), \
			  .align = sizeof(int), .is_signed = 1 }

#define SYSCALL_EVENT(n, sname, _nr, ...)					\
	static struct trace_event_field syscall_enter_fields_##sname[] = {	\
		SC_NR_FIELD, SC_MAP##n(SC_FIELD, SC_FIELD, __VA_ARGS__) { 0 }	\
	};									\
	static struct syscall_metadata syscall_meta_##sname = {		\
		.name = "sys_" #sname,						\
		.nr = _nr,							\
		.nb_args = n,							\
		.enter_event = {						\
			.system = SYSCALL_EVENT_SYSTEM,				\
			.name = "sys_enter_" #sname,				\
			.size = sizeof(struct syscall_trace_enter) +		\
				n * sizeof(unsigned long),			\
			.fields = syscall_enter_fields_##sname,			\
			.print_fmt = "\"" SC_MAP##n(SC_FMT_FIRST, SC_FMT_NEXT, __VA_ARGS__) \
				     "\"" SC_MAP##n(SC_FMT_REC, SC_FMT_REC, __VA_ARGS__), \
			.output = syscall_enter_output,				\
			.tp = &__tracepoint_sys_enter,				\
			.probe = (void *)syscall_enter_probe,			\
			.perf_probe = SYSCALL_PERF_PROBE(perf_syscall_enter),	\
		},								\
		.exit_event = {							\
			.system = SYSCALL_EVENT_SYSTEM,				\
			.name = "sys_exit_" #sname,				\
			.size = sizeof(struct syscall_trace_exit),		\
			.fields = syscall_exit_fields,				\
			.print_fmt = SYSCALL_EXIT_PRINT_FMT,			\
			.output = syscall_exit_output,				\
			.tp = &__tracepoint_sys_exit,				\
			.probe = (void *)syscall_exit_probe,			\
			.perf_probe = SYSCALL_PERF_PROBE(perf_syscall_exit),	\
		},								\
	};									\
	static struct trace_event_call *const syscall_enter_##sname		\
		__used __section("_ftrace_events") __aligned(8) =		\
		&syscall_meta_##sname.enter_event;				\
	static struct trace_event_call *const syscall_exit_##sname		\
		__used __section("_ftrace_events") __aligned(8) =		\
		&syscall_meta_##sname.exit_event

#endif
