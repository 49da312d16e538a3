/*
 * Event triggers (trace/trace_trigger.h): the command table, attaching
 * and detaching triggers, the trigger file's listing, and the built-in
 * commands traceon, traceoff, snapshot, stacktrace, enable_event and
 * disable_event. One trigger of each command per event (per target for
 * enable_event/disable_event), as Linux. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/rcu.h>
#include <kernel/fs/seq_file.h>
#include <trace/trace.h>
#include <trace/trace_filter.h>
#include <trace/trace_trigger.h>

static LIST_HEAD(trigger_commands);

int register_event_command(struct event_command *cmd)
{
	if (find_event_command(cmd->name))
		return -EEXIST;
	list_add_tail(&cmd->list, &trigger_commands);
	return 0;
}

struct event_command *find_event_command(const char *name)
{
	struct event_command *cmd;

	list_for_each_entry(cmd, &trigger_commands, list)
		if (!strcmp(cmd->name, name))
			return cmd;
	return NULL;
}

int event_trigger_create_files(struct trace_event_file *file, struct dentry *dir)
{
	struct event_command *cmd;
	int ret;

	list_for_each_entry(cmd, &trigger_commands, list) {
		if (cmd->create_files && (ret = cmd->create_files(file, dir)))
			return ret;
	}
	return 0;
}

bool event_trigger_take(struct event_trigger_data *data)
{
	long c = __atomic_load_n(&data->count, __ATOMIC_RELAXED);

	while (c != -1) {
		if (c <= 0)
			return false;
		if (__atomic_compare_exchange_n(&data->count, &c, c - 1, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return true;
	}
	return true;
}

/* --- attaching ------------------------------------------------------------------------ */

static void trigger_mode_update(struct trace_event_file *file)
{
	unsigned long flags = READ_ONCE(file->flags);

	struct event_trigger_data *data;
	bool in_place = true;

	for (data = file->triggers; data; data = data->next)
		in_place &= data->in_place;
	flags &= ~(EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_IN_PLACE);
	if (file->triggers)
		flags |= EVENT_FILE_FL_TRIGGER_MODE | (in_place ? EVENT_FILE_FL_TRIGGER_IN_PLACE : 0);
	WRITE_ONCE(file->flags, flags);
}

int event_trigger_register(struct trace_event_file *file, struct event_trigger_data *data,
			   bool (*same)(const struct event_trigger_data *a,
					const struct event_trigger_data *b))
{
	struct event_trigger_data **pp;
	int ret;

	/*
	 * Commands sharing ops are one kind, as Linux's trigger types:
	 * traceon and traceoff, enable_event and disable_event (on one
	 * target) exclude each other.
	 */
	for (pp = &file->triggers; *pp; pp = &(*pp)->next)
		if ((*pp)->ops == data->ops && (!same || same(*pp, data)))
			return -EEXIST;
	/*
	 * Linked before the event is enabled, as Linux does: the first hit
	 * the enable lets through must find the trigger. A user event's
	 * program sees its enable bit at once and may write all it has
	 * before a later link (its records were dropped as soft-disabled).
	 */
	data->next = NULL;
	rcu_assign_pointer(*pp, data);
	trigger_mode_update(file);
	ret = trace_event_enable_disable(file, true, true);
	if (ret) {
		rcu_assign_pointer(*pp, NULL);
		trigger_mode_update(file);
		synchronize_rcu();	/* the caller frees data: no hit may still run it */
	}
	return ret;
}

static void trigger_data_free(struct event_trigger_data *data)
{
	if (data->ops->free)
		data->ops->free(data);
	filter_free(data->filter);
	kfree(data);
}

/* Unlink *pp (a grace period later nobody runs it), then free it. */
static void trigger_unlink(struct trace_event_file *file, struct event_trigger_data **pp)
{
	struct event_trigger_data *data = *pp;

	rcu_assign_pointer(*pp, data->next);
	trigger_mode_update(file);
	synchronize_rcu();
	trace_event_enable_disable(file, false, true);
	trigger_data_free(data);
}

