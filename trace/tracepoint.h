/*
 * Tracepoints: the hooks compiled into kernel code. `trace_<name>(args)`
 * is a call site; whoever attaches a probe (the event machinery in
 * trace/define_trace.h, perf, hist) gets called with those arguments.
 *
 * A call site is a static branch (kernel/jump_label.h): a 5-byte NOP
 * while no probe is attached. Attached, it walks the tracepoint's probe
 * array with preemption off, inside the per-CPU, per-context recursion
 * guard (a probe that hits a tracepoint in its own context is dropped and
 * counted, never recursed into). The array is replaced copy-on-write on
 * every change and the old one freed only after a grace period
 * (kernel/rcu.h), so a CPU still walking it never runs freed memory.
 *
 * Also defines TRACE_EVENT and friends for an event header read normally
 * (no CREATE_TRACE_POINTS): there they only declare `trace_<name>()`.
 */
#ifndef TRACE_TRACEPOINT_H
#define TRACE_TRACEPOINT_H

#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/jump_label.h>
#include <kernel/rcu.h>
#include <trace/trace_recursion.h>

/* One attached probe, called as func(data, args...). */
struct tracepoint_func {
	void *func;
	void *data;
	int prio;		/* higher runs first; equal ones in registration order */
};

#define TRACEPOINT_DEFAULT_PRIO	10

/* One tracepoint. Lives in section __tracepoints (kernel.ld bounds it). */
struct tracepoint {
	const char *name;
	struct static_key_false key;	/* on while funcs is non-empty */
	/* NULL-terminated; NULL when nothing is attached. Readers: rcu_dereference. */
	struct tracepoint_func *funcs;
	/*
	 * A key switched with key, for hooks that guard the call site
	 * themselves (the preemptirq hooks, trace/trace_preemptirq.c); NULL
	 * for most.
	 */
	struct static_key *site_key;
};

/*
 * Attach probe(data, ...) (-EEXIST if that pair is attached, -ENOMEM) or
 * detach it (-ENOENT if it is not). Both may sleep in a grace period:
 * never from a probe or with interrupts off.
 */
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
/* The same with a priority: a probe that must see what the others did runs with a lower one. */
int tracepoint_probe_register_prio(struct tracepoint *tp, void *probe, void *data, int prio);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data);

/* The guard every call site enters (per CPU); refused counts dropped hits. */
DECLARE_PER_CPU(struct trace_recursion, tracepoint_recursion);
/* Hits dropped as recursion, all CPUs. */
unsigned long tracepoint_recursion_refused(void);

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
	static inline void __do_trace_##name(proto)			\
	{								\
		struct trace_recursion *__rec;				\
		struct tracepoint_func *__it;				\
									\
		preempt_disable_notrace();					\
		__rec = this_cpu_ptr(&tracepoint_recursion);		\
		if (trace_recursion_lock(__rec)) {			\
			__it = rcu_dereference(__tracepoint_##name.funcs); \
			for (; __it && __it->func; __it++)		\
				((void (*)(void *, proto))__it->func)(__it->data, args); \
			trace_recursion_unlock(__rec);			\
		}							\
		preempt_enable_notrace();					\
	}								\
	static inline void trace_##name(proto)				\
	{								\
		if (static_branch_unlikely(&__tracepoint_##name.key))	\
			__do_trace_##name(args);			\
	}								\
	static inline int register_trace_##name(void (*probe)(void *, proto), void *data) \
	{								\
		return tracepoint_probe_register(&__tracepoint_##name,	\
						 (void *)probe, data);	\
	}								\
	static inline int register_trace_prio_##name(void (*probe)(void *, proto), void *data, \
						     int prio)			\
	{								\
		return tracepoint_probe_register_prio(&__tracepoint_##name, \
						      (void *)probe, data, prio); \
	}								\
	static inline int unregister_trace_##name(void (*probe)(void *, proto), void *data) \
	{								\
		return tracepoint_probe_unregister(&__tracepoint_##name, \
						   (void *)probe, data); \
	}

/* DEFINE_TRACE(name): the tracepoint object itself, once per kernel. */
#define DEFINE_TRACE(_name, proto, args)				\
	struct tracepoint __tracepoint_##_name				\
		__used __section("__tracepoints") __aligned(8) = {		\
		.name = #_name, .key = { STATIC_KEY_INIT_FALSE } }

#endif

/* Outside the guard: define_trace.h re-reads it to restore these. */
#include <trace/stages/declare.h>
