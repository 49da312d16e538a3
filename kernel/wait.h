/*
 * Wait queues: a task that must wait for a condition queues itself on a
 * wait_queue_head, marks itself sleeping, re-checks the condition and
 * calls the scheduler; whoever makes the condition true calls wake_up on
 * the head. The wait_event macros do that loop correctly (no lost
 * wake-ups: the state is set before the condition is tested).
 * Implemented in kernel/sched/wait.c.
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/errno.h>

struct task_struct;
struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry, unsigned int mode, void *key);

#define WQ_FLAG_EXCLUSIVE	0x01	/* wake_up wakes only one exclusive waiter */

/* A waiter: usually a task on its own stack (DEFINE_WAIT). */
struct wait_queue_entry {
	unsigned int flags;		/* WQ_FLAG_* */
	struct task_struct *private;	/* the task to wake */
	wait_queue_func_t func;		/* what waking it does */
	struct list_head entry;		/* in wait_queue_head.head */
};

/* The thing waited on. The lock is irq-safe: wake_up works from interrupts. */
struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) { SPINLOCK_INIT, LIST_HEAD_INIT((name).head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}
void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w);
void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w);
/* Queues w (if not already) and sets current's state: call before testing the condition. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, unsigned int state);
void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w, unsigned int state);
/* Back to TASK_RUNNING and off the queue. */
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);
/* Wakes the waiters sleeping in a state in mode: all non-exclusive ones and nr_exclusive exclusive ones. */
void __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr_exclusive, void *key);
/* Wakes the task and dequeues the entry (so a later wake_up skips it). */
int autoremove_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key);
int default_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key);
static inline bool waitqueue_active(struct wait_queue_head *wq) { return !list_empty(&wq->head); }

#define DEFINE_WAIT(name)						\
	struct wait_queue_entry name = {				\
		.private = current,					\
		.func = autoremove_wake_function,			\
		.entry = LIST_HEAD_INIT((name).entry),			\
	}

#define wake_up(wq)		__wake_up(wq, TASK_NORMAL, 1, NULL)
#define wake_up_all(wq)		__wake_up(wq, TASK_NORMAL, 0, NULL)
#define wake_up_interruptible(wq) __wake_up(wq, TASK_INTERRUPTIBLE, 1, NULL)

/*
 * The wait loop. Evaluates to the jiffies left (at least 1) when cond
 * became true, 0 on timeout with cond still false, -EINTR when an
 * interruptible wait saw a signal first.
 */
#define ___wait_event(wq, cond, state, exclusive, timeout) ({		\
	long __ret = (timeout);						\
	DEFINE_WAIT(__wait);						\
	if (exclusive)							\
		__wait.flags = WQ_FLAG_EXCLUSIVE;			\
	for (;;) {							\
		prepare_to_wait(&(wq), &__wait, (state));		\
		if (cond) {						\
			if (!__ret)					\
				__ret = 1;				\
			break;						\
		}							\
		if (((state) & TASK_INTERRUPTIBLE) && signal_pending(current)) { \
			__ret = -EINTR;					\
			break;						\
		}							\
		if (!__ret)						\
			break;						\
		__ret = schedule_timeout(__ret);			\
		if (!__ret && (cond)) {					\
			__ret = 1;					\
			break;						\
		}							\
	}								\
	finish_wait(&(wq), &__wait);					\
	__ret; })

/* Sleeps (uninterruptibly) until cond. */
#define wait_event(wq, cond) \
	do { if (!(cond)) (void)___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 0, MAX_SCHEDULE_TIMEOUT); } while (0)
/* Until cond or timeout jiffies: 0 if it timed out, else the jiffies left (>= 1). */
#define wait_event_timeout(wq, cond, timeout) \
	((cond) ? ((timeout) ? (long)(timeout) : 1) : ___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 0, timeout))
/* Until cond or a signal: 0 or -EINTR. */
#define wait_event_interruptible(wq, cond) \
	((cond) ? 0 : (___wait_event(wq, cond, TASK_INTERRUPTIBLE, 0, MAX_SCHEDULE_TIMEOUT) < 0 ? -EINTR : 0))
/* Until cond, a signal or timeout: jiffies left (>= 1), 0 on timeout, -EINTR. */
#define wait_event_interruptible_timeout(wq, cond, timeout) \
	((cond) ? ((timeout) ? (long)(timeout) : 1) : ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 0, timeout))

#include <kernel/sched.h>

#endif
