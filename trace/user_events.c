/*
 * User events as events: the registry of what ring-3 programs
 * registered, each event's trace_event_call (events/user_events/NAME/,
 * or events/user_events_multi/NAME.ID/ for a multi-format registration),
 * its tracepoint and the probe an instance attaches to it, the records
 * a write makes, and the `u:` lines of dynamic_events.
 *
 * Lifetime: see struct user_event. Linux destroys an unreferenced event
 * from a workqueue, so a program that re-registers the name at once may
 * still find the old one; here every registration and delete first
 * destroys what is unreferenced, and only the one place that cannot
 * destroy at once (the last tracing user leaving, inside the tracing
 * core's enable path) hands the event to a reaper thread.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/rcu.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <trace/trace.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_output.h>
#include <trace/perf_trace.h>
#include <trace/user_events.h>

LIST_HEAD(user_events_list);
static unsigned int user_events_count;
/* Suffix of the next multi-format event's name (Linux's group multi_id). */
static u64 user_events_multi_id;
/* Set by user_event_reg around its put: destroying then would pull files from under the caller. */
static bool user_events_in_reg;
static bool user_events_reap_pending;
static DECLARE_WAIT_QUEUE_HEAD(user_events_reap_wq);
static struct task_struct *user_events_reaper_task;

typedef void (*user_event_probe_fn)(void *data, struct user_event *user, const u8 *rec,
				    u32 len);

static bool user_event_last_ref(const struct user_event *user)
{
	return user->refcnt == 0;
}

static bool user_event_is_multi(u32 flags)
{
	return flags & USER_EVENT_REG_MULTI_FORMAT;
}

void user_event_get(struct user_event *user)
{
	user->refcnt++;
}

static void user_event_free(struct user_event *user)
{
	user_event_fields_free(&user->fields);
	if (user->tp_name != user->reg_name)
		kfree(user->tp_name);
	kfree(user->reg_name);
	kfree(user);
}

/* Take the event out of tracing and free it: -EBUSY while an instance traces it. */
static int user_event_destroy(struct user_event *user)
{
	int ret = trace_remove_event_files(&user->call);

	if (ret)
		return ret;
	trace_remove_event_call(&user->call);
	list_del(&user->list);
	user_events_count--;
	if (user->status_bit)
		user_event_status_bit_free(user->status_bit);
	user_event_free(user);
	return 0;
}

/* Destroy every event nothing references (and nothing keeps: PERSIST). */
static void user_events_reap(void)
{
	struct user_event *user, *tmp;

	user_events_reap_pending = false;
	list_for_each_entry_safe(user, tmp, &user_events_list, list)
		if (user_event_last_ref(user) && !(user->reg_flags & USER_EVENT_REG_PERSIST))
			user_event_destroy(user);
}

void user_event_put(struct user_event *user)
{
	if (--user->refcnt || (user->reg_flags & USER_EVENT_REG_PERSIST))
		return;
	if (!user_events_in_reg) {
		user_event_destroy(user);
		return;
	}
	user_events_reap_pending = true;
	wake_up(&user_events_reap_wq);
}

static int user_events_reaper(void *unused)
{
	for (;;) {
		wait_event(user_events_reap_wq, READ_ONCE(user_events_reap_pending));
		trace_types_lock();
		user_events_reap();
		trace_types_unlock();
	}
	return 0;
}

/* --- records -------------------------------------------------------------------------- */

/* An instance's probe: the record into its ring buffer, through filter and triggers. */
static void user_event_probe(void *data, struct user_event *user, const u8 *rec, u32 len)
{
	trace_event_write_record(data, rec, len);
}

int user_event_emit(struct user_event *user, const void *rec, u32 len)
{
	struct trace_recursion *guard;
	struct tracepoint_func *it;
	int ret = user_event_validate(&user->fields, rec, len);

	if (ret)
		return ret;
	preempt_disable();
	guard = this_cpu_ptr(&tracepoint_recursion);
	if (trace_recursion_lock(guard)) {
		for (it = rcu_dereference(user->tp.funcs); it && it->func; it++)
			((user_event_probe_fn)it->func)(it->data, user, rec, len);
		trace_recursion_unlock(guard);
	}
	preempt_enable();
	return 0;
}

/* perf's probe: the same record, offered to the perf events on the event. */
static void user_event_perf_probe(void *data, struct user_event *user, const u8 *rec, u32 len)
{
	struct trace_entry *ent;
	struct pt_regs regs;
	int rctx;

	ent = perf_trace_buf_alloc(len, &rctx);
	if (!ent)
		return;
	memcpy(ent, rec, len);
	tracing_generic_entry_update(ent, user->call.id, tracing_gen_ctx());
	perf_fetch_caller_regs(&regs);
	perf_trace_buf_submit(&user->call, ent, len, rctx, 0, 1, NULL, &regs);
}

