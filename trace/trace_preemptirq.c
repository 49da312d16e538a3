/*
 * The hooks of local_irq_* (kernel/irqflags.h) and preempt_* (kernel/preempt.h),
 * Linux's trace_hardirqs_on/off and trace_preempt_on/off: they turn the raw
 * toggles into the preemptirq events (trace/events/preemptirq.tev) and the
 * irqsoff tracers' sections (trace/trace_irqsoff.c).
 *
 * Each hook site is a static branch: trace_irqflags_key is on while the
 * irqsoff tracers or an irq_disable/irq_enable event want it,
 * trace_preempt_key likewise for preemption (the events switch them
 * through their tracepoints' site_key). The hooks report transitions
 * only: interrupts as this CPU's hooks saw them go off then on again
 * (tracing_irq_cpu, so nested disables count once), preemption when the
 * count goes 0 -> 1 and 1 -> 0 (inside an interrupt it is never 0).
 *
 * They run from everywhere, the tracer included (its locks toggle
 * preemption and interrupts too): a per-CPU, per-context recursion guard
 * drops any hook nested in another one of the same context, and NMIs are
 * left out (an NMI may land inside a hook). This file is built without
 * function-tracing sites, as all of trace/ is.
 */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/jump_label.h>
#include <trace/trace_recursion.h>
#include <trace/trace_latency.h>

#define CREATE_TRACE_POINTS
#include <trace/events/preemptirq.h>

DEFINE_STATIC_KEY_FALSE(trace_irqflags_key);
DEFINE_STATIC_KEY_FALSE(trace_preempt_key);

/* This CPU's hooks saw interrupts go off and not yet on again (Linux's tracing_irq_cpu). */
static DEFINE_PER_CPU(int, tracing_irq_cpu);
static DEFINE_PER_CPU(struct trace_recursion, preemptirq_recursion);

static bool hook_enter(void)
{
	return !in_nmi() && trace_recursion_lock(this_cpu_ptr(&preemptirq_recursion));
}

static void hook_leave(void)
{
	trace_recursion_unlock(this_cpu_ptr(&preemptirq_recursion));
}

void trace_hardirqs_off_caller(unsigned long ip, unsigned long parent_ip)
{
	if (this_cpu_read(tracing_irq_cpu) || !hook_enter())
		return;
	this_cpu_write(tracing_irq_cpu, 1);
	tracer_hardirqs_off(ip, parent_ip);
	trace_irq_disable(ip, parent_ip);
	hook_leave();
}

/* An interrupt hook refused as recursion still ends the section: the next off starts one. */
void trace_hardirqs_on_caller(unsigned long ip, unsigned long parent_ip)
{
	if (!this_cpu_read(tracing_irq_cpu) || in_nmi())
		return;
	if (hook_enter()) {
		trace_irq_enable(ip, parent_ip);
		tracer_hardirqs_on(ip, parent_ip);
		hook_leave();
	}
	this_cpu_write(tracing_irq_cpu, 0);
}

/*
 * Called from the inline local_irq_* and preempt_* of a function: ip is
 * in that function, parent_ip its caller (caller_parent_ip).
 */
noinline void trace_hardirqs_off(void)
{
	trace_hardirqs_off_caller(_RET_IP_, caller_parent_ip());
}

noinline void trace_hardirqs_on(void)
{
	trace_hardirqs_on_caller(_RET_IP_, caller_parent_ip());
}

/* Preemption goes 0 -> 1 (on false) or 1 -> 0 (on true): the count is 1 either way. */
static void preempt_toggle(bool on, unsigned long ip, unsigned long parent_ip)
{
	if (preempt_count() != 1 || !hook_enter())
		return;
	if (on) {
		trace_preempt_enable(ip, parent_ip);
		tracer_preempt_on(ip, parent_ip);
	} else {
		trace_preempt_disable(ip, parent_ip);
		tracer_preempt_off(ip, parent_ip);
	}
	hook_leave();
}

/* After the count went up. */
noinline void trace_preempt_off(void)
{
	preempt_toggle(false, _RET_IP_, caller_parent_ip());
}

/* Before the count goes down. */
noinline void trace_preempt_on(void)
{
	preempt_toggle(true, _RET_IP_, caller_parent_ip());
}

void trace_preemptirq_hooks_get(bool irqs, bool preempt)
{
	if (irqs)
		static_branch_inc(&trace_irqflags_key);
	if (preempt)
		static_branch_inc(&trace_preempt_key);
}

void trace_preemptirq_hooks_put(bool irqs, bool preempt)
{
	if (irqs)
		static_branch_dec(&trace_irqflags_key);
	if (preempt)
		static_branch_dec(&trace_preempt_key);
}

/* The events' first probe switches the hooks on with their own call sites. */
int trace_preemptirq_init(void)
{
	__tracepoint_irq_disable.site_key = &trace_irqflags_key.key;
	__tracepoint_irq_enable.site_key = &trace_irqflags_key.key;
	__tracepoint_preempt_disable.site_key = &trace_preempt_key.key;
	__tracepoint_preempt_enable.site_key = &trace_preempt_key.key;
	return 0;
}
