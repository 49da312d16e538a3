/*
 * The function tracer's core: the call sites the build recorded
 * (__mcount_loc), the registered callbacks and the dispatch that runs
 * them, and the patching that turns exactly the wanted sites into calls.
 *
 * Every patched site calls ftrace_caller, which calls
 * ftrace_ops_list_func. With one ops registered, a site calls only
 * because that ops wants it, so the call goes straight to its callback;
 * with several, each ops checks its sets (binary search for the site).
 * Ops are added and removed RCU-sched style: readers are the dispatch,
 * with preemption off; a removed ops is unused after synchronize_rcu().
 * Kernel only: built without call sites of its own (configure).
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/errno.h>
#include <kernel/atomic.h>
#include <kernel/spinlock.h>
#include <kernel/mutex.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/rcu.h>
#include <asm/ftrace.h>
#include <trace/ftrace.h>
#include <trace/ftrace_set.h>
#include <trace/trace_recursion.h>

extern const unsigned long __start_mcount_loc[], __stop_mcount_loc[];

struct dyn_ftrace *ftrace_sites;
unsigned int ftrace_nr_sites;

static struct ftrace_ops *ftrace_ops_list;
/* Set while sites change: the single-ops shortcut then checks the sets too. */
static bool ftrace_updating;
/* Linux's ftrace_lock: sites, ops lists and filter sets change under it (it sleeps while patching). */
static DEFINE_MUTEX(ftrace_mutex);
/* One guard for the whole dispatch: a callback's own calls are not traced. */
DEFINE_PER_CPU(struct trace_recursion, ftrace_recursion);

void ftrace_lock(void)
{
	mutex_lock(&ftrace_mutex);
}

void ftrace_unlock(void)
{
	mutex_unlock(&ftrace_mutex);
}

/*
 * Site index by address: an open-addressed table at most a quarter full,
 * so the dispatch of several ops finds a site in a probe or two where a
 * binary search over every site took eleven steps. Slots hold index + 1
 * (0: empty). Built once: the sites do not change after boot.
 */
static u16 *site_table;
static unsigned int site_table_mask;

static unsigned int site_hash(unsigned long ip)
{
	return (unsigned int)((ip * 0x9e3779b97f4a7c15ul) >> 40) & site_table_mask;
}

static int site_table_init(void)
{
	unsigned int size = 64;

	while (size < 4 * ftrace_nr_sites)
		size *= 2;
	site_table = kcalloc(size, sizeof(*site_table), GFP_KERNEL);
	if (!site_table)
		return -ENOMEM;
	site_table_mask = size - 1;
	for (unsigned int i = 0; i < ftrace_nr_sites; i++) {
		unsigned int h = site_hash(ftrace_sites[i].ip);

		while (site_table[h])
			h = (h + 1) & site_table_mask;
		site_table[h] = (u16)(i + 1);
	}
	return 0;
}

int ftrace_site_index(unsigned long ip)
{
	if (!site_table)
		return -1;
	for (unsigned int h = site_hash(ip); site_table[h]; h = (h + 1) & site_table_mask)
		if (ftrace_sites[site_table[h] - 1].ip == ip)
			return site_table[h] - 1;
	return -1;
}

unsigned long ftrace_location(unsigned long ip)
{
	return ftrace_site_index(ip) >= 0 ? ip : 0;
}

bool ftrace_ops_wants(const struct ftrace_ops *ops, unsigned int idx)
{
	if (ops->sets_of)
		ops = ops->sets_of;
	if (ops->filter.count && !ftrace_set_test(&ops->filter, idx))
		return false;
	return !ftrace_set_test(&ops->notrace_set, idx);
}

/* Called by ftrace_caller (arch/x86_64/ftrace_64.S) from every patched site. */
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip, struct ftrace_regs *fregs)
{
	struct trace_recursion *r;
	struct ftrace_ops *op;
	int idx = -1;

	preempt_count_add(1);
	r = this_cpu_ptr(&ftrace_recursion);
	if (!trace_recursion_lock(r))
		goto out;
	op = rcu_dereference(ftrace_ops_list);
	if (op && !op->next && !READ_ONCE(ftrace_updating)) {
		op->func(ip, parent_ip, op, fregs);
	} else {
		for (; op; op = rcu_dereference(op->next)) {
			if (idx < 0)
				idx = ftrace_site_index(ip);
			if (idx >= 0 && ftrace_ops_wants(op, (unsigned int)idx))
				op->func(ip, parent_ip, op, fregs);
		}
	}
	trace_recursion_unlock(r);
out:
	/* No reschedule from here: the scheduler's own functions are traced. */
	barrier();
	preempt_count_sub(1);
}

