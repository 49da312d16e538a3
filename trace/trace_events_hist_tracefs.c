/*
 * Hist triggers in the running kernel: the `hist`, `enable_hist` and
 * `disable_hist` trigger commands, events/<sys>/<event>/hist and
 * hist_debug, the synthetic_events and dynamic_events files, synthetic
 * events as real events (id, format, events/synthetic/<name>/, a
 * tracepoint the event machinery attaches to), and what the engine needs
 * from the kernel: the trace clock, stacks, symbols, snapshots.
 *
 * Each trace array (the top level, every instance) has its own hist
 * world: variables, names and histograms do not cross arrays; synthetic
 * events are global and defined in the top level's. Every change runs
 * under trace_types_lock; events reach a histogram through its trigger on
 * the event file, so removing one unhooks it and waits a grace period
 * before the engine frees it.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/kallsyms.h>
#include <kernel/stacktrace.h>
#include <kernel/rcu.h>
#include <kernel/time.h>
#include <kernel/fs/fcntl.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/trace_trigger.h>
#include <trace/trace_filter.h>
#include <trace/tracepoint.h>
#include <trace/ring_buffer.h>
#include <trace/trace_events_hist.h>
#include <trace/trace_synth.h>
#include <trace/perf_trace.h>
#include <trace/syscall_names.h>
#include <trace/user_events.h>
#include <trace/trace_kprobe.h>

/* Frames of the tracing machinery above the event's call site in a stack key. */
#define HIST_STACK_SKIP		3
/* Synthetic events generated from a synthetic event's histogram, nested. */
#define SYNTH_NESTING_MAX	4

/*
 * One trace array's hist world: the engine's instance and its view of the
 * array's events (a struct hist_event per event file; the top level's
 * synthetic events are the engine's own). Made with the array's first
 * event directory, freed when the array goes.
 */
struct hist_tr {
	struct trace_array *tr;
	struct hist_instance inst;
	struct list_head list;		/* in hist_trs */
};

static LIST_HEAD(hist_trs);
static struct hist_tr *top;		/* global_trace's: synthetic events are defined there */
static bool synth_adding;		/* a synthetic event of top's is becoming an event */
static struct event_command hist_command, enable_hist_command, disable_hist_command;
static DEFINE_PER_CPU(unsigned int, synth_nesting);
static void hist_instance_hooks(struct hist_instance *inst);

static struct hist_tr *tr_of(struct hist_instance *inst)
{
	return container_of(inst, struct hist_tr, inst);
}

static struct hist_tr *hist_tr_find(const struct trace_array *tr)
{
	struct hist_tr *h;

	list_for_each_entry(h, &hist_trs, list)
		if (h->tr == tr)
			return h;
	return NULL;
}

static struct hist_tr *hist_tr_get(struct trace_array *tr)
{
	struct hist_tr *h = hist_tr_find(tr);

	if (h)
		return h;
	h = kmalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return NULL;
	h->tr = tr;
	hist_instance_init(&h->inst);
	hist_instance_hooks(&h->inst);
	if (top)
		h->inst.synth_home = &top->inst;
	list_add_tail(&h->list, &hist_trs);
	return h;
}

static struct hist_event *hist_event_of(const struct trace_event_file *file)
{
	struct hist_tr *h = hist_tr_find(file->tr);
	struct hist_event *ev;

	if (!h)
		return NULL;
	list_for_each_entry(ev, &h->inst.events, list)
		if (ev->call == file->event_call)
			return ev;
	return NULL;
}

static struct trace_event_file *event_file_of(struct hist_instance *inst,
					      const struct hist_event *ev)
{
	return trace_find_event_file(tr_of(inst)->tr, ev->system, ev->name);
}

/* An event of the array as hist sees it; the top level's synthetic ones are the engine's. */
static int hist_event_add(struct hist_tr *h, const struct trace_event_call *call)
{
	struct hist_event *ev = kmalloc(sizeof(*ev), GFP_KERNEL);

	if (!ev)
		return -ENOMEM;
	hist_event_init(ev, call);
	list_add_tail(&ev->list, &h->inst.events);
	return 0;
}

/* The array is going (rmdir): all its histograms and its view of the events. */
static void hist_tr_destroy(struct hist_tr *h)
{
	struct hist_event *ev, *tmp;

	hist_instance_destroy(&h->inst);
	list_for_each_entry_safe(ev, tmp, &h->inst.events, list) {
		list_del(&ev->list);
		if (!ev->is_synthetic)
			kfree(ev);
	}
	list_del(&h->list);
	kfree(h);
}

