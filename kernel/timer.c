/*
 * Jiffies timers. Each CPU has a base: a list of pending timers sorted by
 * expiry, checked by the tick, run by the TIMER softirq. Sorted insertion
 * is linear, which is fine for the handful of sleepers a test kernel has.
 */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/interrupt.h>
#include <kernel/printk.h>

struct timer_base {
	spinlock_t lock;
	struct list_head pending;	/* sorted by expires */
	struct timer_list *running;	/* whose function runs right now */
};

static DEFINE_PER_CPU(struct timer_base, timer_bases);

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *t))
{
	INIT_LIST_HEAD(&t->entry);
	t->function = fn;
	t->base = NULL;
}

/* Locks the base t is on; retries if t moved while we waited for the lock. */
static struct timer_base *lock_timer_base(struct timer_list *t, unsigned long *flags)
{
	for (;;) {
		struct timer_base *b = READ_ONCE(t->base);

		if (!b)
			return NULL;
		spin_lock_irqsave(&b->lock, *flags);
		if (READ_ONCE(t->base) == b)
			return b;
		spin_unlock_irqrestore(&b->lock, *flags);
	}
}

int del_timer(struct timer_list *t)
{
	unsigned long flags;
	struct timer_base *b = lock_timer_base(t, &flags);
	int was = 0;

	if (!b)
		return 0;
	if (timer_pending(t)) {
		list_del_init(&t->entry);
		was = 1;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return was;
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	struct timer_base *b;
	struct list_head *pos;
	unsigned long flags;
	int was = del_timer(t);

	local_irq_save(flags);
	b = this_cpu_ptr(&timer_bases);
	spin_lock(&b->lock);
	t->expires = expires;
	WRITE_ONCE(t->base, b);
	for (pos = b->pending.prev; pos != &b->pending; pos = pos->prev)
		if (time_after_eq(expires, list_entry(pos, struct timer_list, entry)->expires))
			break;
	__list_add(&t->entry, pos, pos->next);
	spin_unlock(&b->lock);
	local_irq_restore(flags);
	return was;
}

int del_timer_sync(struct timer_list *t)
{
	int was = del_timer(t);
	struct timer_base *b = READ_ONCE(t->base);

	while (b && READ_ONCE(b->running) == t)
		cpu_relax();
	return was;
}

static bool timer_expired(struct timer_base *b)
{
	struct timer_list *t = list_first_entry_or_null(&b->pending, struct timer_list, entry);

	return t && time_after_eq(jiffies, t->expires);
}

void run_local_timers(void)
{
	if (timer_expired(this_cpu_ptr(&timer_bases)))
		raise_softirq(TIMER_SOFTIRQ);
}

static void run_timer_softirq(void)
{
	struct timer_base *b = this_cpu_ptr(&timer_bases);
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	while (timer_expired(b)) {
		struct timer_list *t = list_first_entry(&b->pending, struct timer_list, entry);

		list_del_init(&t->entry);
		WRITE_ONCE(b->running, t);
		spin_unlock_irqrestore(&b->lock, flags);
		t->function(t);
		spin_lock_irqsave(&b->lock, flags);
		WRITE_ONCE(b->running, NULL);
	}
	spin_unlock_irqrestore(&b->lock, flags);
}

/*
 * This CPU's base in one line: what a hang report (an unclaimed NMI) needs
 * to tell a timer that never fired from a wake-up that was lost. Read
 * without the lock, which the interrupted code may hold.
 */
void timers_show_cpu(void)
{
	struct timer_base *b = this_cpu_ptr(&timer_bases);
	struct timer_list *first = list_first_entry_or_null(&b->pending, struct timer_list, entry);
	unsigned int n = list_count_nodes_max(&b->pending, 1000);

	printk(KERN_INFO "CPU %d timers: jiffies %lu, %u pending, first %+ld (%ps), softirqs pending %#x\n",
	       smp_processor_id(), jiffies, n, first ? (long)(first->expires - jiffies) : 0,
	       first ? (void *)first->function : NULL, local_softirq_pending());
}

void init_timers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct timer_base *b = per_cpu_ptr(&timer_bases, cpu);

		spin_lock_init(&b->lock);
		INIT_LIST_HEAD(&b->pending);
		b->running = NULL;
	}
	open_softirq(TIMER_SOFTIRQ, run_timer_softirq);
}
