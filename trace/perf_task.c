/*
 * What perf follows of tasks: inherit (a fork copies the parent's
 * inheriting events to the child; the child's exit folds its count into
 * the parent's), enable_on_exec, and the side-band records perf's tools
 * need to name what they sampled: PERF_RECORD_COMM (exec), FORK, EXIT
 * and MMAP (executable mappings, or all with mmap_data).
 *
 * Events that want any of this are in one hook, task_hook; its probes
 * sit on sched_process_fork/exec/exit and the mm observers from the
 * first such event on. A record goes to an event when the task is the
 * event's (or the event is per-CPU and this is its CPU), as Linux sends
 * them to the task's and the CPU's events.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <kernel/mman.h>
#include <kernel/mm.h>
#include <kernel/rcu.h>
#include <kernel/time.h>
#include <kernel/fs/fs.h>
#include <trace/perf_event.h>
#include <trace/perf_recursion.h>
#include <trace/events/sched.h>

static struct perf_hook task_hook;
static bool task_probes_on;

#define TRACK_FLAGS	(PERF_ATTR_FLAG_INHERIT | PERF_ATTR_FLAG_ENABLE_ON_EXEC | \
			 PERF_ATTR_FLAG_COMM | PERF_ATTR_FLAG_MMAP | PERF_ATTR_FLAG_TASK)

/* Records of tasks go to events following task, or per-CPU ones here. */
static bool wants_record(const struct perf_event *e, const struct task_struct *task, u64 flag)
{
	if (!(e->attr.flags & flag) || READ_ONCE(e->state) == PERF_EVENT_STATE_DEAD)
		return false;
	if (e->cpu >= 0 && e->cpu != smp_processor_id())
		return false;
	return !e->task || e->task == task;
}

/* FORK and EXIT share a body. */
struct perf_task_body {
	u32 pid, ppid, tid, ptid;
	u64 time;
};

static void task_record(u32 type, struct task_struct *p, struct task_struct *parent)
{
	struct perf_event_header hdr = { .type = type };
	struct perf_task_body b = {
		.pid = (u32)p->tgid, .ppid = parent ? (u32)parent->tgid : 0,
		.tid = (u32)p->pid, .ptid = parent ? (u32)parent->pid : 0,
		.time = ktime_get_ns(),
	};
	struct perf_event **ev;

	for (ev = rcu_dereference(task_hook.events); ev && *ev; ev++)
		if (wants_record(*ev, type == PERF_RECORD_FORK ? parent : p, PERF_ATTR_FLAG_TASK |
				 PERF_ATTR_FLAG_COMM | PERF_ATTR_FLAG_MMAP))
			perf_event_output_record(*ev, &hdr, &b, sizeof(b), p);
}

/* A copy of parent's event e for child, counting into e's root, in leader's group. */
static struct perf_event *inherit_event(struct perf_event *e, struct task_struct *child,
					struct perf_event *leader)
{
	struct perf_event *root = e->parent ? e->parent : e;
	struct perf_event *c = perf_event_alloc(&root->attr, e->cpu, child, leader, root);

	if (!c)
		return NULL;
	if (e->hook && perf_hook_add(e->hook, c, GFP_ATOMIC))
		goto fail;
	c->hook = e->hook;
	if (perf_hook_add(&task_hook, c, GFP_ATOMIC)) {
		if (c->hook)
			perf_hook_del(c->hook, c);
		goto fail;
	}
	c->tracked = true;
	list_add_tail(&c->child_list, &root->child_list);
	if (leader) {
		list_add_tail(&c->sibling_list, &leader->sibling_list);
		leader->nr_siblings++;
	}
	if (READ_ONCE(e->state) == PERF_EVENT_STATE_ACTIVE)
		perf_event_enable(c);
	return c;
fail:
	perf_event_put_deferred(c);
	return NULL;
}

/* The child gets its own copy of the group: its reads and samples see that group. */
static void inherit_group(struct perf_event *leader, struct task_struct *child)
{
	struct perf_event *c = inherit_event(leader, child, NULL), *sib;

	list_for_each_entry(sib, &leader->sibling_list, sibling_list)
		if (c && READ_ONCE(sib->state) != PERF_EVENT_STATE_DEAD)
			inherit_event(sib, child, c);
}

static void probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	struct perf_event **ev;
	unsigned long flags;

	spin_lock_irqsave(&perf_lock, flags);
	for (ev = task_hook.events; ev && *ev; ev++) {
		struct perf_event *e = *ev;

		/* a group goes with its leader (Linux inherits groups whose leader inherits) */
		if ((e->attr.flags & PERF_ATTR_FLAG_INHERIT) && e->task == parent &&
		    e->group_leader == e && READ_ONCE(e->state) != PERF_EVENT_STATE_DEAD)
			inherit_group(e, child);
	}
	spin_unlock_irqrestore(&perf_lock, flags);
	if (perf_recursion_enter() < 0)
		return;
	task_record(PERF_RECORD_FORK, child, parent);
	perf_recursion_exit();
}

