/*
 * The wakeup, wakeup_rt and wakeup_dl tracers, Linux's: each times how
 * long a woken task waits for its CPU, from the wakeup (sched_wakeup) to
 * the switch to it (sched_switch), and keeps the longest in the max
 * snapshot: the wakeup and switch records (ftrace:wakeup, ftrace:context_
 * switch, "pid:prio:state + [cpu] pid:prio:state comm"), stacks at both,
 * and the functions the woken task's CPU ran in between (under
 * display-graph their calls and returns, printed as function_graph does).
 *
 * As Linux, only a task of higher priority than its waker is timed, and a
 * wakeup replaces the one being timed only if its task ranks higher still;
 * wakeup takes every class, wakeup_rt the real-time and deadline ones,
 * wakeup_dl deadline only. Spoor schedules every task in its fair class
 * (nice -20..19, prio 100..139), so wakeup_rt and wakeup_dl never find a
 * task to time. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_functions.h>
#include <trace/trace_latency.h>
#include <trace/trace_functions_graph.h>
#include <trace/trace_output.h>
#include <trace/events/sched.h>

/* ftrace:wakeup and ftrace:context_switch (trace/events/ftrace.tev, defined in trace/trace_print.c). */
extern struct trace_event_call event_wakeup, event_context_switch;

/* Their record, as the events' format lays it out. */
struct ctx_switch_entry {
	struct trace_entry ent;
	u32 prev_pid, next_pid, next_cpu;
	u8 prev_prio, prev_state, next_prio, next_state;
};

enum wakeup_class { WAKEUP_ALL, WAKEUP_RT, WAKEUP_DL };

static struct trace_array *wakeup_trace;
static int tracer_enabled;
static enum wakeup_class wakeup_class;
/* The wakeup being timed, under wakeup_lock: the task (by pointer and pid, no reference). */
static struct task_struct *wakeup_task;
static pid_t wakeup_pid;
static int wakeup_cpu, wakeup_current_cpu = -1;
#define WAKEUP_PRIO_NONE	1000	/* above every prio: nothing timed */
static int wakeup_prio = WAKEUP_PRIO_NONE;
static u64 wakeup_ts;
static DEFINE_SPINLOCK(wakeup_lock);
static DEFINE_PER_CPU(int, wakeup_disabled);

/* Linux's task_state_index: the position of the state letter in "RSDTtXZPI". */
static u8 task_state_index(const struct task_struct *p)
{
	static const char states[] = "RSDTtXZPI";
	const char *c = strchr(states, task_state_char(p));

	return c ? (u8)(c - states) : 0;
}

static void record_ctxwake(struct trace_array *tr, struct trace_event_call *call,
			   struct task_struct *prev, struct task_struct *next, int next_cpu,
			   unsigned int trace_ctx)
{
	struct trace_buffer *buffer;
	struct ctx_switch_entry *e = ftrace_record_reserve_ctx(tr, sizeof(*e), call->id, &buffer,
							       trace_ctx);

	if (!e)
		return;
	e->prev_pid = (u32)prev->pid;
	e->prev_prio = (u8)prev->prio;
	e->prev_state = task_state_index(prev);
	e->next_pid = (u32)next->pid;
	e->next_prio = (u8)next->prio;
	e->next_state = task_state_index(next);
	e->next_cpu = (u32)next_cpu;
	ftrace_record_commit(buffer);
}

/* "  prev:prio:S delim [cpu]  next:prio:T comm", Linux's trace_ctxwake_print. */
static void ctxwake_print(struct trace_seq *s, const struct trace_entry *ent, const char *delim)
{
	static const char states[] = "RSDTtXZPI";
	const struct ctx_switch_entry *e = (const void *)ent;
	char comm[16];

	trace_find_cmdline((pid_t)e->next_pid, comm);
	trace_seq_printf(s, "%7d:%3d:%c %s [%03d] %7d:%3d:%c %s\n", e->prev_pid, e->prev_prio,
			 e->prev_state < sizeof(states) - 1 ? states[e->prev_state] : '?', delim,
			 e->next_cpu, e->next_pid, e->next_prio,
			 e->next_state < sizeof(states) - 1 ? states[e->next_state] : '?', comm);
}

static int wakeup_output(struct trace_seq *s, struct trace_seq *tmp, const struct trace_entry *ent)
{
	ctxwake_print(s, ent, "  +");
	return 0;
}

