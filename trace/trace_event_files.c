/*
 * The events/ tree of a trace array and the files that switch events:
 * events/{enable,header_page,header_event}, events/<sys>/enable,
 * events/<sys>/<event>/{enable,id,format,filter,trigger} (plus whatever
 * trigger commands add, e.g. hist), set_event and available_events.
 * Enabling attaches the event's probe with the array's trace_event_file
 * as its data; triggers attach it in "soft mode" (records dropped unless
 * enabled for real). Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/rcu.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/fcntl.h>
#include <trace/trace.h>
#include <trace/trace_filter.h>
#include <trace/trace_trigger.h>

/* --- enabling ----------------------------------------------------------------------- */

int trace_event_enable_disable(struct trace_event_file *file, bool enable, bool soft)
{
	unsigned long flags = file->flags;
	bool attach;
	int ret = 0;

	if (soft) {
		if (!enable && !file->sm_ref)
			return -EINVAL;
		file->sm_ref += enable ? 1 : -1;
		if (enable && file->sm_ref == 1 && !(flags & EVENT_FILE_FL_RECORD))
			flags |= EVENT_FILE_FL_SOFT_DISABLED;	/* soft mode starts off */
		/*
		 * The last soft user gone, the state the triggers left sticks,
		 * as in Linux: an event enable_event turned on stays on, one
		 * disable_event turned off goes off.
		 */
		if (!enable && !file->sm_ref) {
			if (flags & EVENT_FILE_FL_SOFT_DISABLED)
				flags &= ~EVENT_FILE_FL_RECORD;
			else
				flags |= EVENT_FILE_FL_RECORD;
		}
	} else if (enable) {
		flags = (flags | EVENT_FILE_FL_RECORD) & ~EVENT_FILE_FL_SOFT_DISABLED;
	} else {
		flags &= ~EVENT_FILE_FL_RECORD;
		flags |= EVENT_FILE_FL_SOFT_DISABLED;
	}
	if (file->sm_ref)
		flags |= EVENT_FILE_FL_SOFT_MODE;
	else
		flags &= ~EVENT_FILE_FL_SOFT_MODE;
	if (!file->sm_ref && (flags & EVENT_FILE_FL_RECORD))
		flags &= ~EVENT_FILE_FL_SOFT_DISABLED;
	attach = (flags & EVENT_FILE_FL_RECORD) || file->sm_ref;
	WRITE_ONCE(file->flags, flags);
	if (attach && !(flags & EVENT_FILE_FL_ENABLED)) {
		ret = trace_event_reg(file, true);	/* sets EVENT_FILE_FL_ENABLED */
		if (!ret)
			trace_cmdlines_start();
	} else if (!attach && (flags & EVENT_FILE_FL_ENABLED)) {
		ret = trace_event_reg(file, false);
		trace_cmdlines_stop();
	}
	if (ret && soft && enable)
		file->sm_ref--;
	return ret;
}

int trace_set_events(struct trace_array *tr, const char *system, const char *event,
		     bool enable)
{
	struct trace_event_file *file;
	int ret = -EINVAL, err;

	list_for_each_entry(file, &tr->events, list) {
		struct trace_event_call *call = file->event_call;

		if (system && !trace_glob_match(system, call->system))
			continue;
		if (event && !trace_glob_match(event, call->name))
			continue;
		err = trace_event_enable_disable(file, enable, false);
		if (ret)
			ret = err;
	}
	return ret;
}

struct trace_event_file *trace_find_event_file(struct trace_array *tr, const char *system,
					       const char *event)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &tr->events, list)
		if (!strcmp(file->event_call->name, event) &&
		    (!system || !strcmp(file->event_call->system, system)))
			return file;
	return NULL;
}

/* --- events/<sys>/<event>/ files ------------------------------------------------------ */

/* i_private of the enable files of a whole array or system: */
struct event_subsystem {
	struct trace_array *tr;
	const char *system;	/* NULL: every event (events/enable) */
	struct dentry *dir;	/* events/ or events/<system>/; NULL once its last event went */
	struct list_head list;	/* in tr->subsystems */
};

