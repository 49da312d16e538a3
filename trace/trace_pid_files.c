/*
 * The pid filter files: set_event_pid and set_event_notrace_pid for an
 * array's events, set_ftrace_pid and set_ftrace_notrace_pid for its
 * function tracer (function, function_graph). Records are kept only of
 * the tasks in the first list of a pair (when it has any) and never of
 * those in the second, judged by the task running when the record is
 * made. With the event-fork (function-fork) option a listed task's
 * children join its list when they are forked and leave it when they are
 * freed (the probes in trace/trace_sched.c), so they can be added from any
 * context: a list is an open-addressed set with room to grow that takes
 * pids by cmpxchg, and a write builds a new set and swaps it in (readers
 * under RCU). Writing with O_TRUNC (`echo PID > file`) replaces a list,
 * appending (`>>`) adds to it; blanks separate pids; anything else is
 * EINVAL. The sets themselves are trace/trace_pid_list.c. Pure.
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

/* Which list a file shows and changes. */
enum pid_list_kind { PIDS_EVENT, PIDS_EVENT_NOTRACE, PIDS_FUNCTION, PIDS_FUNCTION_NOTRACE };

static struct trace_pid_list **pid_list_ptr(struct trace_array *tr, enum pid_list_kind kind)
{
	struct trace_pid_filter *f = kind <= PIDS_EVENT_NOTRACE ? &tr->event_pids :
								  &tr->function_pids;

	return kind == PIDS_EVENT || kind == PIDS_FUNCTION ? &f->pids : &f->no_pids;
}

/* Mark tr's events for the check in trace_event_buffer_reserve while a list exists. */
static void pid_filter_update_events(struct trace_array *tr)
{
	bool on = tr->event_pids.pids || tr->event_pids.no_pids;
	struct trace_event_file *file;

	list_for_each_entry(file, &tr->events, list) {
		if (on)
			__atomic_or_fetch(&file->flags, EVENT_FILE_FL_PID_FILTER, __ATOMIC_RELAXED);
		else
			__atomic_and_fetch(&file->flags, ~EVENT_FILE_FL_PID_FILTER, __ATOMIC_RELAXED);
	}
}

/* The pids in ascending order, as Linux's bitmap walk prints them; "no pid" for ftrace's. */
static void pid_list_show(struct seq_file *m, enum pid_list_kind kind)
{
	struct trace_file_data *d = m->private;
	const struct trace_pid_list *list;
	long last = -1;

	trace_types_lock();
	list = *pid_list_ptr(d->tr, kind);
	if (!list && kind >= PIDS_FUNCTION)
		seq_puts(m, "no pid\n");
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

/* Swap in list (NULL: none) and free the old one once no probe can see it. */
static void pid_list_replace(struct trace_array *tr, enum pid_list_kind kind,
			     struct trace_pid_list *list)
{
	struct trace_pid_list **p = pid_list_ptr(tr, kind), *old = *p;

	rcu_assign_pointer(*p, list);
	if (kind <= PIDS_EVENT_NOTRACE)
		pid_filter_update_events(tr);
	if (old) {
		synchronize_rcu();
		kfree(old);
	}
}

void trace_pid_filters_clear(struct trace_array *tr)
{
	for (enum pid_list_kind k = PIDS_EVENT; k <= PIDS_FUNCTION_NOTRACE; k++)
		pid_list_replace(tr, k, NULL);
}

static int pid_list_open(struct inode *inode, struct file *file, enum pid_list_kind kind,
			 int (*show)(struct seq_file *m, void *v))
{
	struct trace_file_data *d = inode->i_private;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		trace_types_lock();
		pid_list_replace(d->tr, kind, NULL);
		trace_types_unlock();
	}
	return tr_single_open(inode, file, show);
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

static ssize_t pid_list_write(struct file *file, const char *buf, size_t count,
			      enum pid_list_kind kind)
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
	old = *pid_list_ptr(tr, kind);
	list = trace_pid_list_alloc(n + (old ? old->size / 2 : 0));
	if (list) {
		for (unsigned int i = 0; old && i < old->size; i++)
			if (old->slots[i] >= 0)
				trace_pid_list_add(list, old->slots[i]);
		for (unsigned int i = 0; i < n; i++)
			trace_pid_list_add(list, pids[i]);
		pid_list_replace(tr, kind, list);
	}
	trace_types_unlock();
	kfree(pids);
	return list ? (ssize_t)count : -ENOMEM;
}

/* Each file's show, open and write: its kind of list. */
#define PID_LIST_FILE(name, kind)							\
static int name##_show(struct seq_file *m, void *v)					\
{											\
	pid_list_show(m, kind);								\
	return 0;									\
}											\
static int name##_open(struct inode *inode, struct file *file)				\
{											\
	return pid_list_open(inode, file, kind, name##_show);				\
}											\
static ssize_t name##_write(struct file *file, const char *buf, size_t count,		\
			    loff_t *pos)						\
{											\
	return pid_list_write(file, buf, count, kind);					\
}											\
static const struct file_operations name##_fops = {					\
	.open = name##_open,								\
	.read = seq_read,								\
	.write = name##_write,								\
	.release = tr_single_release,							\
}

PID_LIST_FILE(set_event_pid, PIDS_EVENT);
PID_LIST_FILE(set_event_notrace_pid, PIDS_EVENT_NOTRACE);
PID_LIST_FILE(set_ftrace_pid, PIDS_FUNCTION);
PID_LIST_FILE(set_ftrace_notrace_pid, PIDS_FUNCTION_NOTRACE);

const struct trace_file_spec trace_pid_files[] = {
	{ "set_event_pid", TRACE_MODE_WRITE, &set_event_pid_fops },
	{ "set_event_notrace_pid", TRACE_MODE_WRITE, &set_event_notrace_pid_fops },
	{ "set_ftrace_pid", TRACE_MODE_WRITE, &set_ftrace_pid_fops },
	{ "set_ftrace_notrace_pid", TRACE_MODE_WRITE, &set_ftrace_notrace_pid_fops },
	{ }
};