static bool tr_live(const struct trace_array *tr)
{
	struct trace_array *t;

	list_for_each_entry(t, &ftrace_trace_arrays, list)
		if (t == tr)
			return true;
	return false;
}

static void log_last_error(struct hist_tr *h)
{
	const struct hist_error *err = &h->inst.last_error;

	if (err->msg)
		tracing_log_err_cmd(h->tr, err->loc, err->cmd, err->msg, (int)err->pos);
}

/* --- the event path ----------------------------------------------------------------------- */

static u64 trace_clock_now(const struct trace_array *tr)
{
	switch (READ_ONCE(tr->clock_id)) {
	case TRACE_CLOCK_LOCAL: return trace_clock_local();
	case TRACE_CLOCK_COUNTER: return trace_clock_counter();
	default: return trace_clock_global();
	}
}

static void hist_trigger_fire(struct event_trigger_data *data, void *rec, unsigned int size)
{
	struct hist_trigger_data *hd = data->private_data;
	unsigned long stack[HIST_STACKTRACE_DEPTH + 1];
	struct hist_event_ctx ctx = {
		.rec = rec, .rec_size = size, .cpu = (unsigned int)smp_processor_id(),
		.pid = tracing_task_pid(), .comm = tracing_task_comm(),
	};

	/* the clock is the dearest part of the context: only for common_timestamp */
	if (hd->enable_timestamps)
		ctx.ts = trace_clock_now(tr_of(hd->inst)->tr);

	if (hd->uses_stack) {
		unsigned int n = stack_trace_save(stack, HIST_STACKTRACE_DEPTH, HIST_STACK_SKIP);

		stack[n] = 0;
		ctx.stack = stack;
	}
	hist_trigger_event(hd, &ctx);
}

static int hist_trigger_print_data(char *buf, size_t size, const struct event_trigger_data *data)
{
	return hist_trigger_print(buf, size, data->private_data, false);
}

/* The engine frees its histograms itself, after unhooking them. */
static const struct event_trigger_ops hist_trigger_ops = {
	.trigger = hist_trigger_fire,
	.print = hist_trigger_print_data,
};

static bool same_hist(const struct event_trigger_data *a, const struct event_trigger_data *b)
{
	return a->private_data == b->private_data;
}

static int hist_hook(struct hist_instance *inst, struct hist_trigger_data *hd)
{
	struct trace_event_file *file = event_file_of(inst, hd->event);
	struct event_trigger_data *data;
	int ret;

	if (!file)
		return -ENOENT;
	if (hd->snapshot_action) {
		ret = tracing_alloc_snapshot(tr_of(inst)->tr);
		if (ret)
			return ret;
	}
	data = kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	*data = (struct event_trigger_data){
		.ops = &hist_trigger_ops, .cmd = &hist_command, .count = -1, .private_data = hd,
		.in_place = !hd->n_actions,	/* actions write records */
	};
	ret = event_trigger_register(file, data, same_hist);
	if (ret)
		kfree(data);
	return ret;
}

static void hist_unhook(struct hist_instance *inst, struct hist_trigger_data *hd)
{
	struct trace_event_file *file = event_file_of(inst, hd->event);
	struct event_trigger_data key = { .cmd = &hist_command, .private_data = hd };

	/* waits a grace period: no probe runs hd after this */
	if (file)
		event_trigger_unregister(file, &key, same_hist);
}

static int hist_set_clock(struct hist_instance *inst, const char *clock)
{
	struct trace_array *tr = tr_of(inst)->tr;

	if (!strcmp(trace_clock_names[tr->clock_id], clock))
		return 0;
	return tracing_set_clock(tr, clock);
}

/* Event handlers run with preemption off: a grace period outlasts every update in flight. */
static void hist_synchronize(struct hist_instance *inst)
{
	synchronize_rcu();
}

static void hist_take_snapshot(struct hist_instance *inst)
{
	/* the swap takes the array's lock: an NMI may have interrupted its holder */
	if (!in_nmi())
		tracing_snapshot(tr_of(inst)->tr);
}

static void hist_sym(char *buf, size_t size, unsigned long addr, bool offset)
{
	if (offset)
		sprint_symbol(buf, size, addr);
	else
		sprint_symbol_no_offset(buf, size, addr);
}

