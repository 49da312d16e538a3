/*
 * Sleeping mutexes (kernel/mutex.h).
 *
 * The lock word holds the owner task, so taking a free lock and
 * releasing one nobody waits for are one compare-and-exchange each.
 * Everything else goes through wait_lock: a task that finds the lock
 * held queues itself at the tail, sets MUTEX_FLAG_WAITERS (which makes
 * the owner's fast unlock fail) and sleeps; the unlock then writes the
 * first waiter into the lock word and wakes it. Handing over directly
 * keeps the queue's order (a task arriving meanwhile cannot barge in,
 * and nobody starves); the price is that the lock stays with a task
 * that has yet to run, which for the long-held locks a mutex is for
 * costs little. The word is never 0 while tasks wait, so a lock seen
 * free has no queue, and trylock is fair too.
 *
 * The slow paths stay functions of their own (noinline), as Linux's, so
 * tracing them counts contention.
 *
 * Pure: the unit test runs it between host threads, whose schedule()
 * just lets time pass (a waiter re-checks under wait_lock).
 */
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/stacktrace.h>

/* A task queued on a mutex, on its own stack. */
struct mutex_waiter {
	struct list_head list;		/* in mutex.wait_list */
	struct task_struct *task;
	bool handed;			/* the unlocker made it the owner */
};

void mutex_init(struct mutex *lock)
{
	lock->owner = 0;
	spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
}

static inline bool mutex_trylock_fast(struct mutex *lock)
{
	unsigned long free = 0;

	return __atomic_compare_exchange_n(&lock->owner, &free, (unsigned long)current, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Whether a signal ends a sleep in state (as the scheduler cancels one). */
static bool signal_ends_wait(unsigned int state)
{
	struct task_struct *t = current;

	return ((state & TASK_INTERRUPTIBLE) && signal_pending(t)) ||
	       ((state & TASK_WAKEKILL) && fatal_signal_pending(t));
}

/*
 * Queue, sleep until handed the lock or a signal the state allows.
 * Returns 0 (the lock is ours) or -EINTR (it is not; we left the queue).
 */
static noinline int __mutex_lock_slowpath(struct mutex *lock, unsigned int state)
{
	struct mutex_waiter w = { .task = current };
	unsigned long owner;
	int ret = 0;

	spin_lock(&lock->wait_lock);
	/* Flag the waiter, unless the lock went free meanwhile: then take it. */
	owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	for (;;) {
		if (!owner) {
			if (mutex_trylock_fast(lock))
				goto out;
			owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
			continue;
		}
		if (__atomic_compare_exchange_n(&lock->owner, &owner, owner | MUTEX_FLAG_WAITERS,
						false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
	}
	list_add_tail(&w.list, &lock->wait_list);
	for (;;) {
		if (w.handed)
			break;
		if (signal_ends_wait(state)) {
			list_del(&w.list);
			if (list_empty(&lock->wait_list))
				__atomic_fetch_and(&lock->owner, ~MUTEX_FLAG_WAITERS, __ATOMIC_RELAXED);
			ret = -EINTR;
			break;
		}
		/* The state is set before the lock drops: a hand-over after this wakes us. */
		set_current_state(state);
		spin_unlock(&lock->wait_lock);
		schedule();
		spin_lock(&lock->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
out:
	spin_unlock(&lock->wait_lock);
	return ret;
}

void mutex_lock(struct mutex *lock)
{
	if (!mutex_trylock_fast(lock))
		__mutex_lock_slowpath(lock, TASK_UNINTERRUPTIBLE);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	if (mutex_trylock_fast(lock))
		return 0;
	return __mutex_lock_slowpath(lock, TASK_INTERRUPTIBLE);
}

int mutex_lock_killable(struct mutex *lock)
{
	if (mutex_trylock_fast(lock))
		return 0;
	return __mutex_lock_slowpath(lock, TASK_KILLABLE);
}

int mutex_trylock(struct mutex *lock)
{
	return mutex_trylock_fast(lock);
}

/* Waiters are queued: give the lock to the first, or free it if the last just left. */
static noinline void __mutex_unlock_slowpath(struct mutex *lock)
{
	struct mutex_waiter *w;
	unsigned long next = 0;

	spin_lock(&lock->wait_lock);
	if (mutex_owner(lock) != current) {
		/* Not ours: leave it as it is rather than wake a second owner. */
		spin_unlock(&lock->wait_lock);
		pr_warn("mutex_unlock: %s/%d does not hold the mutex at %p\n",
			current->comm, current->pid, lock);
		dump_stack();
		return;
	}
	if (!list_empty(&lock->wait_list)) {
		w = list_first_entry(&lock->wait_list, struct mutex_waiter, list);
		list_del(&w->list);
		next = (unsigned long)w->task;
		if (!list_empty(&lock->wait_list))
			next |= MUTEX_FLAG_WAITERS;
		w->handed = true;
	}
	/* Release: the critical section's writes are the next owner's to see. */
	__atomic_store_n(&lock->owner, next, __ATOMIC_RELEASE);
	/*
	 * Woken under wait_lock: the waiter only returns (and may exit) after
	 * taking it, so its task is still there to wake.
	 */
	if (next)
		wake_up_process((struct task_struct *)(next & ~MUTEX_FLAGS));
	spin_unlock(&lock->wait_lock);
}

void mutex_unlock(struct mutex *lock)
{
	unsigned long mine = (unsigned long)current;

	if (!__atomic_compare_exchange_n(&lock->owner, &mine, 0, false,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		__mutex_unlock_slowpath(lock);
}