static int ctx_switch_output(struct trace_seq *s, struct trace_seq *tmp,
			     const struct trace_entry *ent)
{
	ctxwake_print(s, ent, "==>");
	return 0;
}

/* Spoor's tasks are all of the fair class: only the wakeup tracer takes them. */
static bool wakeup_wants(const struct task_struct *p)
{
	return READ_ONCE(wakeup_class) == WAKEUP_ALL;
}

static void wakeup_reset_task(void)
{
	wakeup_task = NULL;
	wakeup_pid = 0;
	wakeup_prio = WAKEUP_PRIO_NONE;
	WRITE_ONCE(wakeup_current_cpu, -1);
}

/*
 * The probes' bracket: this CPU's first entry takes wakeup_lock with
 * interrupts off; one nested in it (the tracer's own wakeups) gets nothing.
 */
static bool wakeup_enter(unsigned long *flags)
{
	if (this_cpu_add(wakeup_disabled, 1) != 1) {
		this_cpu_dec(wakeup_disabled);
		return false;
	}
	*flags = arch_local_irq_save();
	arch_spin_lock(&wakeup_lock);
	return true;
}

static void wakeup_leave(unsigned long flags)
{
	arch_spin_unlock(&wakeup_lock);
	arch_local_irq_restore(flags);
	this_cpu_dec(wakeup_disabled);
}

static void probe_wakeup(void *data, struct task_struct *p)
{
	struct trace_array *tr = READ_ONCE(wakeup_trace);
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	unsigned long flags;

	if (!READ_ONCE(tracer_enabled) || !wakeup_wants(p) ||
	    p->prio >= READ_ONCE(wakeup_prio) || p->prio >= current->prio ||
	    !wakeup_enter(&flags))
		return;
	if (READ_ONCE(tracer_enabled) && p->prio < wakeup_prio) {
		wakeup_task = p;
		wakeup_pid = p->pid;
		wakeup_prio = p->prio;
		wakeup_cpu = task_cpu(p);
		WRITE_ONCE(wakeup_current_cpu, wakeup_cpu);
		/* The snapshot shows the records from here on: no reset of the buffer needed. */
		wakeup_ts = latency_now(tr);
		record_ctxwake(tr, &event_wakeup, current, p, task_cpu(p), trace_ctx);
		trace_dump_stack_record(tr, 0);
		latency_function_record(tr, _RET_IP_, caller_parent_ip(), trace_ctx);
	}
	wakeup_leave(flags);
}

static void probe_wakeup_sched_switch(void *data, bool preempt, struct task_struct *prev,
				      struct task_struct *next, unsigned int prev_state)
{
	struct trace_array *tr = READ_ONCE(wakeup_trace);
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	unsigned long flags;
	u64 delta;

	if (next != READ_ONCE(wakeup_task) || !wakeup_enter(&flags))
		return;
	if (READ_ONCE(tracer_enabled) && next == wakeup_task && next->pid == wakeup_pid) {
		latency_function_record(tr, _RET_IP_, caller_parent_ip(), trace_ctx);
		record_ctxwake(tr, &event_context_switch, prev, next, smp_processor_id(),
			       trace_ctx);
		trace_dump_stack_record(tr, 0);
		delta = latency_now(tr) - wakeup_ts;
		if (latency_report(tr, delta))
			latency_update_max(tr, next, wakeup_cpu, delta, wakeup_ts, 0, 0);
		wakeup_reset_task();
	}
	wakeup_leave(flags);
}

/* The timed task moved: its new CPU's functions are the ones to record. */
static void probe_wakeup_migrate_task(void *data, struct task_struct *p, int dest_cpu)
{
	if (p == READ_ONCE(wakeup_task))
		WRITE_ONCE(wakeup_current_cpu, dest_cpu);
}

/* The function tracer's callback: the calls the woken task's CPU makes meanwhile. */
static void wakeup_function_call(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = READ_ONCE(wakeup_trace);

	if (!READ_ONCE(tracer_enabled) || smp_processor_id() != READ_ONCE(wakeup_current_cpu))
		return;
	if (this_cpu_add(wakeup_disabled, 1) == 1)
		trace_function_record(tr, ip, parent_ip, tracing_gen_ctx_dec());
	this_cpu_dec(wakeup_disabled);
}

/* display-graph: whether this CPU's calls and returns are the woken task's CPU's. */
static bool wakeup_graph_want(void)
{
	return READ_ONCE(tracer_enabled) && smp_processor_id() == READ_ONCE(wakeup_current_cpu) &&
	       !this_cpu_read(wakeup_disabled);
}

