/*
 * The irqsoff, preemptoff and preemptirqsoff tracers, Linux's: each times
 * the sections of a CPU where interrupts (preemption, either) stay off,
 * from the hooks of trace/trace_preemptirq.c, and keeps the longest in the
 * max snapshot: the trace of that section (its first and last function,
 * the functions called inside it when the function tracer sites exist,
 * and a stack where it ended), shown by `trace` with its latency header.
 * With tracing_thresh set, every section at least that long is swapped in
 * instead of only a new max. Interrupt entry counts as interrupts off.
 * Under display-graph the calls and returns inside the section are
 * recorded and printed as function_graph does.
 *
 * One array at a time runs them (EBUSY otherwise, as Linux). Per CPU:
 * whether a section is being timed (tracing_cpu), when and where it
 * began. max_sequence drops a section that began before another CPU's
 * max was swapped in (that swap took its records away). Kernel only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_functions.h>
#include <trace/trace_latency.h>
#include <trace/trace_functions_graph.h>

#define TRACER_IRQS_OFF		(1u << 0)
#define TRACER_PREEMPT_OFF	(1u << 1)

/* A CPU's section being timed. */
struct irqsoff_cpu {
	int tracing;			/* a section is open */
	int disabled;			/* inside the tracer: its own records are not sections */
	u64 start_ts;			/* buffer clock at its start */
	unsigned long critical_start;	/* where it started (the caller's caller) */
	unsigned long sequence;		/* max_sequence when it started */
};

static DEFINE_PER_CPU(struct irqsoff_cpu, irqsoff_cpu);
static struct trace_array *irqsoff_trace;
static unsigned int trace_type;		/* TRACER_*: which sections the running tracer times */
static int tracer_enabled;
static unsigned long max_sequence;
static DEFINE_SPINLOCK(max_trace_lock);

static bool preempt_trace(void)
{
	return (READ_ONCE(trace_type) & TRACER_PREEMPT_OFF) && preempt_count();
}

static bool irq_trace(void)
{
	return (READ_ONCE(trace_type) & TRACER_IRQS_OFF) && irqs_disabled();
}

static struct trace_array *irqsoff_array(void)
{
	return READ_ONCE(tracer_enabled) ? READ_ONCE(irqsoff_trace) : NULL;
}

/*
 * The section ended longer than what is reported: record its end, a stack
 * and, when no other max came meanwhile, swap it in as the new max.
 */
static noinline void check_critical_timing(struct trace_array *tr,
							    struct irqsoff_cpu *d,
							    unsigned long parent_ip, int cpu)
{
	u64 now = latency_now(tr), delta = now - d->start_ts;
	unsigned int trace_ctx = tracing_gen_ctx();
	unsigned long flags;

	if (latency_report(tr, delta)) {
		flags = arch_local_irq_save();
		arch_spin_lock(&max_trace_lock);
		if (latency_report(tr, delta)) {
			latency_function_record(tr, _RET_IP_, parent_ip, trace_ctx);
			trace_dump_stack_record(tr, 3);
			if (d->sequence == max_sequence) {
				latency_update_max(tr, current, cpu, delta, d->start_ts,
						   d->critical_start, parent_ip);
				max_sequence++;
			}
		}
		arch_spin_unlock(&max_trace_lock);
		arch_local_irq_restore(flags);
	}
	d->sequence = max_sequence;
	d->start_ts = latency_now(tr);
	latency_function_record(tr, _RET_IP_, parent_ip, trace_ctx);
}

static void start_critical_timing(unsigned long ip, unsigned long parent_ip)
{
	struct trace_array *tr = irqsoff_array();
	struct irqsoff_cpu *d = this_cpu_ptr(&irqsoff_cpu);

	if (!tr || !READ_ONCE(tr->tracing_on) || d->tracing || d->disabled)
		return;
	d->disabled++;
	d->sequence = max_sequence;
	d->start_ts = latency_now(tr);
	d->critical_start = parent_ip ? parent_ip : ip;
	latency_function_record(tr, ip, parent_ip, tracing_gen_ctx());
	d->tracing = 1;
	d->disabled--;
}

static void stop_critical_timing(unsigned long ip, unsigned long parent_ip)
{
	struct trace_array *tr;
	struct irqsoff_cpu *d = this_cpu_ptr(&irqsoff_cpu);

	/* Always ends the section, even when the tracer went away meanwhile. */
	if (!d->tracing)
		return;
	d->tracing = 0;
	tr = irqsoff_array();
	if (!tr || !READ_ONCE(tr->tracing_on) || !d->critical_start || d->disabled)
		return;
	d->disabled++;
	latency_function_record(tr, ip, parent_ip, tracing_gen_ctx());
	check_critical_timing(tr, d, parent_ip ? parent_ip : ip, smp_processor_id());
	d->critical_start = 0;
	d->disabled--;
}

void tracer_hardirqs_off(unsigned long ip, unsigned long parent_ip)
{
	if (!preempt_trace() && irq_trace())
		start_critical_timing(ip, parent_ip);
}

