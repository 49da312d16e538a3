/*
 * Tracepoints: the hooks compiled into kernel code. `trace_<name>(args)`
 * is a call site; whoever attaches a probe (the event machinery in
 * trace/define_trace.h, perf, hist) gets called with those arguments.
 *
 * INTERFACE ONLY, this round. The call site below tests a plain probe
 * pointer and calls at most one probe. The next round replaces the
 * inside of `trace_<name>()` and of the register functions with a static
 * key (a 5-byte NOP when off) around a loop over a copy-on-write probe
 * array with an RCU-like grace period; the names and signatures here stay.
 *
 * Also defines TRACE_EVENT and friends for an event header read normally
 * (no CREATE_TRACE_POINTS): there they only declare `trace_<name>()`.
 */
#ifndef TRACE_TRACEPOINT_H
#define TRACE_TRACEPOINT_H

#include <kernel/types.h>
#include <kernel/errno.h>

/* One tracepoint. Lives in section __tracepoints (kernel.ld bounds it). */
struct tracepoint {
	const char *name;
	/*
	 * The attached probe, called as probe(data, args...). NULL when
	 * nothing is attached: then the call site costs a load and a branch
	 * (the static key of the next round makes that a NOP).
	 */
	void *probe;
	void *data;
};

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data);

#define PARAMS(args...) args
#define TP_PROTO(args...) args
#define TP_ARGS(args...) args
/* Marks the argument perf uses as the sample count; plain value elsewhere. */
#define __perf_count(c) (c)

/*
 * DECLARE_TRACE(name, proto, args): what every user of an event header
 * sees: the tracepoint object and the inline call site.
 */
#define DECLARE_TRACE(name, proto, args)				\
	extern struct tracepoint __tracepoint_##name;			\
	static inline void trace_##name(proto)				\
	{								\
		void (*__probe)(void *, proto) =			\
			READ_ONCE(__tracepoint_##name.probe);		\
		if (unlikely(__probe))					\
			__probe(READ_ONCE(__tracepoint_##name.data), args); \
	}								\
	static inline int register_trace_##name(void (*probe)(void *, proto), void *data) \
	{								\
		return tracepoint_probe_register(&__tracepoint_##name,	\
						 (void *)probe, data);	\
	}								\
	static inline int unregister_trace_##name(void (*probe)(void *, proto), void *data) \
	{								\
		return tracepoint_probe_unregister(&__tracepoint_##name, \
						   (void *)probe, data); \
	}

/* DEFINE_TRACE(name): the tracepoint object itself, once per kernel. */
#define DEFINE_TRACE(_name, proto, args)				\
	struct tracepoint __tracepoint_##_name				\
		__used __section("__tracepoints") __aligned(8) = { .name = #_name }

#endif

/* Outside the guard: define_trace.h re-reads it to restore these. */
#include <trace/stages/declare.h>
