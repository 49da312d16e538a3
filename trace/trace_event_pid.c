/*
 * set_event_pid and set_event_notrace_pid: an array records events only
 * of the tasks in the first list (when it has any) and never of those in
 * the second, judged by the task running when the event fires. With the
 * event-fork option a listed task's children join its list when they are
 * forked and leave it when they are freed (the probes in
 * trace/trace_sched.c), so they can be added from any context: a list is
 * an open-addressed set with room to grow that takes pids by cmpxchg, and
 * a write builds a new set and swaps it in (readers under RCU). Writing
 * with O_TRUNC (`echo PID > file`) replaces a list, appending (`>>`) adds
 * to it; blanks separate pids; anything else is EINVAL. The sets
 * themselves are trace/trace_pid_list.c. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/rcu.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/fcntl.h>
#include <trace/trace.h>
#include <trace/trace_files.h>
#include <trace/trace_pid_list.h>

/* Mark tr's events for the check in trace_event_buffer_reserve while a list exists. */
static void pid_filter_update_events(struct trace_array *tr)
{
	bool on = tr->filtered_pids || tr->filtered_no_pids;
	struct trace_event_file *file;

	list_for_each_entry(file, &tr->events, list) {
		if (on)
			__atomic_or_fetch(&file->flags, EVENT_FILE_FL_PID_FILTER, __ATOMIC_RELAXED);
		else
			__atomic_and_fetch(&file->flags, ~EVENT_FILE_FL_PID_FILTER, __ATOMIC_RELAXED);
	}
}

void trace_event_pid_fork(struct trace_array *tr, pid_t parent, pid_t child)
{
	struct trace_pid_list *lists[2] = { rcu_dereference(tr->filtered_pids),
					    rcu_dereference(tr->filtered_no_pids) };

	for (int i = 0; i < 2; i++)
		if (lists[i] && trace_pid_list_contains(lists[i], parent))
			trace_pid_list_add(lists[i], child);
}

void trace_event_pid_free(struct trace_array *tr, pid_t pid)
{
	struct trace_pid_list *lists[2] = { rcu_dereference(tr->filtered_pids),
					    rcu_dereference(tr->filtered_no_pids) };

	for (int i = 0; i < 2; i++)
		if (lists[i])
			trace_pid_list_remove(lists[i], pid);
}

/* --- the files ------------------------------------------------------------------------- */

static struct trace_pid_list **pid_list_ptr(struct trace_array *tr, bool notrace)
{
	return notrace ? &tr->filtered_no_pids : &tr->filtered_pids;
}

/* The pids in ascending order, as Linux's bitmap walk prints them. */
static void pid_list_show(struct seq_file *m, bool notrace)
{
	struct trace_file_data *d = m->private;
	const struct trace_pid_list *list;
	long last = -1;

	trace_types_lock();
	list = *pid_list_ptr(d->tr, notrace);
	while (list) {
		long next = PID_LIST_MAX;

		for (unsigned int i = 0; i < list->size; i++)
			if (list->slots[i] > last && list->slots[i] < next)
				next = list->slots[i];
		if (next == PID_LIST_MAX)
			break;
		seq_printf(m, "%ld\n", next);
		last = next;
	}
	trace_types_unlock();
}

static int set_event_pid_show(struct seq_file *m, void *v)
{
	pid_list_show(m, false);
	return 0;
}

static int set_event_notrace_pid_show(struct seq_file *m, void *v)
{
	pid_list_show(m, true);
	return 0;
}

/* Swap in list (NULL: none) and free the old one once no probe can see it. */
static void pid_list_replace(struct trace_array *tr, bool notrace, struct trace_pid_list *list)
{
	struct trace_pid_list **p = pid_list_ptr(tr, notrace), *old = *p;

	rcu_assign_pointer(*p, list);
	pid_filter_update_events(tr);
	if (old) {
		synchronize_rcu();
		kfree(old);
	}
}

void trace_event_pid_clear(struct trace_array *tr)
{
	pid_list_replace(tr, false, NULL);
	pid_list_replace(tr, true, NULL);
}

static int pid_list_open(struct inode *inode, struct file *file, bool notrace)
{
	struct trace_file_data *d = inode->i_private;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		trace_types_lock();
		pid_list_replace(d->tr, notrace, NULL);
		trace_types_unlock();
	}
	return tr_single_open(inode, file, notrace ? set_event_notrace_pid_show :
				     set_event_pid_show);
}

static int set_event_pid_open(struct inode *inode, struct file *file)
{
	return pid_list_open(inode, file, false);
}

static int set_event_notrace_pid_open(struct inode *inode, struct file *file)
{
	return pid_list_open(inode, file, true);
}

/* Parse blank-separated pids into pids[] (n of them, at most max): -EINVAL on anything else. */
static int parse_pids(const char *buf, size_t count, pid_t *pids, unsigned int max,
		      unsigned int *n)
{
	size_t i = 0;

	*n = 0;
	while (i < count) {
		unsigned long v = 0;
		size_t start;

		while (i < count && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
			i++;
		start = i;
		while (i < count && buf[i] >= '0' && buf[i] <= '9' && v < PID_LIST_MAX)
			v = v * 10 + (unsigned long)(buf[i++] - '0');
		if (i < count && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n')
			return -EINVAL;
		if (i == start)
			continue;
		if (v >= PID_LIST_MAX || *n == max)
			return -EINVAL;
		pids[(*n)++] = (pid_t)v;
	}
	return 0;
}

static ssize_t pid_list_write(struct file *file, const char *buf, size_t count, bool notrace)
{
	struct trace_array *tr = file_data(file)->tr;
	struct trace_pid_list *old, *list;
	unsigned int n, max = (unsigned int)count / 2 + 1;
	pid_t *pids = kmalloc(max * sizeof(pid_t), GFP_KERNEL);
	int ret;

	if (!pids)
		return -ENOMEM;
	ret = parse_pids(buf, count, pids, max, &n);
	if (ret || !n) {
		kfree(pids);
		return ret ? ret : (ssize_t)count;
	}
	trace_types_lock();
	old = *pid_list_ptr(tr, notrace);
	list = trace_pid_list_alloc(n + (old ? old->size / 2 : 0));
	if (list) {
		for (unsigned int i = 0; old && i < old->size; i++)
			if (old->slots[i] >= 0)
				trace_pid_list_add(list, old->slots[i]);
		for (unsigned int i = 0; i < n; i++)
			trace_pid_list_add(list, pids[i]);
		pid_list_replace(tr, notrace, list);
	}
	trace_types_unlock();
	kfree(pids);
	return list ? (ssize_t)count : -ENOMEM;
}

static ssize_t set_event_pid_write(struct file *file, const char *buf, size_t count,
				   loff_t *pos)
{
	return pid_list_write(file, buf, count, false);
}

static ssize_t set_event_notrace_pid_write(struct file *file, const char *buf, size_t count,
					   loff_t *pos)
{
	return pid_list_write(file, buf, count, true);
}

static const struct file_operations set_event_pid_fops = {
	.open = set_event_pid_open,
	.read = seq_read,
	.write = set_event_pid_write,
	.release = tr_single_release,
}, set_event_notrace_pid_fops = {
	.open = set_event_notrace_pid_open,
	.read = seq_read,
	.write = set_event_notrace_pid_write,
	.release = tr_single_release,
};

const struct trace_file_spec trace_pid_files[] = {
	{ "set_event_pid", TRACE_MODE_WRITE, &set_event_pid_fops },
	{ "set_event_notrace_pid", TRACE_MODE_WRITE, &set_event_notrace_pid_fops },
	{ }
};