int event_trigger_unregister(struct trace_event_file *file, struct event_trigger_data *data,
			     bool (*same)(const struct event_trigger_data *a,
					  const struct event_trigger_data *b))
{
	for (struct event_trigger_data **pp = &file->triggers; *pp; pp = &(*pp)->next) {
		if ((*pp)->cmd == data->cmd && (!same || same(*pp, data))) {
			trigger_unlink(file, pp);
			return 0;
		}
	}
	return -ENOENT;
}

void event_trigger_unreg_all(struct trace_event_file *file)
{
	struct event_command *cmd;

	list_for_each_entry(cmd, &trigger_commands, list)
		if (cmd->unreg_all)
			cmd->unreg_all(cmd, file);
}

void event_trigger_unreg_cmd(struct event_command *cmd, struct trace_event_file *file)
{
	struct event_trigger_data **pp = &file->triggers;

	while (*pp) {
		if ((*pp)->cmd == cmd)
			trigger_unlink(file, pp);
		else
			pp = &(*pp)->next;
	}
}

void event_trigger_remove_all(struct trace_event_file *file)
{
	/* Commands that keep their own state (hist) drop it their way first. */
	struct event_command *cmd;

	event_trigger_unreg_all(file);
	while (file->triggers)
		trigger_unlink(file, &file->triggers);
	list_for_each_entry(cmd, &trigger_commands, list)
		if (cmd->remove_files)
			cmd->remove_files(file);
}

/* --- parsing ------------------------------------------------------------------------------ */

/*
 * Split "[:args] [if filter]" into the args (after the ':', up to the
 * first blank: a copy in *args) and a compiled filter. Anything after the
 * args other than "if <filter>" is an error.
 */
static int trigger_split(struct trace_event_file *file, const char *param, char **args,
			 struct event_filter **filter)
{
	const char *p = param, *end;
	struct filter_error ferr = { 0 };
	int ret;

	*args = NULL;
	*filter = NULL;
	if (*p == ':')
		p++;
	end = p + strcspn(p, " \t");
	*args = kstrndup(p, (size_t)(end - p), GFP_KERNEL);
	if (!*args)
		return -ENOMEM;
	p = end + strspn(end, " \t");
	if (!*p)
		return 0;
	if (strncmp(p, "if", 2) || (p[2] != ' ' && p[2] != '\t')) {
		ret = -EINVAL;
		goto fail;
	}
	p += 2 + strspn(p + 2, " \t");
	ret = filter_parse(file->event_call, p, filter, &ferr);
	if (ret == -EINVAL)
		trace_log_filter_error(file->tr, p, &ferr);
	if (!ret)
		return 0;
fail:
	kfree(*args);
	*args = NULL;
	return ret;
}

/* A count: a decimal number, "" (none: -1). */
static int parse_count(const char *s, long *count)
{
	unsigned long long v;

	if (!*s) {
		*count = -1;
		return 0;
	}
	if (kstrtoull(s, 10, &v) || v > 0x7fffffff)
		return -EINVAL;
	*count = (long)v;
	return 0;
}

/* ":count=N" or ":unlimited", then " if filter". */
static int print_count_filter(char *buf, size_t size, const struct event_trigger_data *data)
{
	long count = READ_ONCE(data->count);
	int n = count == -1 ? scnprintf(buf, size, ":unlimited")
			    : scnprintf(buf, size, ":count=%ld", count);

	if (data->filter)
		n += scnprintf(buf + n, size - (size_t)n, " if %s", filter_string(data->filter));
	return n;
}

/*
 * A trigger's line has no length limit (a hist trigger with many fields
 * and actions runs long): print it into a buffer that doubles until the
 * line leaves room to spare, so nothing was cut.
 */
