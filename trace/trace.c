/*
 * Trace arrays: the top-level one and the instances, their ring buffers
 * and control state (tracing_on, clock, size, snapshot). The tracefs
 * files that expose them are trace/trace_files.c and
 * trace/trace_event_files.c. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <kernel/rcu.h>
#include <kernel/percpu.h>
#include <kernel/mutex.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/seq_file.h>
#include <trace/tracedat_extract.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_trigger.h>
#include <trace/trace_functions.h>

struct trace_array global_trace;
LIST_HEAD(ftrace_trace_arrays);

static DEFINE_MUTEX(trace_types_mutex);

void trace_types_lock(void)
{
	mutex_lock(&trace_types_mutex);
}

void trace_types_unlock(void)
{
	mutex_unlock(&trace_types_mutex);
}

ssize_t trace_run_commands(const char *buf, size_t count,
			   int (*run)(void *arg, const char *cmd), void *arg)
{
	char *text = kmalloc(count + 1, GFP_KERNEL), *line, *next;
	int ret = 0;

	if (!text)
		return -ENOMEM;
	memcpy(text, buf, count);
	text[count] = '\0';
	trace_types_lock();
	for (line = text; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line += strspn(line, " \t");
		if (*line && *line != '#')
			ret = run(arg, line);
	}
	trace_types_unlock();
	kfree(text);
	return ret ? ret : (ssize_t)count;
}

int trace_show_listing(struct seq_file *m, int (*fill)(char *buf, size_t size, void *arg),
		       void *arg)
{
	const size_t size = 65536;
	char *buf = kmalloc(size, GFP_KERNEL);
	int n;

	if (!buf)
		return -ENOMEM;
	trace_types_lock();
	n = fill(buf, size, arg);
	trace_types_unlock();
	seq_write(m, buf, (size_t)n < size ? (size_t)n : size);
	kfree(buf);
	return 0;
}

const char *const trace_clock_names[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = "local",
	[TRACE_CLOCK_GLOBAL] = "global",
	[TRACE_CLOCK_COUNTER] = "counter",
};

static const trace_clock_fn trace_clocks[TRACE_CLOCK_NR] = {
	[TRACE_CLOCK_LOCAL] = trace_clock_local,
	[TRACE_CLOCK_GLOBAL] = trace_clock_global,
	[TRACE_CLOCK_COUNTER] = trace_clock_counter,
};

struct trace_array *trace_array_find(const char *name)
{
	struct trace_array *tr;

	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		if (tr->name && !strcmp(tr->name, name))
			return tr;
	return NULL;
}

/* Point every event of tr at its live buffer (after a swap or at creation). */
static void trace_files_set_buffer(struct trace_array *tr)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &tr->events, list)
		WRITE_ONCE(file->buffer, tr->buffer);
}

/* Per-CPU sizes and sub-buffers as tr's (a snapshot buffer must match the live one). */
static int trace_buffer_match(struct trace_array *tr, struct trace_buffer *b)
{
	int ret = ring_buffer_subbuf_order_set(b, tr->subbuf_order);

	for (int cpu = 0; !ret && cpu < (int)nr_cpu_ids; cpu++)
		ret = ring_buffer_resize(b, tr->cpu_buffer_size[cpu], cpu);
	return ret;
}

static struct trace_buffer *trace_buffer_alloc(struct trace_array *tr)
{
	struct trace_buffer *b = ring_buffer_alloc(tr->buffer_size, RB_FL_OVERWRITE);

	if (b && tr->subbuf_order && trace_buffer_match(tr, b)) {
		ring_buffer_free(b);
		return NULL;
	}
	if (b)
		ring_buffer_set_clock(b, trace_clocks[tr->clock_id]);
	return b;
}

int tracer_tracing_on(struct trace_array *tr, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&tr->lock, flags);
	tr->tracing_on = on;
	if (on)
		ring_buffer_record_on(tr->buffer);
	else
		ring_buffer_record_off(tr->buffer);
	spin_unlock_irqrestore(&tr->lock, flags);
	return 0;
}

int tracing_resize(struct trace_array *tr, unsigned long size, int cpu)
{
	unsigned long data_size = RB_SUBBUF_DATA_SIZE(tr->subbuf_order);
	unsigned long pages = DIV_ROUND_UP(size, data_size);
	int ret;

	if (pages > RB_MAX_PAGES)
		return -EINVAL;
	/*
	 * The ring gets at least its minimum (free_buffer's 0 reads 7 KiB, as
	 * on Linux), and the files show what its pages hold.
	 */
	size = max(pages, RB_MIN_PAGES) * data_size;
	ret = ring_buffer_resize(tr->buffer, size, cpu);
	if (!ret && tr->snapshot)
		ret = ring_buffer_resize(tr->snapshot, size, cpu);
	if (ret)
		return ret;
	for (int c = 0; c < (int)nr_cpu_ids; c++)
		if (cpu == RING_BUFFER_ALL_CPUS || c == cpu)
			tr->cpu_buffer_size[c] = size;
	if (cpu == RING_BUFFER_ALL_CPUS)
		tr->buffer_size = size;
	return 0;
}