/*
 * `.syscall` prints what Linux's get_syscall_name() gives: the entry
 * point's name (sys_read, sys_newstat); a number with none prints as
 * unknown_syscall.
 */
static const char *hist_syscall_name(int nr)
{
	return syscall_entry_name(nr);
}

static const struct hist_print_ops hist_print_ops = {
	.sym = hist_sym,
	.syscall_name = hist_syscall_name,
};

/* --- synthetic events as events ------------------------------------------------------------ */

/* What makes a synthetic event a real one: its tracepoint, fired by synth_emit(). */
struct synth_tracepoint {
	struct tracepoint tp;
	struct synth_event *se;
};

/*
 * The probe the event machinery attaches per array (data: the event
 * file): run the file's triggers, then record it if the event is on.
 * The record is the engine's own, not the core's per-context scratch,
 * which the event that generated this one is still using.
 */
static void synth_probe(void *data, struct trace_entry *rec, unsigned int size)
{
	struct trace_event_file *file = data;
	unsigned long flags = READ_ONCE(file->flags);
	struct event_filter *filter = READ_ONCE(file->filter);

	if (!(flags & EVENT_FILE_FL_ENABLED))
		return;
	if (flags & EVENT_FILE_FL_TRIGGER_MODE)
		event_triggers_call(file, rec, size, false);
	if (!(READ_ONCE(file->flags) & EVENT_FILE_FL_SOFT_DISABLED) &&
	    (!filter || filter_match(filter, rec)))
		ring_buffer_write(READ_ONCE(file->buffer), size, rec);
}

/*
 * perf's probe (data: the event's call): the record into perf's scratch
 * for the perf events on the event, sampled where the action fired it.
 * (Linux 6.12 has no perf probe for synthetic events: ENODEV there.)
 */
static void synth_perf_probe(void *data, struct trace_entry *rec, unsigned int size)
{
	struct trace_event_call *call = data;
	struct pt_regs regs;
	void *ent;
	int rctx;

	ent = perf_trace_buf_alloc(size, &rctx);
	if (!ent)
		return;
	memcpy(ent, rec, size);
	perf_fetch_caller_regs(&regs);
	perf_trace_buf_submit(call, ent, size, rctx, 0, 1, NULL, &regs);
}

static void synth_emit(struct hist_instance *inst, struct hist_event *event, void *rec,
		       unsigned int size)
{
	struct synth_event *se = container_of(event, struct synth_event, event);
	struct trace_entry *ent = rec;
	unsigned int trace_ctx = tracing_gen_ctx();
	struct tracepoint_func *it;

	ent->flags = (u8)(trace_ctx >> 16);
	ent->preempt_count = (u8)trace_ctx;
	preempt_disable();
	/* a histogram on a synthetic event may generate synthetic events: bounded */
	if (this_cpu_read(synth_nesting) < SYNTH_NESTING_MAX) {
		this_cpu_inc(synth_nesting);
		for (it = rcu_dereference(se->call.tp->funcs); it && it->func; it++)
			((void (*)(void *, struct trace_entry *, unsigned int))it->func)(it->data, rec,
											 size);
		this_cpu_dec(synth_nesting);
	}
	preempt_enable();
}

static int synth_event_add(struct hist_instance *inst, struct hist_event *event)
{
	struct synth_event *se = container_of(event, struct synth_event, event);
	struct synth_tracepoint *stp = kzalloc(sizeof(*stp), GFP_KERNEL);
	int ret;

	if (!stp)
		return -ENOMEM;
	stp->tp.name = se->name;
	stp->se = se;
	se->call.tp = &stp->tp;
	se->call.probe = (void *)synth_probe;
	se->call.perf_probe = (void *)synth_perf_probe;
	ret = trace_add_event_call(&se->call);
	if (!ret) {
		/* every array gets events/synthetic/<name>/ (hist_create_files) */
		synth_adding = true;
		ret = trace_add_event_files(&se->call);
		synth_adding = false;
		if (ret) {
			trace_remove_event_files(&se->call);
			trace_remove_event_call(&se->call);
		}
	}
	if (ret) {
		se->call.tp = NULL;
		kfree(stp);
	}
	return ret;
}

/* The instances' views of a synthetic event (not the top level's: the engine's own). */
static struct hist_event *instance_view(struct hist_tr *h, const struct trace_event_call *call)
{
	struct hist_event *ev;

	list_for_each_entry(ev, &h->inst.events, list)
		if (ev->call == call && !ev->is_synthetic)
			return ev;
	return NULL;
}

