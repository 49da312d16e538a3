/*
 * perf event lifecycle: allocation, hooks (the copy-on-write arrays hits
 * walk), enable/disable with time accounting, counts including inherited
 * children, read_format values, and reclaim after a grace period.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/rcu.h>
#include <kernel/sched.h>
#include <trace/trace_filter.h>
#include <trace/perf_event.h>

DEFINE_SPINLOCK(perf_lock);
static atomic64_t perf_next_id = ATOMIC_INIT(0);

/*
 * A hook array with its reclaim link in front: hits hold a pointer to
 * ev[], so a replaced array is freed only after every CPU has passed a
 * quiescent state.
 */
struct hook_array {
	struct list_head reclaim_node;
	struct perf_event *ev[];
};

static LIST_HEAD(reclaim_arrays);
static LIST_HEAD(reclaim_events);
static LIST_HEAD(reclaim_buffers);

struct perf_event *perf_event_alloc(const struct perf_event_attr *attr, int cpu,
				    struct task_struct *task, struct perf_event *group_leader,
				    struct perf_event *parent)
{
	struct perf_event *event = kzalloc(sizeof(*event), parent ? GFP_ATOMIC : GFP_KERNEL);

	if (!event)
		return NULL;
	event->attr = *attr;
	event->id = (u64)atomic64_add_return(&perf_next_id, 1);
	event->cpu = cpu;
	event->task = task;
	if (task)
		get_task_struct(task);
	event->group_leader = group_leader ? group_leader : event;
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->reclaim_node);
	atomic_set(&event->refcount, 1);
	hrtimer_init(&event->hrtimer, perf_clock_hrtimer);	/* armed by clock events only */
	event->state = PERF_EVENT_STATE_OFF;
	if (!(attr->flags & PERF_ATTR_FLAG_FREQ))
		event->sample_period = attr->sample_period;
	else if (attr->sample_freq)
		event->sample_period = 1;	/* adapted as samples come (perf_output_event.c) */
	atomic64_set(&event->period_left, (long)event->sample_period);
	if (parent) {
		event->parent = parent;
		perf_event_get(parent);	/* its ring and filter are the ones used */
	}
	return event;
}

void perf_event_get(struct perf_event *event)
{
	atomic_inc(&event->refcount);
}

void perf_event_put(struct perf_event *event)
{
	if (!atomic_dec_and_test(&event->refcount))
		return;
	/* dead, its timer stops at its next expiry; one running on another CPU is waited for */
	hrtimer_cancel(&event->hrtimer);
	if (event->filter)
		filter_free(event->filter);
	if (event->rb)
		perf_buffer_put(event->rb);
	if (event->task)
		put_task_struct(event->task);
	if (event->parent)
		perf_event_put(event->parent);
	kfree(event);
}

static struct hook_array *hook_array_of(struct perf_event **ev)
{
	return container_of((void *)ev, struct hook_array, ev);
}

/* Replace hook's array by one with event added (add) or removed; perf_lock held. */
static int hook_replace(struct perf_hook *hook, struct perf_event *event, bool add, gfp_t gfp)
{
	unsigned int nr = hook->nr + (add ? 1 : 0), n = 0;
	struct hook_array *na = NULL;
	struct perf_event **old = hook->events;

	if (nr - (add ? 0 : 1)) {
		na = kmalloc(sizeof(*na) + (nr + 1) * sizeof(na->ev[0]), gfp);
		if (!na)
			return -ENOMEM;
		for (unsigned int i = 0; old && old[i]; i++)
			if (old[i] != event)
				na->ev[n++] = old[i];
		if (add)
			na->ev[n++] = event;
		na->ev[n] = NULL;
	}
	rcu_assign_pointer(hook->events, na ? na->ev : NULL);
	hook->nr = n;
	if (old)
		list_add_tail(&hook_array_of(old)->reclaim_node, &reclaim_arrays);
	return 0;
}

int perf_hook_add(struct perf_hook *hook, struct perf_event *event, gfp_t gfp)
{
	return hook_replace(hook, event, true, gfp);
}