/* The `trace` text: records were checked when written, so they are whole. */
static int user_event_output(struct trace_seq *s, struct trace_seq *tmp,
			     const struct trace_entry *ent)
{
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct user_event *user = container_of(call, struct user_event, call);

	return user_event_print_fields(s, &user->fields, ent, 0xffffffffu);
}

/* --- tracing it ------------------------------------------------------------------------- */

/* Who is attached, as the status file and the enable bits show it. */
static void user_event_update_status(struct user_event *user)
{
	unsigned int status = 0;

	for (struct tracepoint_func *it = user->tp.funcs; it && it->func; it++)
		status |= it->func == (void *)user_event_probe ? USER_EVENT_STATUS_FTRACE :
			  it->func == (void *)user_event_perf_probe ? USER_EVENT_STATUS_PERF :
								      USER_EVENT_STATUS_OTHER;
	WRITE_ONCE(user->status, status);
	user_event_enablers_update(user);
	user_event_status_page_update(user);
}

/*
 * A tracer (an instance's file, or perf) attaches probe with data or
 * detaches it: the event's reference, status and enable bits follow.
 */
static int user_event_attach(struct user_event *user, void *probe, void *data, bool enable)
{
	int ret;

	if (enable) {
		ret = tracepoint_probe_register(&user->tp, probe, data);
		if (ret)
			return ret;
		user_event_get(user);
		user_event_update_status(user);
		return 0;
	}
	ret = tracepoint_probe_unregister(&user->tp, probe, data);
	if (ret)
		return ret;
	user_event_update_status(user);
	user_events_in_reg = true;
	user_event_put(user);
	user_events_in_reg = false;
	return 0;
}

/* trace_event_call.reg: an instance starts or stops tracing the event (trace_types_lock held). */
static int user_event_reg(struct trace_event_file *file, bool enable)
{
	struct user_event *user = container_of(file->event_call, struct user_event, call);

	return user_event_attach(user, (void *)user_event_probe, file, enable);
}

/* trace_event_call.perf_reg: the first perf event on it comes or the last goes. */
static int user_event_perf_reg(struct trace_event_call *call, bool enable)
{
	struct user_event *user = container_of(call, struct user_event, call);
	int ret;

	trace_types_lock();
	ret = user_event_attach(user, (void *)user_event_perf_probe, call, enable);
	trace_types_unlock();
	return ret;
}

/* --- registering -------------------------------------------------------------------------- */

/* The event name registers under, with fields args: NULL, or an ERR_PTR(-EADDRINUSE). */
static struct user_event *user_event_find(const char *name, const char *args, u32 flags)
{
	struct user_event *user;

	list_for_each_entry(user, &user_events_list, list) {
		if (user_event_is_multi(flags) != user_event_is_multi(user->reg_flags) ||
		    strcmp(user->reg_name, name))
			continue;
		if (user_event_fields_match(&user->fields, args))
			return user;
		/* a multi-format name may have other formats too */
		if (!user_event_is_multi(flags))
			return ERR_PTR(-EADDRINUSE);
	}
	return NULL;
}

static struct user_event *user_event_create(const char *name, const char *args, u32 flags)
{
	struct user_event *user = kzalloc(sizeof(*user), GFP_KERNEL);
	int ret;

	if (!user)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&user->list);
	user->reg_flags = flags;
	user->reg_name = kstrdup(name, GFP_KERNEL);
	ret = user->reg_name ? user_event_fields_parse(args, &user->fields) : -ENOMEM;
	if (ret) {
		kfree(user->reg_name);
		kfree(user);
		return ERR_PTR(ret);
	}
	user->tp_name = user->reg_name;
	if (user_event_is_multi(flags)) {
		size_t len = strlen(name) + 20;

		user->tp_name = kmalloc(len, GFP_KERNEL);
		if (!user->tp_name)
			goto nomem;
		snprintf(user->tp_name, len, "%s.%lx", name, (unsigned long)user_events_multi_id++);
	}
	if (user_events_count >= USER_EVENTS_MAX) {
		ret = -EMFILE;
		goto fail;
	}
	user->call.system = user_event_is_multi(flags) ? USER_EVENTS_MULTI_SYSTEM :
							  USER_EVENTS_SYSTEM;
	user->call.name = user->tp_name;
	user->call.size = (u16)user->fields.size;
	user->call.fields = user->fields.event_fields;
	user->call.print_fmt = user->fields.print_fmt;
	user->call.output = user_event_output;
	user->call.tp = &user->tp;
	user->call.probe = (void *)user_event_probe;
	user->call.reg = user_event_reg;
	user->call.perf_probe = (void *)user_event_perf_probe;
	user->call.perf_reg = user_event_perf_reg;
	user->tp.name = user->tp_name;
	ret = trace_add_event_call(&user->call);
	if (ret)
		goto fail;
	ret = trace_add_event_files(&user->call);
	if (ret) {
		trace_remove_event_files(&user->call);
		trace_remove_event_call(&user->call);
		goto fail;
	}
	list_add_tail(&user->list, &user_events_list);
	user_events_count++;
	user->refcnt = 1;
	return user;