static int synth_event_remove(struct hist_instance *inst, struct hist_event *event)
{
	struct synth_event *se = container_of(event, struct synth_event, event);
	struct hist_event *ev;
	struct tracepoint_func *it;
	struct hist_tr *h;
	int ret;

	/* in use by a histogram in some instance, or by perf */
	list_for_each_entry(h, &hist_trs, list)
		if ((ev = instance_view(h, &se->call)) && !list_empty(&ev->triggers))
			return -EBUSY;
	for (it = rcu_dereference(se->call.tp->funcs); it && it->func; it++)
		if (it->func == (void *)synth_perf_probe)
			return -EBUSY;
	/* the instances' views go with their event files (hist_remove_files) */
	ret = trace_remove_event_files(&se->call);
	if (ret)
		return ret;
	trace_remove_event_call(&se->call);
	kfree(container_of(se->call.tp, struct synth_tracepoint, tp));
	se->call.tp = NULL;
	return 0;
}

/* --- the hist command -------------------------------------------------------------------------- */

static int hist_cmd_parse(struct event_command *cmd, struct trace_event_file *file,
			  const char *param, bool remove)
{
	struct hist_event *ev = hist_event_of(file);
	struct hist_tr *h = hist_tr_find(file->tr);
	int ret;

	if (!ev)
		return -ENODEV;
	if (*param == ':')
		param++;
	ret = event_hist_trigger_parse(&h->inst, ev, param, remove);
	if (ret)
		log_last_error(h);
	return ret;
}

/* O_TRUNC on the trigger file; also how an array going away drops its files' triggers. */
static void hist_cmd_unreg_all(struct event_command *cmd, struct trace_event_file *file)
{
	struct hist_tr *h = hist_tr_find(file->tr);
	struct hist_event *ev = hist_event_of(file);

	if (h && !tr_live(file->tr))
		hist_tr_destroy(h);
	else if (ev)
		hist_unreg_all(&h->inst, ev);
}

/* events/<sys>/<event>/hist and hist_debug: generated whole, growing the buffer as needed. */
static int hist_file_generate(struct seq_file *m, bool debug)
{
	struct trace_event_file *file = m->private;
	size_t size = 16384;
	int n = 0;

	trace_types_lock();
	for (;;) {
		struct hist_event *ev = hist_event_of(file);
		char *buf = kmalloc(size, GFP_KERNEL);

		if (!buf) {
			n = -ENOMEM;
			break;
		}
		n = !ev ? 0 : debug ? hist_debug_show(ev, buf, size) :
				      hist_show(&hist_tr_find(file->tr)->inst, ev, buf, size);
		if (n >= 0 && (size_t)n + 1 >= size && size < (64u << 20)) {
			kfree(buf);
			size *= 4;
			continue;
		}
		if (n > 0)
			seq_write(m, buf, (size_t)n);
		kfree(buf);
		break;
	}
	trace_types_unlock();
	return n < 0 ? n : 0;
}

static int hist_file_show(struct seq_file *m, void *v)
{
	return hist_file_generate(m, false);
}

static int hist_debug_file_show(struct seq_file *m, void *v)
{
	return hist_file_generate(m, true);
}

static int hist_file_open(struct inode *inode, struct file *file)
{
	return event_file_open(inode, file, hist_file_show);
}

static int hist_debug_file_open(struct inode *inode, struct file *file)
{
	return event_file_open(inode, file, hist_debug_file_show);
}

static const struct file_operations hist_file_fops = {
	.open = hist_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = event_file_release,
};

static const struct file_operations hist_debug_file_fops = {
	.open = hist_debug_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = event_file_release,
};

