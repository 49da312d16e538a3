/*
 * Sleeping mutexes, as Linux's struct mutex: for locks held across long
 * or sleeping work (registering events and probes, patching text, a
 * task's whole console write), where a spinlock would keep other CPUs
 * spinning. A waiter sleeps on the lock's queue; mutex_unlock hands the
 * lock to the first waiter directly (first come, first served: nobody
 * can take a lock others queue for). Task context only, never in an
 * interrupt; the holder must be the one that unlocks. No lockdep.
 * Implemented in kernel/locking/mutex.c, out of line (every call is a
 * traceable, probeable function, as Linux's).
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>

struct task_struct;

/* owner's low bit: tasks are queued, so the holder's unlock must hand over. */
#define MUTEX_FLAG_WAITERS	0x01UL
#define MUTEX_FLAGS		0x01UL

struct mutex {
	unsigned long owner;		/* the holding task | MUTEX_FLAG_WAITERS; 0: free (then nobody waits) */
	spinlock_t wait_lock;		/* guards wait_list and the WAITERS flag */
	struct list_head wait_list;	/* struct mutex_waiter, in arrival order */
};

#define __MUTEX_INITIALIZER(name) \
	{ 0, SPINLOCK_INIT, LIST_HEAD_INIT((name).wait_list) }
#define DEFINE_MUTEX(name)	struct mutex name = __MUTEX_INITIALIZER(name)

void mutex_init(struct mutex *lock);
/* Sleeps until the lock is ours. */
void mutex_lock(struct mutex *lock);
/* The same, or -EINTR when a signal comes first (killable: a fatal signal). */
int mutex_lock_interruptible(struct mutex *lock);
int mutex_lock_killable(struct mutex *lock);
/* 1 if the lock was free and is now ours, 0 otherwise; never sleeps. */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

static inline struct task_struct *mutex_owner(struct mutex *lock)
{
	return (struct task_struct *)(__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) & ~MUTEX_FLAGS);
}

static inline bool mutex_is_locked(struct mutex *lock)
{
	return mutex_owner(lock) != NULL;
}

#endif
