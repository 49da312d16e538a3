/* Wait queues (kernel/wait.h). */
#include <kernel/types.h>
#include <kernel/sched.h>
#include <kernel/wait.h>

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&w->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

static void __prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w,
			      unsigned int state, bool exclusive)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&w->entry)) {
		if (exclusive) {
			w->flags |= WQ_FLAG_EXCLUSIVE;
			list_add_tail(&w->entry, &wq->head);
		} else {
			/* non-exclusive waiters go first: a wake-up reaches all of them */
			list_add(&w->entry, &wq->head);
		}
	}
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, unsigned int state)
{
	__prepare_to_wait(wq, w, state, w->flags & WQ_FLAG_EXCLUSIVE);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w, unsigned int state)
{
	__prepare_to_wait(wq, w, state, true);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	/*
	 * Always under the lock: a waker may be unlinking w (autoremove) right
	 * now, and w lives on this stack frame, which is about to go away.
	 */
	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int default_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key)
{
	return wake_up_state(w->private, mode);
}

int autoremove_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key)
{
	int woken = default_wake_function(w, mode, key);

	if (woken)
		list_del_init(&w->entry);
	return woken;
}

void __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr_exclusive, void *key)
{
	struct wait_queue_entry *w, *n;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry_safe(w, n, &wq->head, entry) {
		unsigned int wflags = w->flags;

		if (w->func(w, mode, key) && (wflags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}