static int hist_create_files(struct trace_event_file *file, struct dentry *dir)
{
	struct hist_tr *h = hist_tr_get(file->tr);
	struct dentry *d;
	int ret;

	if (!h)
		return -ENOMEM;
	/* the top level's synthetic events are already the engine's */
	if (!hist_event_of(file) && !(h == top && synth_adding)) {
		ret = hist_event_add(h, file->event_call);
		if (ret)
			return ret;
	}
	d = tracefs_create_file("hist", TRACE_MODE_READ, dir, file, &hist_file_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("hist_debug", TRACE_MODE_READ, dir, file,
					&hist_debug_file_fops);
	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}

/* --- enable_hist / disable_hist ------------------------------------------------------------------ */

static void hist_enable_fire_data(struct event_trigger_data *data, void *rec, unsigned int size)
{
	if (event_trigger_take(data))
		hist_enable_fire(data->private_data, data->cmd == &enable_hist_command);
}

static int hist_enable_print_data(char *buf, size_t size, const struct event_trigger_data *data)
{
	long count = READ_ONCE(data->count);
	int n = hist_enable_print(buf, size, data->cmd == &enable_hist_command, data->private_data);

	if (count == -1)
		n += scnprintf(buf + n, size - n, ":unlimited");
	else
		n += scnprintf(buf + n, size - n, ":count=%ld", count);
	if (data->filter)
		n += scnprintf(buf + n, size - n, " if %s", filter_string(data->filter));
	return n;
}

static const struct event_trigger_ops hist_enable_ops = {
	.trigger = hist_enable_fire_data,
	.print = hist_enable_print_data,
};

/* `:<system>:<event>[:count] [if filter]` */
static int hist_enable_cmd_parse(struct event_command *cmd, struct trace_event_file *file,
				 const char *param, bool remove)
{
	struct event_trigger_data *data;
	struct event_filter *filter = NULL;
	struct hist_event *target;
	struct hist_tr *h;
	const char *rest;
	unsigned long long count = 0;
	bool counted = false;
	int ret;

	h = hist_tr_find(file->tr);
	if (!h)
		return -ENODEV;
	ret = hist_enable_parse_target(&h->inst, param, &target, &rest);
	if (ret)
		return ret;
	if (*rest == ':') {
		char digits[24];
		size_t n = strcspn(++rest, " \t");

		if (!n || n >= sizeof(digits))
			return -EINVAL;
		memcpy(digits, rest, n);
		digits[n] = '\0';
		if (kstrtoull(digits, 0, &count) || count > 0x7fffffff)
			return -EINVAL;
		counted = true;
		rest += n;
	}
	rest += strspn(rest, " \t");
	if (*rest) {
		struct filter_error ferr = { NULL, 0 };

		if (strncmp(rest, "if", 2) || (rest[2] != ' ' && rest[2] != '\t'))
			return -EINVAL;
		rest += 2 + strspn(rest + 2, " \t");
		ret = filter_parse(file->event_call, rest, &filter, &ferr);
		if (ret == -EINVAL)
			trace_log_filter_error(file->tr, rest, &ferr);
		if (ret)
			return ret;
	}
	data = kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data) {
		filter_free(filter);
		return -ENOMEM;
	}
	*data = (struct event_trigger_data){
		.ops = &hist_enable_ops, .cmd = cmd, .count = counted ? (long)count : -1,
		.filter = filter, .private_data = target,
	};
	if (remove) {
		ret = event_trigger_unregister(file, data, same_hist);
		filter_free(filter);
		kfree(data);
		/* Linux: removing what is not there is no error */
		return ret == -ENOENT ? 0 : ret;
	}
	ret = event_trigger_register(file, data, same_hist);
	if (ret) {
		filter_free(filter);
		kfree(data);
	}
	return ret;
}

/* The event is going: the array's view of it goes too (the engine's synthetic ones stay). */
static void hist_remove_files(struct trace_event_file *file)
{
	struct hist_event *ev = hist_event_of(file);

	if (ev && !ev->is_synthetic) {
		list_del(&ev->list);
		kfree(ev);
	}
}

/* --- synthetic_events and dynamic_events ------------------------------------------------------------ */

/* One command of synthetic_events or dynamic_events; a failure is logged. */
static int synth_file_run(void *arg, const char *cmd)
{
	int (*const *run)(struct hist_instance *inst, const char *cmd) = arg;
	int ret = (*run)(&top->inst, cmd);

	if (ret)
		log_last_error(top);
	return ret;
}

static ssize_t synth_file_write(const char *buf, size_t count,
				int (*run)(struct hist_instance *inst, const char *cmd))
{
	return trace_run_commands(buf, count, synth_file_run, &run);
}

static int dynamic_events_show(struct seq_file *m, void *v);

static int synth_file_open(struct inode *inode, struct file *file,
			   int (*show)(struct seq_file *m, void *v))
{
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		int ret;

		trace_types_lock();
		ret = synth_events_release_all(&top->inst);
		/* dynamic_events holds probe events too */
		if (!ret && show == dynamic_events_show)
			ret = trace_kprobe_release_all();
		trace_types_unlock();
		if (ret)
			return ret;
	}
	return single_open(file, show, NULL);
}

