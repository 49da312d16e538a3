/*
 * Waking readers blocked in trace_pipe and trace_pipe_raw.
 *
 * A writer cannot wake anyone itself: a probe may run with the
 * scheduler's locks held (sched_switch, sched_waking) or in NMI context,
 * where taking a wait queue's or run queue's lock can deadlock. Linux
 * defers the wake-up to irq_work. Spoor defers it to the tick: while any
 * reader sleeps, a timer runs every jiffy (TIMER softirq, no tracing
 * locks held), asks each sleeper whether it can go on, and wakes them if
 * one can. A record reaches a blocked reader within a tick (1 ms at
 * HZ=1000) and writers pay nothing, waiting or not.
 *
 * Every mod_timer of the one timer happens under waiters_lock, so the
 * reader arming it and the timer re-arming itself never race. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/errno.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <trace/trace.h>

/* One sleeping reader: what it waits for. On its own stack while it sleeps. */
struct trace_waiter {
	struct list_head list;
	bool (*ready)(void *arg);
	void *arg;
};

static DEFINE_SPINLOCK(waiters_lock);
static LIST_HEAD(waiters);
static DECLARE_WAIT_QUEUE_HEAD(trace_readers_wait);
static struct timer_list trace_wait_timer;
static bool trace_wait_timer_ready;

static void trace_wait_tick(struct timer_list *t)
{
	struct trace_waiter *w;
	unsigned long flags;
	bool wake = false;

	spin_lock_irqsave(&waiters_lock, flags);
	list_for_each_entry(w, &waiters, list)
		wake |= w->ready(w->arg);
	if (!list_empty(&waiters))
		mod_timer(t, jiffies + 1);
	spin_unlock_irqrestore(&waiters_lock, flags);
	if (wake)
		wake_up_all(&trace_readers_wait);
}

int trace_wait_for(bool (*ready)(void *arg), void *arg)
{
	struct trace_waiter w = { .ready = ready, .arg = arg };
	unsigned long flags;
	int ret;

	/*
	 * A pending signal ends the wait even when ready() is already true: a
	 * caller whose ready() and read disagree (a page the writer is still
	 * committing) loops back here, and must not spin deaf to kill.
	 */
	if (signal_pending(current))
		return -EINTR;
	spin_lock_irqsave(&waiters_lock, flags);
	if (!trace_wait_timer_ready) {
		timer_setup(&trace_wait_timer, trace_wait_tick);
		trace_wait_timer_ready = true;
	}
	list_add_tail(&w.list, &waiters);
	if (!timer_pending(&trace_wait_timer))
		mod_timer(&trace_wait_timer, jiffies + 1);
	spin_unlock_irqrestore(&waiters_lock, flags);

	ret = wait_event_interruptible(trace_readers_wait, ready(arg));

	spin_lock_irqsave(&waiters_lock, flags);
	list_del(&w.list);
	spin_unlock_irqrestore(&waiters_lock, flags);
	return ret;
}
