/*
 * perf's per-CPU, per-context recursion guard (Linux's
 * perf_swevent_get_recursion_context): a hit entering perf in a context
 * that is already inside perf on this CPU is dropped, so a probe that
 * triggers another event never recurses, and each context (task,
 * softirq, hardirq, NMI) owns one slot of every per-context scratch
 * buffer. Call with preemption off.
 */
#ifndef TRACE_PERF_RECURSION_H
#define TRACE_PERF_RECURSION_H

#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <trace/trace_recursion.h>

#define PERF_NR_CONTEXTS	4

DECLARE_PER_CPU(struct trace_recursion, perf_recursion);

/* The context index (0 task .. 3 NMI), or -1 if this context is already inside. */
static inline int perf_recursion_enter(void)
{
	if (!trace_recursion_lock(this_cpu_ptr(&perf_recursion)))
		return -1;
	return interrupt_context_level();
}

static inline void perf_recursion_exit(void)
{
	trace_recursion_unlock(this_cpu_ptr(&perf_recursion));
}

#endif