static ssize_t strip_copy(const char *buf, size_t count, char *out, size_t size)
{
	size_t n = count;

	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	if (n >= size)
		return -EINVAL;
	memcpy(out, buf, n);
	out[n] = '\0';
	return (ssize_t)n;
}

/* A written command as a string, trailing blanks and newline stripped; NULL: no memory. */
static char *strip_dup(const char *buf, size_t count)
{
	char *str = kmalloc(count + 1, GFP_KERNEL);

	if (str)
		strip_copy(buf, count, str, count + 1);
	return str;
}

static int event_write_01(const char *buf, size_t count)
{
	char tmp[8];

	if (strip_copy(buf, count, tmp, sizeof(tmp)) < 0)
		return -EINVAL;
	if (!strcmp(tmp, "0"))
		return 0;
	if (!strcmp(tmp, "1"))
		return 1;
	return -EINVAL;
}

static int event_enable_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file = m->private;
	unsigned long flags = READ_ONCE(file->flags);

	seq_puts(m, (flags & EVENT_FILE_FL_ENABLED) && !(flags & EVENT_FILE_FL_SOFT_DISABLED) ?
			    "1" : "0");
	seq_puts(m, flags & (EVENT_FILE_FL_SOFT_MODE | EVENT_FILE_FL_SOFT_DISABLED) &&
			    flags & EVENT_FILE_FL_ENABLED ? "*\n" : "\n");
	return 0;
}

/* Its event was removed while a file of it was open: nothing to show or change. */
static bool event_file_gone(const struct trace_event_file *f)
{
	return READ_ONCE(f->flags) & EVENT_FILE_FL_FREED;
}

/* An open of one of the event's files: keeps the struct while open (trace_types_lock held). */
static void event_file_get(struct trace_event_file *f)
{
	f->open_ref++;
}

/* single_open of one of an event's files, holding its instance (trace_array_get_file). */
int event_file_open(struct inode *inode, struct file *file,
		    int (*show)(struct seq_file *m, void *v))
{
	struct trace_event_file *f = inode->i_private;
	int ret = trace_array_get_file(file, &f->tr);

	if (ret)
		return ret;
	ret = single_open(file, show, f);
	trace_types_lock();
	if (ret)
		trace_array_put(f->tr);
	else
		event_file_get(f);
	trace_types_unlock();
	return ret;
}

static int event_enable_open(struct inode *inode, struct file *file)
{
	return event_file_open(inode, file, event_enable_show);
}

int event_file_release(struct inode *inode, struct file *file)
{
	struct trace_event_file *f = inode->i_private;

	trace_types_lock();
	trace_array_put(f->tr);
	if (!--f->open_ref && event_file_gone(f))
		kfree(f);
	trace_types_unlock();
	return single_release(inode, file);
}

static ssize_t event_enable_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_event_file *f = file->f_inode->i_private;
	int val = event_write_01(buf, count), ret;

	if (val < 0)
		return val;
	trace_types_lock();
	ret = event_file_gone(f) ? -ENODEV : trace_event_enable_disable(f, val, false);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations event_enable_fops = {
	.open = event_enable_open,
	.read = seq_read,
	.write = event_enable_write,
	.release = event_file_release,
};

static int event_id_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file = m->private;
	int ret = -ENODEV;

	trace_types_lock();
	if (!event_file_gone(file)) {
		seq_printf(m, "%u\n", file->event_call->id);
		ret = 0;
	}
	trace_types_unlock();
	return ret;
}

static int event_id_open(struct inode *inode, struct file *file)
{
	return event_file_open(inode, file, event_id_show);
}

static const struct file_operations event_id_fops = {
	.open = event_id_open,
	.read = seq_read,
	.release = event_file_release,
};

static int event_format_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file = m->private;
	char *buf = NULL;
	int len = 0;

	trace_types_lock();
	if (!event_file_gone(file)) {
		len = trace_event_format(file->event_call, NULL, 0);
		buf = kmalloc((size_t)len + 1, GFP_KERNEL);
		if (buf)
			trace_event_format(file->event_call, buf, (size_t)len + 1);
	}
	trace_types_unlock();
	if (!buf)
		return event_file_gone(file) ? -ENODEV : -ENOMEM;
	seq_write(m, buf, (size_t)len);
	kfree(buf);
	return 0;
}

