/*
 * High-resolution timers on the local APIC timer in one-shot mode. Each
 * CPU's base keeps its armed timers sorted by expiry (linear insertion:
 * a CPU has the tick and a few perf clocks, not thousands), and after any
 * change to the head the APIC timer is programmed for the new first
 * expiry. hrtimer_interrupt runs every expired timer with the base
 * unlocked, so a function may arm or cancel timers, and re-queues the
 * ones that asked for HRTIMER_RESTART.
 *
 * A timer moves between bases only while it is neither running nor
 * armed elsewhere: its base pointer is then hrtimer_migrating, which
 * lock_base waits out, so one lock at a time is ever held.
 */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/hrtimer.h>
#include <asm/apic.h>
#include <kernel/printk.h>
#include <trace/events/timer.h>

struct hrtimer_cpu_base {
	spinlock_t lock;
	struct list_head queue;		/* armed timers, by expires */
	struct hrtimer *running;	/* whose function runs right now */
};

static DEFINE_PER_CPU(struct hrtimer_cpu_base, hrtimer_bases);
static DEFINE_PER_CPU(struct pt_regs *, irq_regs);
/* The base of a timer between two bases. */
static struct hrtimer_cpu_base hrtimer_migrating;

struct pt_regs *get_irq_regs(void)
{
	return this_cpu_read(irq_regs);
}

struct pt_regs *set_irq_regs(struct pt_regs *regs)
{
	struct pt_regs *old = this_cpu_read(irq_regs);

	this_cpu_write(irq_regs, regs);
	return old;
}

void hrtimer_init(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *t))
{
	INIT_LIST_HEAD(&t->node);
	t->function = fn;
	t->base = NULL;
}

/* Lock the base t is on (NULL: never armed), waiting out a move; irqs off. */
static struct hrtimer_cpu_base *lock_base(struct hrtimer *t)
{
	for (;;) {
		struct hrtimer_cpu_base *b = READ_ONCE(t->base);

		if (!b)
			return NULL;
		if (b != &hrtimer_migrating) {
			spin_lock(&b->lock);
			if (READ_ONCE(t->base) == b)
				return b;
			spin_unlock(&b->lock);
		}
		cpu_relax();
	}
}

/* Program this CPU's APIC timer for its first expiry (base locked, irqs off). */
static void program_next(struct hrtimer_cpu_base *b)
{
	struct hrtimer *first = list_first_entry_or_null(&b->queue, struct hrtimer, node);
	u64 now;

	if (!first)
		return;
	now = ktime_get_ns();
	lapic_timer_oneshot_ns(first->expires > now ? first->expires - now : 0);
}

/* Insert t by expiry; true if it became the first. */
static bool enqueue(struct hrtimer_cpu_base *b, struct hrtimer *t)
{
	struct list_head *pos;

	for (pos = b->queue.prev; pos != &b->queue; pos = pos->prev)
		if (t->expires >= list_entry(pos, struct hrtimer, node)->expires)
			break;
	__list_add(&t->node, pos, pos->next);
	return b->queue.next == &t->node;
}

void hrtimer_start_on(struct hrtimer *t, u64 expires, int cpu)
{
	struct hrtimer_cpu_base *b, *to = per_cpu_ptr(&hrtimer_bases, cpu), *here;
	unsigned long flags;

	local_irq_save(flags);
	here = this_cpu_ptr(&hrtimer_bases);
	b = lock_base(t);
	if (b) {
		list_del_init(&t->node);
		/* running elsewhere: stay there, its interrupt reprograms after the function */
		if (b != to && b->running != t) {
			WRITE_ONCE(t->base, &hrtimer_migrating);
			spin_unlock(&b->lock);
			b = NULL;
		}
	}
	if (!b) {
		b = to;
		spin_lock(&b->lock);
		WRITE_ONCE(t->base, b);
	}
	t->expires = expires;
	/* another CPU's next interrupt (its tick at the latest) programs its first expiry */
	if (enqueue(b, t) && b == here)
		program_next(b);
	spin_unlock(&b->lock);
	local_irq_restore(flags);
}

void hrtimer_start(struct hrtimer *t, u64 expires)
{
	hrtimer_start_on(t, expires, smp_processor_id());
}

int hrtimer_try_to_cancel(struct hrtimer *t)
{
	struct hrtimer_cpu_base *b;
	unsigned long flags;
	int ret = 0;

	local_irq_save(flags);
	b = lock_base(t);
	if (!b) {
		local_irq_restore(flags);
		return 0;
	}
	if (hrtimer_is_queued(t)) {
		/* the APIC may still fire for it: the interrupt then finds nothing due */
		list_del_init(&t->node);
		ret = 1;
	} else if (b->running == t) {
		ret = -1;
	}
	spin_unlock(&b->lock);
	local_irq_restore(flags);
	return ret;
}

int hrtimer_cancel(struct hrtimer *t)
{
	int ret;

	while ((ret = hrtimer_try_to_cancel(t)) < 0)
		cpu_relax();
	return ret;
}

s64 hrtimer_get_remaining(const struct hrtimer *t)
{
	return (s64)(READ_ONCE(t->expires) - ktime_get_ns());
}

u64 hrtimer_forward(struct hrtimer *t, u64 now, u64 interval)
{
	u64 n;

	if (now < t->expires)
		return 0;
	n = (now - t->expires) / interval + 1;
	t->expires += n * interval;
	return n;
}

void hrtimer_interrupt(void)
{
	struct hrtimer_cpu_base *b = this_cpu_ptr(&hrtimer_bases);
	struct hrtimer *t;

	spin_lock(&b->lock);
	while ((t = list_first_entry_or_null(&b->queue, struct hrtimer, node)) &&
	       t->expires <= ktime_get_ns()) {
		enum hrtimer_restart r;

		list_del_init(&t->node);
		WRITE_ONCE(b->running, t);
		spin_unlock(&b->lock);
		trace_hrtimer_expire_entry(t, (s64)ktime_get_ns(), (void *)t->function);
		r = t->function(t);
		spin_lock(&b->lock);
		WRITE_ONCE(b->running, NULL);
		/* unless the function, or another CPU, armed it again meanwhile */
		if (r == HRTIMER_RESTART && !hrtimer_is_queued(t) && t->base == b)
			enqueue(b, t);
	}
	program_next(b);
	spin_unlock(&b->lock);
}

/* This CPU's queue and APIC timer in one line, read without the lock (see timers_show_cpu). */
void hrtimers_show_cpu(void)
{
	struct hrtimer_cpu_base *b = this_cpu_ptr(&hrtimer_bases);
	struct hrtimer *first = list_first_entry_or_null(&b->queue, struct hrtimer, node);
	unsigned int n = list_count_nodes_max(&b->queue, 1000);

	printk(KERN_INFO "CPU %d hrtimers: %u armed, first in %lld us (%ps), running %ps, APIC count %u\n",
	       smp_processor_id(), n, first ? (long long)(first->expires - ktime_get_ns()) / 1000 : 0,
	       first ? (void *)first->function : NULL,
	       b->running ? (void *)b->running->function : NULL, lapic_timer_current());
}

void hrtimers_start_cpu(void)
{
	struct hrtimer_cpu_base *b = this_cpu_ptr(&hrtimer_bases);

	spin_lock_init(&b->lock);
	INIT_LIST_HEAD(&b->queue);
	b->running = NULL;
	lapic_timer_oneshot_init();
}