int ftrace_ops_init(struct ftrace_ops *ops)
{
	if (ftrace_set_alloc(&ops->filter, ftrace_nr_sites) ||
	    ftrace_set_alloc(&ops->notrace_set, ftrace_nr_sites)) {
		ftrace_ops_free(ops);
		return -ENOMEM;
	}
	return 0;
}

void ftrace_ops_free(struct ftrace_ops *ops)
{
	ftrace_set_free(&ops->filter);
	ftrace_set_free(&ops->notrace_set);
}

/* ips of the sites to turn on and off, ascending (scratch kept between updates). */
static unsigned long *turn_on, *turn_off;

int ftrace_ops_update(void)
{
	unsigned int on = 0, off = 0;

	if (!turn_on)
		return -ENODEV;
	for (unsigned int i = 0; i < ftrace_nr_sites; i++) {
		struct dyn_ftrace *rec = &ftrace_sites[i];
		bool want;

		rec->refs = 0;
		for (struct ftrace_ops *op = ftrace_ops_list; op; op = op->next)
			rec->refs += ftrace_ops_wants(op, i);
		want = rec->refs > 0;
		if (want == !!(rec->flags & FTRACE_FL_ENABLED))
			continue;
		if (want) {
			turn_on[on++] = rec->ip;
			rec->flags |= FTRACE_FL_ENABLED | FTRACE_FL_TOUCHED;
		} else {
			turn_off[off++] = rec->ip;
			rec->flags &= ~FTRACE_FL_ENABLED;
		}
	}
	WRITE_ONCE(ftrace_updating, true);
	ftrace_arch_patch_sites(turn_off, off, false);
	ftrace_arch_patch_sites(turn_on, on, true);
	WRITE_ONCE(ftrace_updating, false);
	return 0;
}

int register_ftrace_function(struct ftrace_ops *ops)
{
	if (ops->registered)
		return -EBUSY;
	ops->next = ftrace_ops_list;
	rcu_assign_pointer(ftrace_ops_list, ops);
	ops->registered = true;
	return ftrace_ops_update();
}

int unregister_ftrace_function(struct ftrace_ops *ops)
{
	struct ftrace_ops **p;
	int ret;

	if (!ops->registered)
		return -EINVAL;
	for (p = &ftrace_ops_list; *p != ops; p = &(*p)->next)
		;
	rcu_assign_pointer(*p, ops->next);
	ops->registered = false;
	ret = ftrace_ops_update();
	/* A CPU may still be inside ops->func, reached through the old list. */
	synchronize_rcu();
	return ret;
}

/* Insertion sort: the linker keeps __mcount_loc nearly in address order. */
static void sort_sites(struct dyn_ftrace *t, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		struct dyn_ftrace x = t[i];
		unsigned int j = i;

		for (; j > 0 && t[j - 1].ip > x.ip; j--)
			t[j] = t[j - 1];
		t[j] = x;
	}
}

int ftrace_init(void)
{
	unsigned int n = (unsigned int)(__stop_mcount_loc - __start_mcount_loc), kept = 0;

	ftrace_sites = kcalloc(n, sizeof(*ftrace_sites), GFP_KERNEL);
	turn_on = kcalloc(n, sizeof(*turn_on), GFP_KERNEL);
	turn_off = kcalloc(n, sizeof(*turn_off), GFP_KERNEL);
	if (!ftrace_sites || !turn_on || !turn_off) {
		kfree(ftrace_sites);
		kfree(turn_on);
		kfree(turn_off);
		ftrace_sites = NULL;
		turn_on = turn_off = NULL;
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned long ip = __start_mcount_loc[i];

		/* Only what holds the NOP now: a site that is not one is never patched. */
		if (ftrace_arch_site_state(ip) == 0)
			ftrace_sites[kept++].ip = ip;
	}
	sort_sites(ftrace_sites, kept);
	ftrace_nr_sites = kept;
	if (kept > 0xffff || site_table_init()) {
		printk(KERN_ERR "ftrace: no table for %u call sites\n", kept);
		ftrace_nr_sites = 0;
		return -ENOMEM;
	}
	printk(KERN_INFO "ftrace: %u call sites (%u recorded)\n", kept, n);
	return 0;
}
