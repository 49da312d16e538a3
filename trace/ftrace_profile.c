/*
 * The function profiler: `echo 1 > function_profile_enabled` counts every
 * call of every function the top level's set_ftrace_filter lets through
 * (all when it is empty, as Linux's global filter), per CPU, and times
 * each call through the function_graph return hook (trace/fgraph.c: the
 * frame's FGRAPH_PROFILER bit); a call counts when it returns. trace_stat/functionN shows CPU N's
 * numbers, the longest total time first, in Linux's columns: hits, total
 * time, average and the sample variance s^2 (in us^2). With the
 * function_graph option graph-time off, a function's time leaves out its
 * callees', with sleep-time off the time its task was off the CPU. Enabling starts from zero; disabling keeps the numbers. Kernel
 * only: the callbacks run from the trampoline and the return hook.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/percpu.h>
#include <kernel/kallsyms.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/seq_file.h>
#include <asm/ftrace.h>
#include <trace/trace.h>
#include <trace/ftrace.h>
#include <trace/fgraph.h>
#include <trace/trace_files.h>
#include <trace/trace_functions.h>
#include <trace/trace_functions_graph.h>

/* One function's numbers on one CPU (index: its site). */
struct profile_stat {
	unsigned long hits;
	u64 time;		/* ns spent in its calls */
	u64 time_sq;		/* sum of each call's time squared: the variance */
};

static DEFINE_PER_CPU(struct profile_stat *, profile_stats);
static bool profile_enabled;	/* function_profile_enabled; read by the callbacks */
static struct ftrace_ops profile_ops;

/*
 * Entry: hook the call's return (or share a hook already there); the call
 * counts when it returns, on the CPU it returns on, with its time (the
 * task may have moved). A call the full shadow stack cannot hook counts now.
 */
static void profile_entry(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			  struct ftrace_regs *fregs)
{
	struct profile_stat *stats = this_cpu_read(profile_stats);
	int idx = ftrace_site_index(ip), depth;
	struct ftrace_ret_frame *f;

	if (!stats || idx < 0)
		return;
	f = fgraph_hooked(fregs, ip, &depth);
	if (f) {
		fgraph_stamp(f);
		f->arrays |= FGRAPH_PROFILER;
		return;
	}
	f = fgraph_push(fregs, ip, 0, &depth);
	if (!f) {
		stats[idx].hits++;
		return;
	}
	f->arrays = FGRAPH_PROFILER;
	fgraph_hook(fregs);
}

void ftrace_profile_return(const struct ftrace_ret_frame *f, int depth, u64 rettime)
{
	struct profile_stat *stats = this_cpu_read(profile_stats);
	u64 t = rettime - f->calltime;
	int idx;

	/* A call hooked before the profiler stopped returns unrecorded. */
	if (!READ_ONCE(profile_enabled) || !stats)
		return;
	idx = ftrace_site_index(f->func);
	if (idx < 0)
		return;
	if (!(READ_ONCE(fgraph_flags) & FGRAPH_OPT(GRAPH_TIME))) {
		/* The caller's frame is right below: its time loses this call's. */
		if (depth > 0)
			current->ret_stack.frames[depth - 1].subtime += t;
		t = f->subtime < t ? t - f->subtime : 0;
	}
	stats[idx].hits++;
	stats[idx].time += t;
	stats[idx].time_sq += t * t;
}

/* --- function_profile_enabled ------------------------------------------------------------ */

static int profile_alloc(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (per_cpu(profile_stats, cpu))
			continue;
		per_cpu(profile_stats, cpu) = kcalloc(ftrace_nr_sites, sizeof(struct profile_stat),
						      GFP_KERNEL);
		if (!per_cpu(profile_stats, cpu))
			return -ENOMEM;
	}
	return 0;
}

/* Start from zero, or stop (a change); caller holds ftrace_lock. */
static int profile_set(bool on)
{
	int cpu, ret;

	if (!on) {
		WRITE_ONCE(profile_enabled, false);
		return unregister_ftrace_function(&profile_ops);
	}
	ret = profile_alloc();
	if (ret)
		return ret;
	/* Unregistered and past synchronize_rcu: no callback writes the numbers now. */
	for_each_possible_cpu(cpu)
		memset(per_cpu(profile_stats, cpu), 0,
		       ftrace_nr_sites * sizeof(struct profile_stat));
	WRITE_ONCE(profile_enabled, true);
	ret = register_ftrace_function(&profile_ops);
	if (ret)
		WRITE_ONCE(profile_enabled, false);
	return ret;
}

static ssize_t profile_enabled_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return trace_read_ulong(buf, count, pos, READ_ONCE(profile_enabled));
}

