/*
 * Function commands: "FUNC:COMMAND[:PARAM]" written to set_ftrace_filter
 * attaches an action to the functions FUNC (a glob) names, run whenever
 * one of them is called, whatever tracer runs (Linux's function probes):
 *
 *   traceon, traceoff [:count]      set tracing_on (a count is spent only
 *                                   when the state changes)
 *   snapshot [:count]               swap in the snapshot buffer
 *   stacktrace [:count]             record the kernel stack
 *   dump, cpudump [:count]          print the buffer (all CPUs, this one) on
 *                                   the console; dump fires once by default
 *   enable_event, disable_event :SYSTEM:EVENT[:count]
 *                                   soft-enable or soft-disable an event
 *
 * "!FUNC:COMMAND" removes them. Each array keeps its probes in a list,
 * newest command first, read by the callback under RCU-sched, and one
 * ftrace_ops whose filter is the set of probed sites. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/rcu.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <trace/trace.h>
#include <trace/ftrace.h>
#include <trace/ftrace_set.h>
#include <trace/trace_functions.h>

struct ftrace_probe;

/* One command: its action and what its parameter is. */
struct ftrace_probe_cmd {
	const char *name;
	void (*func)(struct trace_array *tr, struct ftrace_probe *p);
	long default_count;	/* without ":count" (-1: unlimited) */
	bool event;		/* takes SYSTEM:EVENT before the count */
};

/* One command on one function. */
struct ftrace_probe {
	struct ftrace_probe *next;		/* f->probes, newest first */
	unsigned long ip;
	const struct ftrace_probe_cmd *cmd;
	long count;				/* fires left; -1 unlimited */
	struct trace_event_file *target;	/* enable_event/disable_event */
};