static void trigger_show_one(struct seq_file *m, const struct event_trigger_data *data)
{
	size_t size = 256;

	for (;;) {
		char *buf = kmalloc(size, GFP_KERNEL);
		int n;

		if (!buf) {
			m->nomem = true;	/* the read fails with ENOMEM */
			return;
		}
		n = data->ops->print(buf, size, data);
		if ((size_t)n + 1 < size) {
			seq_write(m, buf, (size_t)n);
			seq_putc(m, '\n');
			kfree(buf);
			return;
		}
		kfree(buf);
		size *= 2;
	}
}

void event_triggers_show(struct seq_file *m, struct trace_event_file *file)
{
	struct event_command *cmd;
	struct event_trigger_data *d;

	/* an eprobe's trigger has no text: it is not listed */
	for (d = file->triggers; d && !d->ops->print; d = d->next)
		;
	if (!d) {
		seq_puts(m, "# Available triggers:\n#");
		list_for_each_entry(cmd, &trigger_commands, list)
			seq_printf(m, " %s", cmd->name);
		seq_putc(m, '\n');
		return;
	}
	for (d = file->triggers; d; d = d->next)
		if (d->ops->print)
			trigger_show_one(m, d);
}

/* --- traceon, traceoff, snapshot, stacktrace ---------------------------------------------- */

/* A count is spent only when the trigger changes tracing_on. */
static void traceonoff_trigger(struct event_trigger_data *data, void *rec, unsigned int size)
{
	struct trace_event_file *file = data->private_data;
	bool on = !strcmp(data->cmd->name, "traceon");

	if (READ_ONCE(file->tr->tracing_on) == on || !event_trigger_take(data))
		return;
	tracer_tracing_on(file->tr, on);
}

static void snapshot_trigger(struct event_trigger_data *data, void *rec, unsigned int size)
{
	struct trace_event_file *file = data->private_data;

	if (event_trigger_take(data))
		tracing_snapshot(file->tr);
}

static void stacktrace_trigger(struct event_trigger_data *data, void *rec, unsigned int size)
{
	struct trace_event_file *file = data->private_data;

	if (event_trigger_take(data))
		trace_dump_stack_record(file->tr, 2);
}

static int simple_trigger_print(char *buf, size_t size, const struct event_trigger_data *data)
{
	int n = scnprintf(buf, size, "%s", data->cmd->name);

	return n + print_count_filter(buf + n, size - (size_t)n, data);
}

static const struct event_trigger_ops traceonoff_ops = { .trigger = traceonoff_trigger, .print = simple_trigger_print };
static const struct event_trigger_ops snapshot_ops = { .trigger = snapshot_trigger, .print = simple_trigger_print };
static const struct event_trigger_ops stacktrace_ops = { .trigger = stacktrace_trigger, .print = simple_trigger_print };

static const struct event_trigger_ops *simple_ops(const struct event_command *cmd)
{
	if (!strcmp(cmd->name, "traceon") || !strcmp(cmd->name, "traceoff"))
		return &traceonoff_ops;
	if (!strcmp(cmd->name, "snapshot"))
		return &snapshot_ops;
	return &stacktrace_ops;
}

/* traceon, traceoff, snapshot, stacktrace: "[:count] [if filter]". */
static int simple_trigger_parse(struct event_command *cmd, struct trace_event_file *file,
				const char *param, bool remove)
{
	struct event_trigger_data *data;
	struct event_filter *filter;
	char *args;
	long count = -1;
	int ret = trigger_split(file, param, &args, &filter);

	if (ret)
		return ret;
	/* A removal may carry the count as listed (":count=2", ":unlimited"). */
	ret = remove ? 0 : parse_count(args, &count);
	kfree(args);
	if (!ret && !strcmp(cmd->name, "snapshot") && !remove)
		ret = tracing_alloc_snapshot(file->tr);
	data = ret ? NULL : kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data) {
		filter_free(filter);
		return ret ? ret : -ENOMEM;
	}
	*data = (struct event_trigger_data){
		.ops = simple_ops(cmd), .cmd = cmd, .count = count, .filter = filter,
		.private_data = file,
	};
	/* Removing a trigger that is not there succeeds, as Linux's void unregister does. */
	if (remove) {
		event_trigger_unregister(file, data, NULL);
		trigger_data_free(data);
		return 0;
	}
	ret = event_trigger_register(file, data, NULL);
	if (ret)
		trigger_data_free(data);
	return ret;
}