static int event_format_open(struct inode *inode, struct file *file)
{
	return event_file_open(inode, file, event_format_show);
}

static const struct file_operations event_format_fops = {
	.open = event_format_open,
	.read = seq_read,
	.release = event_file_release,
};

/* filter: the text, a refused text with its error, or "none" */
static int event_filter_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file = m->private;

	trace_types_lock();
	if (file->filter_err)
		seq_puts(m, file->filter_err);
	else
		seq_printf(m, "%s\n", file->filter ? filter_string(file->filter) : "none");
	trace_types_unlock();
	return 0;
}

static int event_filter_open(struct inode *inode, struct file *file)
{
	return event_file_open(inode, file, event_filter_show);
}

/* Put filter in place of the event's (NULL: none), and what its file shows on error. */
static void event_set_filter(struct trace_event_file *file, struct event_filter *filter,
			     char *err_text)
{
	struct event_filter *old = file->filter;

	kfree(file->filter_err);
	file->filter_err = err_text;
	WRITE_ONCE(file->filter, filter);
	if (old) {
		synchronize_rcu();	/* no probe is still matching against it */
		filter_free(old);
	}
}

/*
 * A refused filter, as Linux: the event's filter goes (every record is
 * kept), its file shows the text with a caret under the error and the
 * reason ("Error: (0)" for an empty text) and a blank line, and
 * error_log gets the entry.
 */
static void event_filter_refused(struct trace_event_file *file, const char *str,
				 const struct filter_error *err)
{
	int len = (int)strlen(str), pos = min(err->pos, len);
	size_t size = (size_t)len * 2 + (err->msg ? strlen(err->msg) : 0) + 32;
	char *text = kmalloc(size, GFP_KERNEL);

	if (text && err->msg)
		snprintf(text, size, "%s\n%*s\nparse_error: %s\n\n", str, pos + 1, "^", err->msg);
	else if (text)
		snprintf(text, size, "%s\nError: (0)\n\n", str);

	trace_log_filter_error(file->tr, str, err);
	event_set_filter(file, NULL, text);
}

/*
 * Install (or with "0" remove) a filter. A refused one (an empty text
 * too, as Linux) leaves the event unfiltered: -EINVAL. subsys_msg: the
 * events/<sys>/filter write's single reason for any event refusing it.
 */
static int apply_event_filter(struct trace_event_file *file, const char *str,
			      const char *subsys_msg)
{
	struct event_filter *filter = NULL;
	struct filter_error err = { 0 };
	int ret = -EINVAL;

	if (*str)
		ret = filter_parse(file->event_call, str, &filter, &err);
	if (ret == -EINVAL) {
		if (subsys_msg)
			err = (struct filter_error){ subsys_msg, 0 };
		event_filter_refused(file, str, &err);
	}
	if (ret)
		return ret;
	event_set_filter(file, filter, NULL);
	return 0;
}

static ssize_t event_filter_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_event_file *f = file->f_inode->i_private;
	char *str = strip_dup(buf, count);
	int ret;

	if (!str)
		return -ENOMEM;
	trace_types_lock();
	ret = event_file_gone(f) ? -ENODEV : apply_event_filter(f, str, NULL);
	trace_types_unlock();
	kfree(str);
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations event_filter_fops = {
	.open = event_filter_open,
	.read = seq_read,
	.write = event_filter_write,
	.release = event_file_release,
};

/* trigger: list, add ("cmd[:args]"), remove ("!cmd[:args]"); O_TRUNC: event_trigger_unreg_all. */
static int event_trigger_show(struct seq_file *m, void *v)
{
	trace_types_lock();
	event_triggers_show(m, m->private);
	trace_types_unlock();
	return 0;
}

static int event_trigger_open(struct inode *inode, struct file *file)
{
	struct trace_event_file *f = inode->i_private;
	int ret = trace_array_get_file(file, &f->tr);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		trace_types_lock();
		event_trigger_unreg_all(f);
		trace_types_unlock();
	}
	ret = single_open(file, event_trigger_show, f);
	trace_types_lock();
	if (ret)
		trace_array_put(f->tr);
	else
		event_file_get(f);
	trace_types_unlock();
	return ret;
}