/* Take one firing: false when the count is used up. Any context. */
static bool probe_take(struct ftrace_probe *p)
{
	long c = __atomic_load_n(&p->count, __ATOMIC_RELAXED);

	while (c != -1) {
		if (c <= 0)
			return false;
		if (__atomic_compare_exchange_n(&p->count, &c, c - 1, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return true;
	}
	return true;
}

/*
 * traceon/traceoff and enable_event/disable_event spend a count only on a
 * change, as Linux's: the state flips atomically first, so when several
 * CPUs call the function at once only the one that flipped it pays (two
 * paying for one change let a ":3" stop after two).
 */
static void probe_traceonoff(struct trace_array *tr, struct ftrace_probe *p)
{
	bool on = !strcmp(p->cmd->name, "traceon"), was = !on;

	if (READ_ONCE(tr->tracing_on) == on || !READ_ONCE(p->count) ||
	    !__atomic_compare_exchange_n(&tr->tracing_on, &was, on, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	probe_take(p);
	tracer_tracing_on(tr, on);
}

static void probe_snapshot(struct trace_array *tr, struct ftrace_probe *p)
{
	if (probe_take(p))
		tracing_snapshot(tr);
}

/*
 * Frames above the traced function: this action, the probe dispatch,
 * ftrace_ops_list_func and the trampoline's own frame.
 */
#define PROBE_STACK_SKIP	3

static void probe_stacktrace(struct trace_array *tr, struct ftrace_probe *p)
{
	if (READ_ONCE(tr->tracing_on) && probe_take(p))
		trace_dump_stack_record(tr, PROBE_STACK_SKIP);
}

/* The dump reads the buffer with allocations and console writes: never from an NMI. */
static void probe_dump(struct trace_array *tr, struct ftrace_probe *p)
{
	if (!in_nmi() && probe_take(p))
		ftrace_dump(tr, RING_BUFFER_ALL_CPUS);
}

static void probe_cpudump(struct trace_array *tr, struct ftrace_probe *p)
{
	if (!in_nmi() && probe_take(p))
		ftrace_dump(tr, smp_processor_id());
}

static void probe_event_enable(struct trace_array *tr, struct ftrace_probe *p)
{
	bool enable = p->cmd->name[0] == 'e';
	bool enabled = !(READ_ONCE(p->target->flags) & EVENT_FILE_FL_SOFT_DISABLED);
	unsigned long old;

	if (enabled == enable || !READ_ONCE(p->count))
		return;
	if (enable)
		old = __atomic_fetch_and(&p->target->flags, ~EVENT_FILE_FL_SOFT_DISABLED,
					 __ATOMIC_RELAXED);
	else
		old = __atomic_fetch_or(&p->target->flags, EVENT_FILE_FL_SOFT_DISABLED,
					__ATOMIC_RELAXED);
	if (!(old & EVENT_FILE_FL_SOFT_DISABLED) != enable)
		probe_take(p);
}

static const struct ftrace_probe_cmd probe_cmds[] = {
	{ "traceon", probe_traceonoff, -1, false },
	{ "traceoff", probe_traceonoff, -1, false },
	{ "snapshot", probe_snapshot, -1, false },
	{ "stacktrace", probe_stacktrace, -1, false },
	{ "dump", probe_dump, 1, false },
	{ "cpudump", probe_cpudump, -1, false },
	{ "enable_event", probe_event_enable, -1, true },
	{ "disable_event", probe_event_enable, -1, true },
};

/* The probe ops' callback: every command on the called function. */
static void ftrace_probe_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs)
{
	struct trace_ftrace *f = op->private;

	for (struct ftrace_probe *p = rcu_dereference(f->probes); p; p = rcu_dereference(p->next))
		if (p->ip == ip)
			p->cmd->func(f->tr, p);
}

/*
 * Make the probe ops trace exactly the probed sites (caller holds
 * ftrace_lock). An empty filter would mean every function: with no
 * probe left the ops goes.
 */
static int probe_ops_sync(struct trace_ftrace *f)
{
	struct ftrace_ops *ops = &f->probe_ops;

	ftrace_set_clear(&ops->filter, ftrace_nr_sites);
	for (struct ftrace_probe *p = f->probes; p; p = p->next)
		ftrace_set_assign(&ops->filter, (unsigned int)ftrace_site_index(p->ip), true);
	if (!f->probes)
		return ops->registered ? unregister_ftrace_function(ops) : 0;
	if (!ops->registered) {
		ops->func = ftrace_probe_call;
		ops->private = f;
		return register_ftrace_function(ops);
	}
	return ftrace_ops_update();
}

static bool probe_exists(const struct trace_ftrace *f, const struct ftrace_probe *n)
{
	for (const struct ftrace_probe *p = f->probes; p; p = p->next)
		if (p->ip == n->ip && p->cmd == n->cmd && p->target == n->target)
			return true;
	return false;
}

/*
 * Add cmd on every site whose name matches glob, as one block at the head
 * of the list (in address order). Sites that have the same probe already
 * are left alone; none added is EINVAL, as Linux.
 */
static int probe_add(struct trace_ftrace *f, const char *glob, const struct ftrace_probe_cmd *cmd,
		     long count, struct trace_event_file *target)
{
	struct ftrace_probe *head = NULL, **tail = &head;
	int added = 0, ret;

	for (unsigned int i = 0; i < ftrace_nr_sites; i++) {
		const char *name = ftrace_site_name(i, NULL);
		struct ftrace_probe *p;

		if (!name || !trace_glob_match(glob, name))
			continue;
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (!p)
			break;
		*p = (struct ftrace_probe){ .ip = ftrace_sites[i].ip, .cmd = cmd, .count = count,
					    .target = target };
		if (probe_exists(f, p)) {
			kfree(p);
			continue;
		}
		*tail = p;
		tail = &p->next;
		added++;
	}
	if (!added)
		return -EINVAL;
	if (target)
		for (struct ftrace_probe *p = head; p; p = p->next)
			trace_event_enable_disable(target, true, true);
	*tail = f->probes;
	rcu_assign_pointer(f->probes, head);
	ret = probe_ops_sync(f);
	return ret;
}

/*
 * Remove cmd (on target, for the event commands) from the sites glob
 * names: ENODEV when the command is on no function, EINVAL when on none
 * of those.
 */
static int probe_remove(struct trace_ftrace *f, const char *glob,
			const struct ftrace_probe_cmd *cmd, struct trace_event_file *target)
{
	struct ftrace_probe **pp = &f->probes, *gone = NULL;
	bool any = false;

	while (*pp) {
		struct ftrace_probe *p = *pp;
		const char *name;

		if (p->cmd != cmd || p->target != target) {
			pp = &p->next;
			continue;
		}
		any = true;
		name = ftrace_site_name((unsigned int)ftrace_site_index(p->ip), NULL);
		if (!name || !trace_glob_match(glob, name)) {
			pp = &p->next;
			continue;
		}
		rcu_assign_pointer(*pp, p->next);
		p->next = gone;
		gone = p;
	}
	if (!gone)
		return any ? -EINVAL : -ENODEV;
	probe_ops_sync(f);
	synchronize_rcu();	/* no CPU is still walking the unlinked probes */
	while (gone) {
		struct ftrace_probe *p = gone;

		gone = p->next;
		if (p->target)
			trace_event_enable_disable(p->target, false, true);
		kfree(p);
	}
	return 0;
}

int ftrace_probe_command(struct trace_ftrace *f, const char *glob, const char *name,
			 char *param, bool remove)
{
	const struct ftrace_probe_cmd *cmd = NULL;
	struct trace_event_file *target = NULL;
	unsigned long long v;
	long count;
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(probe_cmds); i++)
		if (!strcmp(probe_cmds[i].name, name))
			cmd = &probe_cmds[i];
	if (!cmd)
		return -EINVAL;
	count = cmd->default_count;
	trace_types_lock();
	ret = -EINVAL;
	if (cmd->event) {
		char *system = param, *event = param ? strchr(param, ':') : NULL;

		if (!event)
			goto out;
		*event++ = '\0';
		param = strchr(event, ':');
		if (param)
			*param++ = '\0';
		target = trace_find_event_file(f->tr, system, event);
		if (!target)
			goto out;
	}
	/* A removal may name the count as listed; it is not compared. */
	if (param && !remove) {
		if (kstrtoull(param, 0, &v) || v > 0x7fffffff)
			goto out;
		count = (long)v;
	}
	if (!strcmp(name, "snapshot") && !remove && (ret = tracing_alloc_snapshot(f->tr)))
		goto out;
	ftrace_lock();
	ret = remove ? probe_remove(f, glob, cmd, target) : probe_add(f, glob, cmd, count, target);
	ftrace_unlock();
out:
	trace_types_unlock();
	return ret;
}

void ftrace_probes_clear(struct trace_ftrace *f)
{
	ftrace_lock();
	/* The head's command (and target) goes from every function, until none is left. */
	while (f->probes && !probe_remove(f, "*", f->probes->cmd, f->probes->target))
		;
	ftrace_unlock();
}

size_t ftrace_probes_print(struct trace_ftrace *f, char *buf, size_t size)
{
	char line[FTRACE_NAME_MAX * 3 + 48];
	size_t n = 0;

	for (struct ftrace_probe *p = f->probes; p; p = p->next) {
		long count = READ_ONCE(p->count);
		int len = scnprintf(line, sizeof(line), "%ps:%s", (void *)p->ip, p->cmd->name);

		if (p->target)
			len += scnprintf(line + len, sizeof(line) - (size_t)len, ":%s:%s",
					 p->target->event_call->system, p->target->event_call->name);
		if (count == -1)
			len += scnprintf(line + len, sizeof(line) - (size_t)len, ":unlimited\n");
		else
			len += scnprintf(line + len, sizeof(line) - (size_t)len, ":count=%ld\n", count);
		if (buf && n + (size_t)len <= size)
			memcpy(buf + n, line, (size_t)len);
		n += (size_t)len;
	}
	return n;
}