/* Both buffers as tr asks; a snapshot trigger may swap them meanwhile, so the live one is last. */
static int trace_buffers_match(struct trace_array *tr)
{
	struct trace_buffer *snapshot = READ_ONCE(tr->snapshot);
	int ret = trace_buffer_match(tr, READ_ONCE(tr->buffer));

	if (!ret && snapshot)
		ret = trace_buffer_match(tr, READ_ONCE(tr->snapshot));
	if (!ret && snapshot)
		ret = trace_buffer_match(tr, READ_ONCE(tr->buffer));
	return ret;
}

int tracing_set_subbuf_order(struct trace_array *tr, unsigned int order)
{
	unsigned int old = tr->subbuf_order;
	int ret;

	if (order == old)
		return 0;
	tr->subbuf_order = order;
	ret = trace_buffers_match(tr);
	if (ret) {
		/* Back to the old sub-buffers (emptied all the same, as Linux's). */
		tr->subbuf_order = old;
		trace_buffers_match(tr);
	}
	return ret;
}

int tracing_set_clock(struct trace_array *tr, const char *name)
{
	for (int i = 0; i < TRACE_CLOCK_NR; i++) {
		if (strcmp(name, trace_clock_names[i]))
			continue;
		tr->clock_id = (enum trace_clock_id)i;
		ring_buffer_set_clock(tr->buffer, trace_clocks[i]);
		if (tr->snapshot)
			ring_buffer_set_clock(tr->snapshot, trace_clocks[i]);
		/* Times from two clocks do not compare: start afresh, as Linux does. */
		tracing_reset(tr, RING_BUFFER_ALL_CPUS);
		return 0;
	}
	return -EINVAL;
}

void tracing_reset(struct trace_array *tr, int cpu)
{
	if (cpu == RING_BUFFER_ALL_CPUS) {
		tr->time_start = ring_buffer_time_stamp(tr->buffer);
		ring_buffer_reset(tr->buffer);
		if (tr->snapshot)
			ring_buffer_reset(tr->snapshot);
	} else {
		ring_buffer_reset_cpu(tr->buffer, cpu);
	}
}

int tracing_alloc_snapshot(struct trace_array *tr)
{
	struct trace_buffer *b;
	unsigned long flags;

	if (READ_ONCE(tr->snapshot))
		return 0;
	b = trace_buffer_alloc(tr);
	if (!b)
		return -ENOMEM;
	spin_lock_irqsave(&tr->lock, flags);
	if (tr->snapshot) {
		spin_unlock_irqrestore(&tr->lock, flags);
		ring_buffer_free(b);
		return 0;
	}
	trace_cpumask_init_buffer(tr, b);
	tr->snapshot = b;
	spin_unlock_irqrestore(&tr->lock, flags);
	return 0;
}

/*
 * The live buffer becomes the snapshot and the spare goes live with what
 * it held (Linux swaps, it does not clear: snapshots taken one after the
 * other alternate the two buffers) and the live one's recording state. A
 * writer that already read the old pointer finishes its record there.
 */
int tracing_snapshot(struct trace_array *tr)
{
	struct trace_buffer *old;
	unsigned long flags;

	spin_lock_irqsave(&tr->lock, flags);
	if (!tr->snapshot) {
		spin_unlock_irqrestore(&tr->lock, flags);
		return -ENOMEM;
	}
	old = tr->buffer;
	tr->buffer = tr->snapshot;
	tr->snapshot = old;
	if (tr->tracing_on)
		ring_buffer_record_on(tr->buffer);
	else
		ring_buffer_record_off(tr->buffer);
	trace_files_set_buffer(tr);
	spin_unlock_irqrestore(&tr->lock, flags);
	return 0;
}

void tracing_free_snapshot(struct trace_array *tr)
{
	struct trace_buffer *b;
	unsigned long flags;

	spin_lock_irqsave(&tr->lock, flags);
	b = tr->snapshot;
	tr->snapshot = NULL;
	spin_unlock_irqrestore(&tr->lock, flags);
	if (b) {
		synchronize_rcu();	/* a writer may still be finishing a record in it */
		ring_buffer_free(b);
	}
}

