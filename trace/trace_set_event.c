/*
 * set_event and available_events, as Linux has them:
 *
 *   echo sched:sched_switch >> set_event	enable one event
 *   echo 'irq:*' >> set_event			a whole system (also "irq:" or "irq")
 *   echo '!sched:sched_switch' >> set_event	disable it
 *   echo > set_event				disable every event
 *
 * A token without ':' names an event or a system. Globs (*, ?, [..])
 * are accepted in both halves. Reading set_event lists the enabled
 * events as system:event. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/fcntl.h>
#include <trace/trace.h>

/* Apply one token; -EINVAL when it matches no event. */
static int set_event_token(struct trace_array *tr, char *tok)
{
	bool enable = true;
	char *colon, *system = NULL, *event;
	struct trace_event_file *file;
	int ret = -EINVAL, err;

	if (*tok == '!') {
		enable = false;
		tok++;
	}
	colon = strchr(tok, ':');
	if (colon) {
		*colon = '\0';
		system = *tok && strcmp(tok, "*") ? tok : NULL;
		event = colon[1] && strcmp(colon + 1, "*") ? colon + 1 : NULL;
		return trace_set_events(tr, system, event, enable);
	}
	/* A bare word is an event name or a system name. */
	list_for_each_entry(file, &tr->events, list) {
		struct trace_event_call *call = file->event_call;

		if (!trace_glob_match(tok, call->name) && !trace_glob_match(tok, call->system))
			continue;
		err = trace_event_enable_disable(file, enable, false);
		if (ret)
			ret = err;
	}
	return ret;
}

static int set_event_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = m->private;
	struct trace_event_file *file;

	trace_types_lock();
	list_for_each_entry(file, &tr->events, list)
		if (file->flags & EVENT_FILE_FL_RECORD)
			seq_printf(m, "%s:%s\n", file->event_call->system, file->event_call->name);
	trace_types_unlock();
	return 0;
}

static int set_event_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;
	int ret = trace_array_get_file(file, &tr);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		trace_types_lock();
		trace_set_events(tr, NULL, NULL, false);
		trace_types_unlock();
	}
	ret = single_open(file, set_event_show, tr);
	if (ret)
		trace_array_put(tr);
	return ret;
}

static int set_event_release(struct inode *inode, struct file *file)
{
	trace_array_put(inode->i_private);
	return single_release(inode, file);
}

int trace_set_event_list(struct trace_array *tr, char *list, const char *seps)
{
	char *p, *tok;
	int ret = 0;

	for (p = list; !ret && *p;) {
		p += strspn(p, seps);
		tok = p;
		p += strcspn(p, seps);
		if (*p)
			*p++ = '\0';
		if (*tok)
			ret = set_event_token(tr, tok);
	}
	return ret;
}

static ssize_t set_event_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_array *tr = file->f_inode->i_private;
	char *str = kmalloc(count + 1, GFP_KERNEL);
	int ret;

	if (!str)
		return -ENOMEM;
	memcpy(str, buf, count);
	str[count] = '\0';
	trace_types_lock();
	ret = trace_set_event_list(tr, str, " \t\n");
	trace_types_unlock();
	kfree(str);
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations set_event_fops = {
	.open = set_event_open,
	.read = seq_read,
	.write = set_event_write,
	.release = set_event_release,
};

static int available_events_show(struct seq_file *m, void *v)
{
	for (struct trace_event_call *call = trace_next_event_call(NULL); call;
	     call = trace_next_event_call(call))
		seq_printf(m, "%s:%s\n", call->system, call->name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(available_events);

int trace_create_set_event_files(struct trace_array *tr, struct dentry *dir)
{
	struct dentry *d = tracefs_create_file("set_event", TRACE_MODE_WRITE, dir, tr,
					       &set_event_fops);

	if (!IS_ERR(d) && !tr->name)
		d = tracefs_create_file("available_events", TRACE_MODE_READ, dir, NULL,
					&available_events_fops);
	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}