/*
 * The event is marked dead first, which every hit checks: if there is no
 * memory for the smaller array, it stays in the old one, harmless.
 */
void perf_hook_del(struct perf_hook *hook, struct perf_event *event)
{
	WRITE_ONCE(event->state, PERF_EVENT_STATE_DEAD);
	hook_replace(hook, event, false, GFP_ATOMIC);
}

void perf_event_put_deferred(struct perf_event *event)
{
	list_add_tail(&event->reclaim_node, &reclaim_events);
}

int perf_event_attach(struct perf_event *event, struct perf_hook *hook)
{
	unsigned long flags;
	int err = 0;

	if (!hook->nr && hook->attach) {
		err = hook->attach(hook);
		if (err)
			return err;
	}
	spin_lock_irqsave(&perf_lock, flags);
	err = perf_hook_add(hook, event, GFP_ATOMIC);
	if (!err)
		event->hook = hook;
	spin_unlock_irqrestore(&perf_lock, flags);
	if (err && !hook->nr && hook->detach)
		hook->detach(hook);
	return err;
}

void perf_reclaim(void)
{
	LIST_HEAD(arrays);
	LIST_HEAD(events);
	LIST_HEAD(buffers);
	struct perf_buffer *b, *bn;
	struct hook_array *a, *an;
	struct perf_event *e, *en;
	unsigned long flags;

	spin_lock_irqsave(&perf_lock, flags);
	while (!list_empty(&reclaim_arrays))
		list_move_tail(reclaim_arrays.next, &arrays);
	while (!list_empty(&reclaim_events))
		list_move_tail(reclaim_events.next, &events);
	while (!list_empty(&reclaim_buffers))
		list_move_tail(reclaim_buffers.next, &buffers);
	spin_unlock_irqrestore(&perf_lock, flags);
	if (list_empty(&arrays) && list_empty(&events) && list_empty(&buffers))
		return;
	synchronize_rcu();
	list_for_each_entry_safe(a, an, &arrays, reclaim_node)
		kfree(a);
	list_for_each_entry_safe(e, en, &events, reclaim_node) {
		list_del_init(&e->reclaim_node);
		perf_event_put(e);
	}
	/* events put above may have queued their buffers: those wait for the next round */
	list_for_each_entry_safe(b, bn, &buffers, reclaim_node)
		perf_buffer_free(b);
}

void perf_buffer_put(struct perf_buffer *rb)
{
	unsigned long flags;

	if (!atomic_dec_and_test(&rb->refcount))
		return;
	spin_lock_irqsave(&perf_lock, flags);
	list_add_tail(&rb->reclaim_node, &reclaim_buffers);
	spin_unlock_irqrestore(&perf_lock, flags);
}

void perf_group_detach(struct perf_event *event)
{
	struct perf_event *sib, *sn;

	if (event->group_leader != event) {
		list_del_init(&event->sibling_list);
		event->group_leader->nr_siblings--;
		event->group_leader = event;
		return;
	}
	/* siblings of a closed leader go on alone, as Linux's become singletons */
	list_for_each_entry_safe(sib, sn, &event->sibling_list, sibling_list) {
		list_del_init(&sib->sibling_list);
		sib->group_leader = sib;
	}
	event->nr_siblings = 0;
}

void perf_event_release(struct perf_event *event)
{
	struct perf_hook *hook = event->hook;
	struct perf_event *child, *cn;
	unsigned long flags;

	spin_lock_irqsave(&perf_lock, flags);
	event->state = PERF_EVENT_STATE_DEAD;
	list_for_each_entry_safe(child, cn, &event->child_list, child_list) {
		list_del_init(&child->child_list);
		perf_group_detach(child);
		perf_event_unhook(child);
		perf_event_put_deferred(child);
	}
	perf_group_detach(event);
	perf_event_unhook(event);
	perf_event_put_deferred(event);
	spin_unlock_irqrestore(&perf_lock, flags);
	/* the owner's reference went with the deferred put: event may be gone now */
	perf_reclaim();
	if (hook && !hook->nr && hook->detach)
		hook->detach(hook);
}