void tracer_hardirqs_on(unsigned long ip, unsigned long parent_ip)
{
	if (!preempt_trace() && irq_trace())
		stop_critical_timing(ip, parent_ip);
}

void tracer_preempt_off(unsigned long ip, unsigned long parent_ip)
{
	if (preempt_trace() && !irq_trace())
		start_critical_timing(ip, parent_ip);
}

void tracer_preempt_on(unsigned long ip, unsigned long parent_ip)
{
	if (preempt_trace() && !irq_trace())
		stop_critical_timing(ip, parent_ip);
}

/* The function tracer's callback: the calls inside an open section. */
static void irqsoff_function_call(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = irqsoff_array();
	struct irqsoff_cpu *d = this_cpu_ptr(&irqsoff_cpu);

	if (!tr || !d->tracing || d->disabled)
		return;
	d->disabled++;
	trace_function_record(tr, ip, parent_ip, tracing_gen_ctx_dec());
	d->disabled--;
}

/* display-graph: whether this CPU's calls and returns are inside its open section. */
static bool irqsoff_graph_want(void)
{
	struct irqsoff_cpu *d = this_cpu_ptr(&irqsoff_cpu);

	return irqsoff_array() && d->tracing && !d->disabled;
}

static const struct latency_functions irqsoff_functions = {
	.func = irqsoff_function_call,
	.want = irqsoff_graph_want,
};

static int irqsoff_flag_changed(struct trace_array *tr, unsigned int bit, bool on)
{
	if (bit == TRACE_ITER_DISPLAY_GRAPH_BIT)
		for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
			per_cpu(irqsoff_cpu, cpu).tracing = 0;
	return latency_flag_changed(tr, bit, on, &irqsoff_functions);
}

/* Linux's irqsoff columns under display-graph. */
#define IRQSOFF_GRAPH_FLAGS	(FGRAPH_OPT(CPU) | FGRAPH_OPT(PROC) | FGRAPH_PRINT_REL_TIME | \
				 FGRAPH_OPT(DURATION))

static void irqsoff_print_header(struct trace_iterator *iter)
{
	fgraph_print_header_flags(iter, IRQSOFF_GRAPH_FLAGS);
}

static void irqsoff_print_line(struct trace_iterator *iter, int cpu,
			       const struct ring_buffer_record *rec)
{
	fgraph_print_line_flags(iter, cpu, rec, IRQSOFF_GRAPH_FLAGS);
}

static int irqsoff_tracer_init(struct trace_array *tr, unsigned int type)
{
	int ret;

	if (irqsoff_trace)
		return -EBUSY;
	ret = latency_tracer_init(tr);
	if (ret)
		return ret;
	ret = latency_functions_start(tr, &irqsoff_functions);
	if (ret) {
		latency_tracer_reset(tr);
		return ret;
	}
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		per_cpu(irqsoff_cpu, cpu).tracing = 0;
	WRITE_ONCE(trace_type, type);
	WRITE_ONCE(irqsoff_trace, tr);
	WRITE_ONCE(tracer_enabled, 1);
	trace_preemptirq_hooks_get(type & TRACER_IRQS_OFF, type & TRACER_PREEMPT_OFF);
	return 0;
}

static void irqsoff_tracer_reset(struct trace_array *tr)
{
	unsigned int type = trace_type;

	WRITE_ONCE(tracer_enabled, 0);
	trace_preemptirq_hooks_put(type & TRACER_IRQS_OFF, type & TRACER_PREEMPT_OFF);
	latency_functions_stop(tr);
	latency_tracer_reset(tr);
	WRITE_ONCE(irqsoff_trace, NULL);
}

static int irqsoff_init(struct trace_array *tr)
{
	return irqsoff_tracer_init(tr, TRACER_IRQS_OFF);
}

static int preemptoff_init(struct trace_array *tr)
{
	return irqsoff_tracer_init(tr, TRACER_PREEMPT_OFF);
}

static int preemptirqsoff_init(struct trace_array *tr)
{
	return irqsoff_tracer_init(tr, TRACER_IRQS_OFF | TRACER_PREEMPT_OFF);
}

#define IRQSOFF_TRACER(tracer_name, init_fn)						\
	{ .name = tracer_name, .init = init_fn, .reset = irqsoff_tracer_reset,		\
	  .print_max = true, .flag_changed = irqsoff_flag_changed,			\
	  .print_header = irqsoff_print_header, .print_line = irqsoff_print_line,	\
	  .layout_on = latency_graph_on }

static struct tracer irqsoff_tracers[] = {
	IRQSOFF_TRACER("irqsoff", irqsoff_init),
	IRQSOFF_TRACER("preemptoff", preemptoff_init),
	IRQSOFF_TRACER("preemptirqsoff", preemptirqsoff_init),
};

int trace_irqsoff_init(void)
{
	return latency_register_tracers(irqsoff_tracers, ARRAY_SIZE(irqsoff_tracers));
}
