/*
 * Tracepoint probe registration. Each tracepoint holds a NULL-terminated
 * array of probes that call sites walk with preemption disabled. Changes
 * copy the array, publish the copy, flip the static key on the first
 * probe / off after the last, and free the old array only after a grace
 * period (kernel/rcu.h), so a CPU still walking it never runs freed memory.
 */
#include <trace/tracepoint.h>
#include <kernel/slab.h>
#include <kernel/spinlock.h>
#include <kernel/rcu.h>
#include <kernel/string.h>
#include <kernel/errno.h>

static DEFINE_SPINLOCK(tracepoints_lock);

DEFINE_PER_CPU(struct trace_recursion, tracepoint_recursion);

unsigned long tracepoint_recursion_refused(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(&tracepoint_recursion, cpu)->refused);
	return n;
}

static unsigned int probes_count(const struct tracepoint_func *f)
{
	unsigned int n = 0;

	while (f && f[n].func)
		n++;
	return n;
}

/*
 * The new array: old plus (func, data), or old minus it (NULL when that
 * leaves none). *err is set, and NULL returned, when the edit cannot be
 * made: the pair is already there, is not there, or no memory.
 */
static struct tracepoint_func *probes_edit(const struct tracepoint_func *old, void *func,
					   void *data, int prio, bool add, int *err)
{
	bool placed = false;
	unsigned int n = probes_count(old), j = 0, found = n;
	struct tracepoint_func *new;

	for (unsigned int i = 0; i < n; i++)
		if (old[i].func == func && old[i].data == data)
			found = i;
	if (add && found < n) {
		*err = -EEXIST;
		return NULL;
	}
	if (!add && found == n) {
		*err = -ENOENT;
		return NULL;
	}
	*err = 0;
	if (!add && n == 1)
		return NULL;	/* the last probe goes: no array at all */
	new = kmalloc((n + 2) * sizeof(*new), GFP_KERNEL);
	if (!new) {
		*err = -ENOMEM;
		return NULL;
	}
	for (unsigned int i = 0; i < n; i++) {
		/* The new probe goes before the first one of a lower priority. */
		if (add && !placed && old[i].prio < prio) {
			new[j++] = (struct tracepoint_func){ func, data, prio };
			placed = true;
		}
		if (i != found || add)
			new[j++] = old[i];
	}
	if (add && !placed)
		new[j++] = (struct tracepoint_func){ func, data, prio };
	new[j].func = NULL;
	return new;
}

static int tracepoint_update(struct tracepoint *tp, void *func, void *data, int prio, bool add)
{
	struct tracepoint_func *old, *new;
	int err;

	spin_lock(&tracepoints_lock);
	old = tp->funcs;
	new = probes_edit(old, func, data, prio, add, &err);
	if (err) {
		spin_unlock(&tracepoints_lock);
		return err;
	}
	if (add && !old) {
		rcu_assign_pointer(tp->funcs, new);
		static_key_slow_inc(&tp->key.key);
		if (tp->site_key)
			static_key_slow_inc(tp->site_key);
	} else if (!new) {
		if (tp->site_key)
			static_key_slow_dec(tp->site_key);
		static_key_slow_dec(&tp->key.key);
		rcu_assign_pointer(tp->funcs, new);
	} else {
		rcu_assign_pointer(tp->funcs, new);
	}
	spin_unlock(&tracepoints_lock);
	if (old) {
		synchronize_rcu();
		kfree(old);
	}
	return 0;
}

int tracepoint_probe_register_prio(struct tracepoint *tp, void *probe, void *data, int prio)
{
	if (!tp || !probe)
		return -EINVAL;
	return tracepoint_update(tp, probe, data, prio, true);
}

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data, TRACEPOINT_DEFAULT_PRIO);
}

int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data)
{
	return tracepoint_update(tp, probe, data, 0, false);
}