/* --- enable_event, disable_event -------------------------------------------------------- */

static void event_enable_trigger(struct event_trigger_data *data, void *rec, unsigned int size)
{
	struct trace_event_file *target = data->private_data;
	bool enable = data->cmd->name[0] == 'e';

	if (!event_trigger_take(data))
		return;
	if (enable)
		__atomic_and_fetch(&target->flags, ~EVENT_FILE_FL_SOFT_DISABLED, __ATOMIC_RELAXED);
	else
		__atomic_or_fetch(&target->flags, EVENT_FILE_FL_SOFT_DISABLED, __ATOMIC_RELAXED);
}

static int event_enable_print(char *buf, size_t size, const struct event_trigger_data *data)
{
	const struct trace_event_file *target = data->private_data;
	int n = scnprintf(buf, size, "%s:%s:%s", data->cmd->name, target->event_call->system,
			  target->event_call->name);

	return n + print_count_filter(buf + n, size - (size_t)n, data);
}

static void event_enable_free(struct event_trigger_data *data)
{
	trace_event_enable_disable(data->private_data, false, true);
}

static const struct event_trigger_ops event_enable_ops = {
	event_enable_trigger, event_enable_print, event_enable_free,
};

static bool same_target(const struct event_trigger_data *a, const struct event_trigger_data *b)
{
	return a->private_data == b->private_data;
}

/* "enable_event:<system>:<event>[:count] [if filter]" */
static int event_enable_parse(struct event_command *cmd, struct trace_event_file *file,
			      const char *param, bool remove)
{
	struct event_trigger_data *data = NULL;
	struct trace_event_file *target;
	struct event_filter *filter;
	char *args, *system, *event, *count_str;
	long count = -1;
	int ret = trigger_split(file, param, &args, &filter);

	if (ret)
		return ret;
	system = args;
	event = strchr(system, ':');
	ret = -EINVAL;
	if (!event)
		goto out;
	*event++ = '\0';
	count_str = strchr(event, ':');
	if (count_str)
		*count_str++ = '\0';
	if (!remove && parse_count(count_str ? count_str : "", &count))
		goto out;
	target = trace_find_event_file(file->tr, system, event);
	if (!target)
		goto out;
	ret = -ENOMEM;
	data = kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data)
		goto out;
	*data = (struct event_trigger_data){
		.ops = &event_enable_ops, .cmd = cmd, .count = count, .filter = filter,
		.private_data = target,
	};
	filter = NULL;
	if (remove) {
		event_trigger_unregister(file, data, same_target);
		ret = 0;
		filter_free(data->filter);
		kfree(data);
		goto out;
	}
	/* The target is attached in soft mode for as long as this trigger exists. */
	ret = trace_event_enable_disable(target, true, true);
	if (!ret) {
		ret = event_trigger_register(file, data, same_target);
		if (ret)
			trigger_data_free(data);	/* drops the target's soft mode */
	} else {
		filter_free(data->filter);
		kfree(data);
	}
out:
	filter_free(filter);
	kfree(args);
	return ret;
}

static struct event_command trigger_cmds[] = {
	{ .name = "traceon", .parse = simple_trigger_parse },
	{ .name = "traceoff", .parse = simple_trigger_parse },
	{ .name = "snapshot", .parse = simple_trigger_parse },
	{ .name = "stacktrace", .parse = simple_trigger_parse },
	{ .name = "enable_event", .parse = event_enable_parse },
	{ .name = "disable_event", .parse = event_enable_parse },
};

int register_trigger_cmds(void)
{
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(trigger_cmds) && !ret; i++)
		if (!find_event_command(trigger_cmds[i].name))
			ret = register_event_command(&trigger_cmds[i]);
	return ret;
}