static ssize_t event_trigger_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_event_file *f = file->f_inode->i_private;
	struct event_command *cmd;
	char *str = strip_dup(buf, count), *p, *name;
	bool remove;
	size_t n;
	int ret;

	if (!str)
		return -ENOMEM;
	p = str;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p) {	/* a blank line names no command: EINVAL, as Linux */
		kfree(str);
		return -EINVAL;
	}
	remove = *p == '!';
	name = p + remove;
	n = strcspn(name, ": \t");
	p = name + n;
	trace_types_lock();
	if (event_file_gone(f)) {
		trace_types_unlock();
		kfree(str);
		return -ENODEV;
	}
	{
		char saved = *p;

		*p = '\0';
		cmd = find_event_command(name);
		*p = saved;
	}
	if (!cmd) {
		tracing_log_err_cmd(f->tr, "event trigger", str, "Unknown trigger command",
				    (int)(name - str));
		ret = -EINVAL;
	} else {
		ret = cmd->parse(cmd, f, p, remove);
	}
	trace_types_unlock();
	kfree(str);
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations event_trigger_fops = {
	.open = event_trigger_open,
	.read = seq_read,
	.write = event_trigger_write,
	.release = event_file_release,
};

/* --- events/enable and events/<sys>/enable ------------------------------------------------- */

/* "0", "1", or "X" when the events under it disagree, as Linux. */
static int system_enable_show(struct seq_file *m, void *v)
{
	struct event_subsystem *sys = m->private;
	struct trace_event_file *file;
	int state = -1;

	trace_types_lock();
	list_for_each_entry(file, &sys->tr->events, list) {
		int on;

		if (sys->system && strcmp(file->event_call->system, sys->system))
			continue;
		on = (file->flags & EVENT_FILE_FL_ENABLED) &&
		     !(file->flags & EVENT_FILE_FL_SOFT_DISABLED);
		if (state >= 0 && state != on) {
			state = 2;
			break;
		}
		state = on;
	}
	trace_types_unlock();
	seq_puts(m, state == 2 ? "X\n" : state == 1 ? "1\n" : "0\n");
	return 0;
}

/* A system's file shown by show, holding its instance while open. */
static int system_single_open(struct inode *inode, struct file *file,
			      int (*show)(struct seq_file *m, void *v))
{
	struct event_subsystem *sys = inode->i_private;
	int ret = trace_array_get_file(file, &sys->tr);

	if (ret)
		return ret;
	ret = single_open(file, show, sys);
	if (ret)
		trace_array_put(sys->tr);
	return ret;
}

static int system_enable_open(struct inode *inode, struct file *file)
{
	return system_single_open(inode, file, system_enable_show);
}

static int system_enable_release(struct inode *inode, struct file *file)
{
	trace_array_put(((struct event_subsystem *)inode->i_private)->tr);
	return single_release(inode, file);
}

static ssize_t system_enable_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct event_subsystem *sys = file->f_inode->i_private;
	int val = event_write_01(buf, count), ret;

	if (val < 0)
		return val;
	trace_types_lock();
	ret = trace_set_events(sys->tr, sys->system, NULL, val);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations system_enable_fops = {
	.open = system_enable_open,
	.read = seq_read,
	.write = system_enable_write,
	.release = system_enable_release,
};

/*
 * events/<sys>/filter: a filter for every event of the system. Each event
 * that cannot take it (a field it lacks, a bad text) is left unfiltered
 * with Linux's one reason; the write itself succeeds while the system has
 * events, and the file shows Linux's help, as it does after a success.
 */
#define SUBSYS_FILTER_ERR	"Couldn't find or set field in one of a subsystem's events"

static int system_filter_show(struct seq_file *m, void *v)
{
	seq_puts(m, "### global filter ###\n"
		    "# Use this to set filters for multiple events.\n"
		    "# Only events with the given fields will be affected.\n"
		    "# If no events are modified, an error message will be displayed here\n");
	return 0;
}

static int system_filter_open(struct inode *inode, struct file *file)
{
	return system_single_open(inode, file, system_filter_show);
}