/* PERF_RECORD_COMM: pid, tid, the name NUL-terminated and padded to 8 bytes. */
static void comm_record(struct task_struct *p, bool exec)
{
	struct {
		u32 pid, tid;
		char comm[TASK_COMM_LEN];
	} b = { .pid = (u32)p->tgid, .tid = (u32)p->pid };
	struct perf_event_header hdr = { .type = PERF_RECORD_COMM };
	u32 size = 8 + (((u32)strlen(p->comm) + 1 + 7) & ~7u);
	struct perf_event **ev;

	strscpy(b.comm, p->comm, sizeof(b.comm));
	for (ev = rcu_dereference(task_hook.events); ev && *ev; ev++) {
		if (!wants_record(*ev, p, PERF_ATTR_FLAG_COMM))
			continue;
		hdr.misc = exec && ((*ev)->attr.flags & PERF_ATTR_FLAG_COMM_EXEC) ?
			   PERF_RECORD_MISC_COMM_EXEC : 0;
		perf_event_output_record(*ev, &hdr, &b, size, p);
	}
}

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid, const char *filename)
{
	struct perf_event **ev;
	unsigned long flags;

	spin_lock_irqsave(&perf_lock, flags);
	for (ev = task_hook.events; ev && *ev; ev++)
		if (((*ev)->attr.flags & PERF_ATTR_FLAG_ENABLE_ON_EXEC) && (*ev)->task == p)
			perf_event_enable(*ev);
	spin_unlock_irqrestore(&perf_lock, flags);
	if (perf_recursion_enter() < 0)
		return;
	comm_record(p, true);
	perf_recursion_exit();
}

/* The child's events end with it: counts fold into the parent's event. */
static void probe_exit(void *data, struct task_struct *p, bool group_dead)
{
	struct perf_event **ev;
	unsigned long flags;

	if (perf_recursion_enter() >= 0) {
		task_record(PERF_RECORD_EXIT, p, p->parent);
		perf_recursion_exit();
	}
	spin_lock_irqsave(&perf_lock, flags);
restart:
	for (ev = task_hook.events; ev && *ev; ev++) {
		struct perf_event *c = *ev;

		if (!c->parent || c->task != p || c->state == PERF_EVENT_STATE_DEAD)
			continue;
		perf_event_disable(c);
		c->parent->child_count += (u64)atomic64_read(&c->count);
		atomic64_add(&c->parent->lost_samples, atomic64_read(&c->lost_samples));
		list_del_init(&c->child_list);
		perf_group_detach(c);
		perf_event_unhook(c);
		perf_event_put_deferred(c);
		goto restart;	/* the array was just replaced */
	}
	spin_unlock_irqrestore(&perf_lock, flags);
}

/* PERF_RECORD_MMAP: pid, tid, addr, len, pgoff, filename padded to 8 bytes. */
static void mmap_notify(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct {
		u32 pid, tid;
		u64 addr, len, pgoff;
		char name[256];
	} b;
	struct perf_event_header hdr = { .type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_USER };
	struct task_struct *p = current;
	struct dentry *d = vma->file ? vma->file->f_dentry : NULL;
	struct perf_event **ev;
	u32 len;

	if (!task_hook.nr || p->mm != mm)
		return;
	memset(&b, 0, sizeof(b));
	b.pid = (u32)p->tgid;
	b.tid = (u32)p->pid;
	b.addr = vma->start;
	b.len = vma->end - vma->start;
	b.pgoff = (u64)vma->pgoff << PAGE_SHIFT;
	if (!d || d_path(d, b.name, sizeof(b.name)) < 0)
		strscpy(b.name, vma->flags & VM_HEAP ? "[heap]" : vma->flags & VM_STACK ?
			"[stack]" : "//anon", sizeof(b.name));
	len = (u32)strlen(b.name) + 1;
	preempt_disable();
	if (perf_recursion_enter() >= 0) {
		for (ev = rcu_dereference(task_hook.events); ev && *ev; ev++) {
			bool data_too = (*ev)->attr.flags & PERF_ATTR_FLAG_MMAP_DATA;

			if (wants_record(*ev, p, PERF_ATTR_FLAG_MMAP) &&
			    ((vma->flags & VM_EXEC) || data_too))
				perf_event_output_record(*ev, &hdr, &b, 32 + ((len + 7) & ~7u), p);
		}
		perf_recursion_exit();
	}
	preempt_enable();
}

static struct mm_callbacks perf_mm_callbacks = { .mmap = mmap_notify };

static int task_probes_register(void)
{
	int err = register_trace_sched_process_fork(probe_fork, NULL);

	if (!err)
		err = register_trace_sched_process_exec(probe_exec, NULL);
	if (!err)
		/* After every other probe: the child's own exit event still counts in its events. */
		err = register_trace_prio_sched_process_exit(probe_exit, NULL, 0);
	if (err)
		return err;
	register_mm_callbacks(&perf_mm_callbacks);
	task_probes_on = true;
	return 0;
}

int perf_task_track(struct perf_event *event)
{
	unsigned long flags;
	int err;

	if (!(event->attr.flags & TRACK_FLAGS))
		return 0;
	if (!READ_ONCE(task_probes_on)) {
		err = task_probes_register();
		if (err)
			return err;
	}
	spin_lock_irqsave(&perf_lock, flags);
	err = perf_hook_add(&task_hook, event, GFP_ATOMIC);
	event->tracked = !err;
	spin_unlock_irqrestore(&perf_lock, flags);
	return err;
}

void perf_task_untrack(struct perf_event *event)
{
	if (event->tracked)
		perf_hook_del(&task_hook, event);
	event->tracked = false;
}