/* A decimal number: 0 stops, any other starts (Linux's !!val). */
static ssize_t profile_enabled_write(struct file *file, const char *buf, size_t count,
				     loff_t *pos)
{
	unsigned long val;
	int ret = trace_parse_ulong(buf, count, &val);

	if (ret)
		return ret;
	trace_types_lock();
	/* The sleep-time probe is held from before a start to after its stop. */
	if (val && !profile_enabled) {
		ret = fgraph_sleep_time_get();
		if (!ret) {
			ftrace_lock();
			ret = profile_set(true);
			ftrace_unlock();
			if (ret)
				fgraph_sleep_time_put();
		}
	} else if (!val && profile_enabled) {
		ftrace_lock();
		ret = profile_set(false);
		ftrace_unlock();
		fgraph_sleep_time_put();
	}
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations profile_enabled_fops = {
	.read = profile_enabled_read,
	.write = profile_enabled_write,
};

/* --- trace_stat/functionN ------------------------------------------------------------------ */

/* Sites with hits on a CPU, the longest total time first (insertion: under a thousand). */
static unsigned int profile_sorted(const struct profile_stat *stats, unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ftrace_nr_sites; i++) {
		unsigned int j = n++;

		if (!stats[i].hits) {
			n--;
			continue;
		}
		for (; j > 0 && stats[order[j - 1]].time < stats[i].time; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	return n;
}

static void profile_show_stat(struct seq_file *m, unsigned int idx, const struct profile_stat *st)
{
	char total[FGRAPH_DURATION_MAX], avg[FGRAPH_DURATION_MAX], var[FGRAPH_DURATION_MAX];
	const char *name = "?";
	unsigned long off, size;
	u64 mean = st->time / st->hits, s2 = 0;

	kallsyms_lookup(ftrace_sites[idx].ip, &name, &off, &size);
	/* s^2 = (sum of t^2 - mean * sum of t) / (n - 1), in ns^2; shown as us^2. */
	if (st->hits > 1 && st->time_sq > mean * st->time)
		s2 = (st->time_sq - mean * st->time) / (st->hits - 1);
	fgraph_duration_text(total, sizeof(total), st->time);
	fgraph_duration_text(avg, sizeof(avg), mean);
	fgraph_duration_text(var, sizeof(var), s2 / 1000);
	seq_printf(m, "  %-30.30s  %10lu    %s    %s    %s\n", name, st->hits, total, avg, var);
}

static int profile_stat_show(struct seq_file *m, void *v)
{
	int cpu = (int)(long)m->private;
	struct profile_stat *stats, *copy;
	unsigned int *order, n;

	seq_puts(m, "  Function                               Hit    Time            Avg"
		    "             s^2\n"
		    "  --------                               ---    ----            ---"
		    "             ---\n");
	stats = READ_ONCE(per_cpu(profile_stats, cpu));
	if (!stats)
		return 0;
	/* A still picture: the callbacks go on writing the live numbers. */
	copy = kcalloc(ftrace_nr_sites, sizeof(*copy), GFP_KERNEL);
	order = kcalloc(ftrace_nr_sites, sizeof(*order), GFP_KERNEL);
	if (!copy || !order) {
		kfree(copy);
		kfree(order);
		return -ENOMEM;
	}
	memcpy(copy, stats, ftrace_nr_sites * sizeof(*copy));
	n = profile_sorted(copy, order);
	for (unsigned int i = 0; i < n; i++)
		profile_show_stat(m, order[i], &copy[order[i]]);
	kfree(copy);
	kfree(order);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(profile_stat);

int ftrace_profile_create_files(struct dentry *dir)
{
	struct dentry *stat, *f;
	int cpu;

	if (!ftrace_nr_sites)
		return 0;
	if (ftrace_ops_init(&profile_ops))
		return -ENOMEM;
	profile_ops.func = profile_entry;
	profile_ops.sets_of = &global_trace.ftrace->ops;
	f = tracefs_create_file("function_profile_enabled", TRACE_MODE_WRITE, dir, NULL,
				&profile_enabled_fops);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	stat = tracefs_create_dir("trace_stat", dir);
	if (IS_ERR(stat))
		return (int)PTR_ERR(stat);
	for_each_possible_cpu(cpu) {
		char name[24];

		snprintf(name, sizeof(name), "function%d", cpu);
		f = tracefs_create_file(name, TRACE_MODE_READ, stat, (void *)(long)cpu,
					&profile_stat_fops);
		if (IS_ERR(f))
			return (int)PTR_ERR(f);
	}
	return 0;
}