static int synthetic_events_fill(char *buf, size_t size, void *arg)
{
	return synth_events_show(&top->inst, false, buf, size);
}

/* dynamic_events: synthetic events' lines, user events', probe events'. */
static int dynamic_events_fill(char *buf, size_t size, void *arg)
{
	int n = synth_events_show(&top->inst, true, buf, size);

	if ((size_t)n < size)
		n += user_events_dynevent_show(buf + n, size - (size_t)n);
	if ((size_t)n < size)
		n += trace_kprobe_dynevent_show(buf + n, size - (size_t)n);
	return n;
}

static int synthetic_events_show(struct seq_file *m, void *v)
{
	return trace_show_listing(m, synthetic_events_fill, NULL);
}

static int dynamic_events_show(struct seq_file *m, void *v)
{
	return trace_show_listing(m, dynamic_events_fill, NULL);
}

static int synthetic_events_open(struct inode *inode, struct file *file)
{
	return synth_file_open(inode, file, synthetic_events_show);
}

static int dynamic_events_open(struct inode *inode, struct file *file)
{
	return synth_file_open(inode, file, dynamic_events_show);
}

static ssize_t synthetic_events_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return synth_file_write(buf, count, synth_events_write);
}

/*
 * A dynamic_events line: a probe event's (`p:`, `r:`, `f:`, `t:`, `e:`), a
 * user event's (`u:`), else a synthetic event's.
 */
static int dynevents_run(struct hist_instance *inst, const char *cmd)
{
	int ret = trace_kprobe_dynevent_write(cmd);

	if (ret != -ECHILD) {
		inst->last_error.msg = NULL;	/* logged by trace_kprobe */
		return ret;
	}
	ret = user_events_dynevent_write(cmd);

	if (ret != -ECHILD) {
		inst->last_error.msg = NULL;	/* user events log nothing */
		return ret;
	}
	return synth_dynevents_write(inst, cmd);
}

static ssize_t dynamic_events_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return synth_file_write(buf, count, dynevents_run);
}

static const struct file_operations synthetic_events_fops = {
	.open = synthetic_events_open,
	.read = seq_read,
	.write = synthetic_events_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations dynamic_events_fops = {
	.open = dynamic_events_open,
	.read = seq_read,
	.write = dynamic_events_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- set-up ----------------------------------------------------------------------------------------- */

static struct event_command hist_command = {
	.name = "hist", .parse = hist_cmd_parse, .unreg_all = hist_cmd_unreg_all,
	.create_files = hist_create_files, .remove_files = hist_remove_files,
};
/* `echo X > trigger` drops these too, as Linux's hist_enable_unreg_all. */
static struct event_command enable_hist_command = {
	.name = "enable_hist", .parse = hist_enable_cmd_parse, .unreg_all = event_trigger_unreg_cmd,
};
static struct event_command disable_hist_command = {
	.name = "disable_hist", .parse = hist_enable_cmd_parse, .unreg_all = event_trigger_unreg_cmd,
};

static void hist_instance_hooks(struct hist_instance *inst)
{
	inst->print_ops = &hist_print_ops;
	inst->take_snapshot = hist_take_snapshot;
	inst->synth_emit = synth_emit;
	inst->trigger_register = hist_hook;
	inst->trigger_unregister = hist_unhook;
	inst->event_added = synth_event_add;
	inst->event_removing = synth_event_remove;
	inst->set_clock = hist_set_clock;
	inst->synchronize = hist_synchronize;
}

int trace_hist_init(void)
{
	struct trace_event_file *file;
	struct dentry *d;
	int ret;

	trace_types_lock();
	top = hist_tr_get(&global_trace);
	/* Linux's order in the empty trigger file: ... enable_hist disable_hist hist */
	ret = top ? register_event_command(&enable_hist_command) : -ENOMEM;
	if (!ret)
		ret = register_event_command(&disable_hist_command);
	if (!ret)
		ret = register_event_command(&hist_command);
	/* the events that exist already; arrays made later get theirs from create_files */
	list_for_each_entry(file, &global_trace.events, list)
		if (!ret)
			ret = hist_create_files(file, file->dir);
	trace_types_unlock();
	if (ret)
		return ret;
	d = tracefs_create_file("synthetic_events", TRACE_MODE_WRITE, NULL, NULL,
				&synthetic_events_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("dynamic_events", TRACE_MODE_WRITE, NULL, NULL,
					&dynamic_events_fops);
	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}