static ssize_t system_filter_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct event_subsystem *sys = file->f_inode->i_private;
	struct trace_event_file *f;
	char *str = strip_dup(buf, count);
	int ret = -ENODEV;

	if (!str)
		return -ENOMEM;
	trace_types_lock();
	list_for_each_entry(f, &sys->tr->events, list) {
		if (strcmp(f->event_call->system, sys->system) || event_file_gone(f))
			continue;
		if (apply_event_filter(f, str, SUBSYS_FILTER_ERR) == -ENOMEM) {
			ret = -ENOMEM;
			break;
		}
		ret = 0;
	}
	trace_types_unlock();
	kfree(str);
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations system_filter_fops = {
	.open = system_filter_open,
	.read = seq_read,
	.write = system_filter_write,
	.release = system_enable_release,
};

/* events/header_page: the data field is as large as the array's sub-buffers hold. */
static int header_page_show(struct seq_file *m, void *v)
{
	struct event_subsystem *sys = m->private;

	seq_printf(m, RB_HEADER_PAGE("%u"),
		   ring_buffer_subbuf_size(READ_ONCE(sys->tr->buffer)) - RB_PAGE_HDR_SIZE);
	return 0;
}

static int header_page_open(struct inode *inode, struct file *file)
{
	return system_single_open(inode, file, header_page_show);
}

static ssize_t header_event_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	static const char text[] = RB_HEADER_EVENT_TEXT;

	return simple_read_from_buffer(buf, count, pos, text, sizeof(text) - 1);
}

static const struct file_operations header_page_fops = {
	.open = header_page_open,
	.read = seq_read,
	.release = system_enable_release,
};
static const struct file_operations header_event_fops = { .read = header_event_read };

/* --- building the tree ---------------------------------------------------------------------- */

static struct event_subsystem *subsystem_new(struct trace_array *tr, const char *system)
{
	struct event_subsystem *sys = kzalloc(sizeof(*sys), GFP_KERNEL);

	if (!sys)
		return NULL;
	sys->tr = tr;
	/* its own copy: a dynamic event's system name goes with the event, the directory stays */
	sys->system = system ? kstrdup(system, GFP_KERNEL) : NULL;
	if (system && !sys->system) {
		kfree(sys);
		return NULL;
	}
	list_add_tail(&sys->list, &tr->subsystems);
	return sys;
}

/* events/<system>/, made with its enable file the first time. */
static struct dentry *system_dir(struct trace_array *tr, const char *system)
{
	struct event_subsystem *sys;
	struct dentry *d;

	list_for_each_entry(sys, &tr->subsystems, list)
		if (sys->system && !strcmp(sys->system, system))
			break;
	if (&sys->list != &tr->subsystems && sys->dir)
		return sys->dir;
	/* new, or its directory went with its last event */
	if (&sys->list == &tr->subsystems)
		sys = subsystem_new(tr, system);
	if (!sys)
		return ERR_PTR(-ENOMEM);
	d = tracefs_create_dir(system, tr->events_dir);
	if (IS_ERR(d))
		return d;
	sys->dir = d;
	d = tracefs_create_file("enable", TRACE_MODE_WRITE, sys->dir, sys, &system_enable_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("filter", TRACE_MODE_WRITE, sys->dir, sys,
					&system_filter_fops);
	return IS_ERR(d) ? d : sys->dir;
}

/* The last event of a system went (a dynamic one): its directory goes too, as on Linux. */
static void system_put_if_empty(struct trace_array *tr, const char *system)
{
	struct trace_event_file *file;
	struct event_subsystem *sys;

	list_for_each_entry(file, &tr->events, list)
		if (!strcmp(file->event_call->system, system))
			return;
	/* the struct stays: an open events/<system>/enable still points at it */
	list_for_each_entry(sys, &tr->subsystems, list)
		if (sys->system && !strcmp(sys->system, system) && sys->dir) {
			tracefs_remove(sys->dir);
			sys->dir = NULL;
			return;
		}
}

static int event_file_create(struct trace_array *tr, struct trace_event_call *call)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "enable", TRACE_MODE_WRITE, &event_enable_fops },
		{ "id", TRACE_MODE_READ, &event_id_fops },
		{ "format", TRACE_MODE_READ, &event_format_fops },
		{ "filter", TRACE_MODE_WRITE, &event_filter_fops },
		{ "trigger", TRACE_MODE_WRITE, &event_trigger_fops },
	};
	struct trace_event_file *file = kzalloc(sizeof(*file), GFP_KERNEL);
	struct dentry *sys, *d;

	if (!file)
		return -ENOMEM;
	file->event_call = call;
	file->tr = tr;
	file->buffer = tr->buffer;
	sys = system_dir(tr, call->system);
	d = IS_ERR(sys) ? sys : tracefs_create_dir(call->name, sys);
	if (IS_ERR(d)) {
		kfree(file);
		return (int)PTR_ERR(d);
	}
	file->dir = d;
	list_add_tail(&file->list, &tr->events);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		d = tracefs_create_file(files[i].name, files[i].mode, file->dir, file, files[i].fops);
		if (IS_ERR(d))
			return (int)PTR_ERR(d);
	}
	return event_trigger_create_files(file, file->dir);
}