static struct trace_array *trace_array_create(const char *name)
{
	struct trace_array *tr = kzalloc(sizeof(*tr), GFP_KERNEL);

	if (!tr)
		return NULL;
	tr->name = kstrdup(name, GFP_KERNEL);
	tr->buffer_size = global_trace.buffer_size;
	if (!tr->name) {
		kfree(tr);
		return NULL;
	}
	return tr;
}

/* Buffers, lists and files of a zeroed array whose name and size are set. */
static int trace_array_init(struct trace_array *tr, struct dentry *dir)
{
	int ret;

	INIT_LIST_HEAD(&tr->events);
	INIT_LIST_HEAD(&tr->err_log);
	spin_lock_init(&tr->lock);
	tr->clock_id = TRACE_CLOCK_LOCAL;
	tr->tracing_on = true;
	tr->buffer_percent = 50;	/* Linux's default */
	tr->tracing_cpumask = nr_cpu_ids >= 64 ? ~0ull : (1ull << nr_cpu_ids) - 1;
	tr->buffer = trace_buffer_alloc(tr);
	if (!tr->buffer)
		return -ENOMEM;
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		tr->cpu_buffer_size[cpu] = ring_buffer_size(tr->buffer, cpu);
	tr->dir = dir;
	ret = trace_create_events_dir(tr, dir);
	if (!ret)
		ret = trace_create_files(tr, dir);
	if (ret) {
		trace_remove_events(tr);
		trace_free_files(tr);
		ring_buffer_free(tr->buffer);
		tr->buffer = NULL;
	}
	return ret;
}

int instance_mkdir(const char *name)
{
	struct trace_array *tr;
	struct dentry *dir;
	int ret;

	trace_types_lock();
	ret = -EEXIST;
	if (trace_array_find(name))
		goto out;
	ret = -ENOMEM;
	tr = trace_array_create(name);
	if (!tr)
		goto out;
	dir = tracefs_create_dir(name, tracefs_instances_dir());
	if (IS_ERR(dir)) {
		ret = (int)PTR_ERR(dir);
		goto free;
	}
	ret = trace_array_init(tr, dir);
	if (ret) {
		tracefs_remove(dir);
		goto free;
	}
	list_add_tail(&tr->list, &ftrace_trace_arrays);
	trace_types_unlock();
	return 0;
free:
	kfree(tr->name);
	kfree(tr);
out:
	trace_types_unlock();
	return ret;
}

int trace_array_get_file(struct file *file, struct trace_array *const *trp)
{
	int ret = -ENODEV;

	trace_types_lock();
	if (!file->f_dentry || d_attached(file->f_dentry)) {
		trace_array_get(*trp);
		ret = 0;
	}
	trace_types_unlock();
	return ret;
}

int instance_rmdir(const char *name)
{
	struct trace_array *tr;

	trace_types_lock();
	tr = trace_array_find(name);
	if (!tr) {
		trace_types_unlock();
		return -ENODEV;
	}
	if (atomic_read(&tr->ref)) {
		trace_types_unlock();
		return -EBUSY;
	}
	tracing_set_tracer(tr, "nop");
	if (tr->ftrace)
		ftrace_probes_clear(tr->ftrace);	/* they hold its events in soft mode */
	list_del(&tr->list);
	trace_remove_events(tr);	/* detaches every probe: no writer after a grace period */
	tracefs_remove(tr->dir);
	trace_types_unlock();
	synchronize_rcu();
	tracing_free_snapshot(tr);
	ring_buffer_free(tr->buffer);
	tracing_err_log_clear(tr);
	trace_free_files(tr);
	kfree(tr->name);
	kfree(tr);
	return 0;
}

int tracing_init(void)
{
	struct trace_array *tr = &global_trace;
	int ret;

	ret = tracefs_init();
	if (ret)
		return ret;
	ret = trace_events_init();
	if (ret)
		pr_warn("tracing: some events failed to register (%d)\n", ret);
	ret = register_trigger_cmds();
	if (ret)
		return ret;
	trace_types_lock();
	tr->buffer_size = trace_boot_buf_size();
	ret = trace_array_init(tr, NULL);
	if (!ret)
		list_add_tail(&tr->list, &ftrace_trace_arrays);
	trace_types_unlock();
	if (ret)
		return ret;
	tracefs_set_instance_ops(instance_mkdir, instance_rmdir);
	trace_boot_events(tr);
	ret = tracedat_debugfs_init();
	return ret ? ret : trace_selftest_init();
}
