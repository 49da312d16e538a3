/*
 * Waking readers blocked in trace_pipe and trace_pipe_raw.
 *
 * A writer cannot wake anyone itself: a probe may run with the
 * scheduler's locks held (sched_switch, sched_waking) or in NMI context,
 * where taking a wait queue's or run queue's lock can deadlock. As Linux
 * does, the writer queues an irq_work, which interrupts the writing CPU
 * as soon as it takes interrupts again and wakes the readers there. A
 * reader arms the wake-up each time before it checks for data and sleeps;
 * the first commit after that disarms it and queues the work, so one
 * wake-up answers one sleep (an event the wake-up itself records - an irq
 * or sched_waking record - cannot set off another). Writers pay one load
 * per event while nobody waits, and a load and a branch while a reader is
 * awake.
 *
 * A writer reads the arming without a full barrier after its commit, so a
 * commit that crosses a reader's going to sleep can miss it; a timer
 * every WAIT_SAFETY_TICKS jiffies while readers sleep wakes them to look
 * again. Nothing outside the readers asks whether there is data: that
 * takes the ring buffer's reader locks, which a tick interrupting a
 * reader would then wait for forever.
 *
 * Every mod_timer of the one timer happens under waiters_lock, so the
 * reader arming it and the timer re-arming itself never race. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <kernel/sched.h>
#include <kernel/irq_work.h>
#include <trace/ring_buffer.h>
#include <trace/trace.h>

#define WAIT_SAFETY_TICKS	10

static DEFINE_SPINLOCK(waiters_lock);
static unsigned int nr_waiters;	/* under waiters_lock */
static DECLARE_WAIT_QUEUE_HEAD(trace_readers_wait);
static struct timer_list trace_wait_timer;
static bool trace_wait_timer_ready;
static int wake_armed;		/* a reader is about to sleep: the next commit wakes readers */

static void trace_wake_work(struct irq_work *work)
{
	wake_up_all(&trace_readers_wait);
}

static struct irq_work trace_wake_irq_work = IRQ_WORK_INIT(trace_wake_work);

void trace_wake_readers(void)
{
	irq_work_queue(&trace_wake_irq_work);
}

/* ring_buffer_commit_notify while readers sleep: any context. */
static void trace_commit_notify(void)
{
	if (READ_ONCE(wake_armed) && __atomic_exchange_n(&wake_armed, 0, __ATOMIC_ACQ_REL))
		trace_wake_readers();
}

static void trace_wait_tick(struct timer_list *t)
{
	unsigned long flags;

	spin_lock_irqsave(&waiters_lock, flags);
	if (nr_waiters)
		mod_timer(t, jiffies + WAIT_SAFETY_TICKS);
	spin_unlock_irqrestore(&waiters_lock, flags);
	wake_up_all(&trace_readers_wait);
}

int trace_wait_for(bool (*ready)(void *arg), void *arg)
{
	DEFINE_WAIT(wait);
	unsigned long flags;
	int ret = 0;

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
	if (!nr_waiters++)
		WRITE_ONCE(ring_buffer_commit_notify, trace_commit_notify);
	if (!timer_pending(&trace_wait_timer))
		mod_timer(&trace_wait_timer, jiffies + WAIT_SAFETY_TICKS);
	spin_unlock_irqrestore(&waiters_lock, flags);

	for (;;) {
		prepare_to_wait(&trace_readers_wait, &wait, TASK_INTERRUPTIBLE);
		/* Armed before ready() looks: a commit from here on wakes us. */
		__atomic_store_n(&wake_armed, 1, __ATOMIC_SEQ_CST);
		if (ready(arg))
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&trace_readers_wait, &wait);

	spin_lock_irqsave(&waiters_lock, flags);
	if (!--nr_waiters)
		WRITE_ONCE(ring_buffer_commit_notify, NULL);
	spin_unlock_irqrestore(&waiters_lock, flags);
	return ret;
}