static const struct latency_functions wakeup_functions = {
	.func = wakeup_function_call,
	.want = wakeup_graph_want,
};

static int wakeup_flag_changed(struct trace_array *tr, unsigned int bit, bool on)
{
	unsigned long flags;

	if (bit == TRACE_ITER_DISPLAY_GRAPH_BIT) {
		spin_lock_irqsave(&wakeup_lock, flags);
		wakeup_reset_task();
		spin_unlock_irqrestore(&wakeup_lock, flags);
	}
	return latency_flag_changed(tr, bit, on, &wakeup_functions);
}

/* Linux's wakeup columns under display-graph. */
#define WAKEUP_GRAPH_FLAGS	(FGRAPH_OPT(PROC) | FGRAPH_OPT(CPU) | FGRAPH_PRINT_REL_TIME | \
				 FGRAPH_OPT(DURATION) | FGRAPH_OPT(OVERHEAD) | FGRAPH_OPT(IRQS))

static void wakeup_print_header(struct trace_iterator *iter)
{
	fgraph_print_header_flags(iter, WAKEUP_GRAPH_FLAGS);
}

static void wakeup_print_line(struct trace_iterator *iter, int cpu,
			      const struct ring_buffer_record *rec)
{
	fgraph_print_line_flags(iter, cpu, rec, WAKEUP_GRAPH_FLAGS);
}

static void wakeup_probes(bool on)
{
	if (on) {
		register_trace_sched_wakeup(probe_wakeup, NULL);
		register_trace_sched_wakeup_new(probe_wakeup, NULL);
		register_trace_sched_switch(probe_wakeup_sched_switch, NULL);
		register_trace_sched_migrate_task(probe_wakeup_migrate_task, NULL);
	} else {
		unregister_trace_sched_wakeup(probe_wakeup, NULL);
		unregister_trace_sched_wakeup_new(probe_wakeup, NULL);
		unregister_trace_sched_switch(probe_wakeup_sched_switch, NULL);
		unregister_trace_sched_migrate_task(probe_wakeup_migrate_task, NULL);
	}
}

static int wakeup_tracer_init(struct trace_array *tr, enum wakeup_class class)
{
	unsigned long flags;
	int ret;

	if (wakeup_trace)
		return -EBUSY;
	ret = latency_tracer_init(tr);
	if (ret)
		return ret;
	ret = latency_functions_start(tr, &wakeup_functions);
	if (ret) {
		latency_tracer_reset(tr);
		return ret;
	}
	spin_lock_irqsave(&wakeup_lock, flags);
	wakeup_reset_task();
	spin_unlock_irqrestore(&wakeup_lock, flags);
	WRITE_ONCE(wakeup_class, class);
	WRITE_ONCE(wakeup_trace, tr);
	WRITE_ONCE(tracer_enabled, 1);
	wakeup_probes(true);
	return 0;
}

static void wakeup_tracer_reset(struct trace_array *tr)
{
	WRITE_ONCE(tracer_enabled, 0);
	wakeup_probes(false);
	latency_functions_stop(tr);
	latency_tracer_reset(tr);
	WRITE_ONCE(wakeup_trace, NULL);
}

static int wakeup_init(struct trace_array *tr)
{
	return wakeup_tracer_init(tr, WAKEUP_ALL);
}

static int wakeup_rt_init(struct trace_array *tr)
{
	return wakeup_tracer_init(tr, WAKEUP_RT);
}

static int wakeup_dl_init(struct trace_array *tr)
{
	return wakeup_tracer_init(tr, WAKEUP_DL);
}

#define WAKEUP_TRACER(tracer_name, init_fn)						\
	{ .name = tracer_name, .init = init_fn, .reset = wakeup_tracer_reset,		\
	  .print_max = true, .flag_changed = wakeup_flag_changed,			\
	  .print_header = wakeup_print_header, .print_line = wakeup_print_line,	\
	  .layout_on = latency_graph_on }

static struct tracer wakeup_tracers[] = {
	WAKEUP_TRACER("wakeup", wakeup_init),
	WAKEUP_TRACER("wakeup_rt", wakeup_rt_init),
	WAKEUP_TRACER("wakeup_dl", wakeup_dl_init),
};

int trace_wakeup_init(void)
{
	event_wakeup.output = wakeup_output;
	event_context_switch.output = ctx_switch_output;
	return latency_register_tracers(wakeup_tracers, ARRAY_SIZE(wakeup_tracers));
}