int trace_create_events_dir(struct trace_array *tr, struct dentry *dir)
{
	struct trace_event_call *call;
	struct event_subsystem *all;
	struct dentry *d;
	int ret;

	INIT_LIST_HEAD(&tr->subsystems);
	tr->events_dir = dir ? tracefs_create_dir("events", dir) : tracefs_events_dir();
	if (IS_ERR_OR_NULL(tr->events_dir))
		return tr->events_dir ? (int)PTR_ERR(tr->events_dir) : -ENOENT;
	all = subsystem_new(tr, NULL);
	if (!all)
		return -ENOMEM;
	all->dir = tr->events_dir;
	d = tracefs_create_file("enable", TRACE_MODE_WRITE, tr->events_dir, all,
				&system_enable_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("header_page", TRACE_MODE_READ, tr->events_dir, all,
					&header_page_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("header_event", TRACE_MODE_READ, tr->events_dir, NULL,
					&header_event_fops);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	for (call = trace_next_event_call(NULL); call; call = trace_next_event_call(call)) {
		ret = event_file_create(tr, call);
		if (ret)
			return ret;
	}
	WRITE_ONCE(tr->trace_marker_file, trace_find_event_file(tr, "ftrace", "print"));
	return trace_create_set_event_files(tr, dir);
}

/* Detach and free one event of tr (its directory is removed by the caller). */
static void event_file_free(struct trace_event_file *file)
{
	event_trigger_remove_all(file);
	if (file->flags & EVENT_FILE_FL_RECORD)
		trace_event_enable_disable(file, false, false);
	list_del(&file->list);
	synchronize_rcu();
	filter_free(file->filter);
	kfree(file->filter_err);
	file->filter = NULL;
	if (file->open_ref)
		file->flags |= EVENT_FILE_FL_FREED;	/* the last event_file_release frees it */
	else
		kfree(file);
}

void trace_remove_events(struct trace_array *tr)
{
	struct trace_event_file *file, *fn;
	struct event_subsystem *sys, *sn;

	if (!tr->subsystems.next)
		return;		/* never built */
	WRITE_ONCE(tr->trace_marker_file, NULL);
	list_for_each_entry_safe(file, fn, &tr->events, list)
		event_file_free(file);
	if (tr->events_dir && tr->name)
		tracefs_remove(tr->events_dir);
	list_for_each_entry_safe(sys, sn, &tr->subsystems, list) {
		list_del(&sys->list);
		kfree((char *)sys->system);
		kfree(sys);
	}
}

int trace_add_event_files(struct trace_event_call *call)
{
	struct trace_array *tr;
	int ret = 0;

	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		if (!ret)
			ret = event_file_create(tr, call);
	return ret;
}

int trace_remove_event_files(struct trace_event_call *call)
{
	struct trace_array *tr;
	struct trace_event_file *file;

	if (call->refs)
		return -EBUSY;
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		file = trace_find_event_file(tr, call->system, call->name);
		if (!file)
			continue;
		if (file->flags & EVENT_FILE_FL_ENABLED)
			return -EBUSY;
	}
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		file = trace_find_event_file(tr, call->system, call->name);
		if (file) {
			tracefs_remove(file->dir);
			event_file_free(file);
			system_put_if_empty(tr, call->system);
		}
	}
	return 0;
}