void perf_event_enable(struct perf_event *event)
{
	if (event->state != PERF_EVENT_STATE_OFF)
		return;
	event->tstamp = perf_event_clock(event);
	event->clock_base = event->tstamp;
	WRITE_ONCE(event->state, PERF_EVENT_STATE_ACTIVE);
	if (perf_event_is_clock(event))
		perf_clock_start(event);
}

void perf_event_disable(struct perf_event *event)
{
	u64 now;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	WRITE_ONCE(event->state, PERF_EVENT_STATE_OFF);
	now = perf_event_clock(event);
	event->total_time += now - event->tstamp;
	if (perf_event_is_clock(event)) {
		atomic64_add(&event->count, (long)(now - event->clock_base));
		perf_clock_stop(event);
	}
}

u64 perf_event_time(struct perf_event *event)
{
	u64 t = event->total_time;

	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE)
		t += perf_event_clock(event) - event->tstamp;
	return t;
}

/* The event's own count, no child's. */
static u64 perf_event_count_self(struct perf_event *event)
{
	u64 n = (u64)atomic64_read(&event->count);

	if (perf_event_is_clock(event) && READ_ONCE(event->state) == PERF_EVENT_STATE_ACTIVE)
		n += perf_event_clock(event) - event->clock_base;
	return n;
}

u64 perf_event_count(struct perf_event *event)
{
	u64 n = perf_event_count_self(event) + event->child_count;
	struct perf_event *child;
	unsigned long flags;

	spin_lock_irqsave(&perf_lock, flags);
	list_for_each_entry(child, &event->child_list, child_list)
		n += (u64)atomic64_read(&child->count);
	spin_unlock_irqrestore(&perf_lock, flags);
	return n;
}

static u64 count_of(struct perf_event *event, bool self)
{
	return self ? perf_event_count_self(event) : perf_event_count(event);
}

/* [id] [lost] of one event, as read_format wants them after its value. */
static unsigned int put_id_lost(struct perf_event *event, u64 fmt, u64 *out)
{
	unsigned int n = 0;

	if (fmt & PERF_FORMAT_ID)
		out[n++] = event->parent ? event->parent->id : event->id;	/* a child: its parent's */
	if (fmt & PERF_FORMAT_LOST)
		out[n++] = (u64)atomic64_read(&event->lost_samples);
	return n;
}

/* [enabled] [running] */
static unsigned int put_times(struct perf_event *event, u64 fmt, u64 *out)
{
	unsigned int n = 0;

	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = perf_event_time(event);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = perf_event_time(event);
	return n;
}

unsigned int perf_event_read_size(struct perf_event *event)
{
	u64 fmt = event->attr.read_format;
	unsigned int per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	unsigned int times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (fmt & PERF_FORMAT_GROUP)
		return 1 + times + per * (event->group_leader->nr_siblings + 1);
	return times + per;
}

/*
 * Without GROUP: value [enabled] [running] [id] [lost]. With GROUP, for
 * the leader and each sibling: nr [enabled] [running] {value [id] [lost]}.
 */
unsigned int perf_event_read_values(struct perf_event *event, bool self, u64 *out)
{
	u64 fmt = event->attr.read_format;
	struct perf_event *leader = event->group_leader, *sib;
	unsigned int n = 0;

	if (!(fmt & PERF_FORMAT_GROUP)) {
		out[n++] = count_of(event, self);
		n += put_times(event, fmt, out + n);
		return n + put_id_lost(event, fmt, out + n);
	}
	out[n++] = leader->nr_siblings + 1;
	n += put_times(leader, fmt, out + n);
	out[n++] = count_of(leader, self);
	n += put_id_lost(leader, fmt, out + n);
	list_for_each_entry(sib, &leader->sibling_list, sibling_list) {
		out[n++] = count_of(sib, self);
		n += put_id_lost(sib, fmt, out + n);
	}
	return n;
}

void perf_event_unhook(struct perf_event *event)
{
	if (event->hook)
		perf_hook_del(event->hook, event);
	perf_task_untrack(event);
}