nomem:
	ret = -ENOMEM;
fail:
	user_event_free(user);
	return ERR_PTR(ret);
}

/* The reaper starts with the first registration: init must be pid 1. */
static int user_events_start_reaper(void)
{
	struct task_struct *t;

	if (user_events_reaper_task)
		return 0;
	t = kthread_run(user_events_reaper, NULL, "user_events");
	if (IS_ERR(t))
		return (int)PTR_ERR(t);
	user_events_reaper_task = t;
	return 0;
}

struct user_event *user_event_register(char *cmd, u32 reg_flags)
{
	struct user_event *user;
	char *name, *flags, *args;
	int ret = user_events_start_reaper();

	if (ret)
		return ERR_PTR(ret);

	if (reg_flags & ~(USER_EVENT_REG_MAX - 1))
		return ERR_PTR(-EINVAL);
	user_event_split(cmd, &name, &flags, &args);
	/* no flag words are defined: any is an error, as on Linux */
	if (flags || !*name)
		return ERR_PTR(-EINVAL);
	user_events_reap();
	user = user_event_find(name, args, reg_flags);
	if (IS_ERR(user))
		return user;
	if (user) {
		user_event_get(user);
		return user;
	}
	return user_event_create(name, args, reg_flags);
}

int user_event_delete(const char *name)
{
	struct user_event *user, *tmp;
	int ret = -ENOENT;

	user_events_reap();
	list_for_each_entry_safe(user, tmp, &user_events_list, list) {
		if (strcmp(user->reg_name, name))
			continue;
		if (!user_event_last_ref(user))
			return -EBUSY;
		ret = user_event_destroy(user);
		if (ret)
			return ret;
	}
	return ret;
}

/* --- dynamic_events ------------------------------------------------------------------------ */

/* `!u:NAME fields` or `-:[SYSTEM/]NAME fields`: the event must match name and fields. */
static int user_event_dyn_remove(char *spec)
{
	struct user_event *user, *tmp;
	char *name, *flags, *args, *slash;
	const char *system = NULL;
	bool named = false;
	int ret = -ENOENT;

	user_event_split(spec, &name, &flags, &args);
	slash = strchr(name, '/');
	if (slash) {
		*slash = '\0';
		system = name;
		name = slash + 1;
	}
	user_events_reap();
	list_for_each_entry_safe(user, tmp, &user_events_list, list) {
		if (strcmp(user->reg_name, name))
			continue;
		named = true;
		if (system && strcmp(system, USER_EVENTS_SYSTEM) &&
		    strcmp(system, USER_EVENTS_MULTI_SYSTEM))
			continue;
		if (!user_event_fields_match(&user->fields, args))
			continue;
		if (!user_event_last_ref(user))
			return -EBUSY;
		ret = user_event_destroy(user);
		if (ret)
			return ret;
	}
	return named ? ret : -ECHILD;
}

int user_events_dynevent_write(const char *cmd)
{
	char *copy;
	int ret;

	if (strncmp(cmd, USER_EVENTS_PREFIX, 2) && strncmp(cmd, "!" USER_EVENTS_PREFIX, 3) &&
	    strncmp(cmd, "-:", 2))
		return -ECHILD;
	copy = kstrdup(cmd, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	if (copy[0] == 'u') {
		char *spec = copy + 2;
		struct user_event *user;

		spec += strspn(spec, " ");
		/* made here, an event stays until deleted (Linux registers it PERSIST) */
		user = user_event_register(spec, USER_EVENT_REG_PERSIST);
		ret = IS_ERR(user) ? (int)PTR_ERR(user) : 0;
		if (!ret)
			user_event_put(user);
	} else {
		ret = user_event_dyn_remove(copy + (copy[0] == '!' ? 3 : 2));
		/* `!u:` is ours whatever it names */
		if (ret == -ECHILD && copy[0] == '!')
			ret = -ENOENT;
	}
	kfree(copy);
	return ret;
}

int user_events_dynevent_show(char *buf, size_t size)
{
	struct user_event *user;
	size_t n = 0;

	list_for_each_entry(user, &user_events_list, list) {
		const char *text = user->fields.text;

		n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0,
				      USER_EVENTS_PREFIX "%s%s%s\n", user->reg_name,
				      *text ? " " : "", text);
	}
	return (int)n;
}

int trace_user_events_init(void)
{
	int ret = user_event_enablers_init();

	return ret ? ret : user_events_files_init();
}
