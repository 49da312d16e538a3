/*
 * Ticket spinlocks (fair, FIFO). Pure: the same lock works between host
 * threads. spin_lock disables preemption; the _irqsave forms also disable
 * local interrupts and must be used for locks taken in irq context.
 * Never take a spinlock in NMI context: NMI paths are lock-free.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <kernel/types.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>

typedef struct {
	u32 next;	/* next ticket to hand out */
	u32 owner;	/* ticket now being served */
} spinlock_t;

#define SPINLOCK_INIT		{ 0, 0 }
#define DEFINE_SPINLOCK(x)	spinlock_t x = SPINLOCK_INIT

#ifdef SPOOR_HOST
#include <sched.h>
/* A host thread can be preempted holding what we wait for (not so in the kernel): let it run. */
static inline void cpu_relax(void) { sched_yield(); }
#else
static inline void cpu_relax(void) { __builtin_ia32_pause(); }
#endif

static inline void spin_lock_init(spinlock_t *l) { l->next = 0; l->owner = 0; }

static inline void arch_spin_lock(spinlock_t *l)
{
	u32 t = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != t)
		cpu_relax();
}
static inline bool arch_spin_trylock(spinlock_t *l)
{
	u32 o = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	u32 n = o;

	return __atomic_compare_exchange_n(&l->next, &n, o + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}
static inline void arch_spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}
static inline bool spin_is_locked(spinlock_t *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

static inline void spin_lock(spinlock_t *l) { preempt_disable(); arch_spin_lock(l); }
static inline void spin_unlock(spinlock_t *l) { arch_spin_unlock(l); preempt_enable(); }
/*
 * Out of line (kernel/locking/spinlock.c), as Linux's on x86, where lock
 * and unlock stay inline here: its callers are the cold paths that must
 * not wait, and as a function it can be traced and probed.
 */
bool _raw_spin_trylock(spinlock_t *l);
static inline bool spin_trylock(spinlock_t *l) { return _raw_spin_trylock(l); }

#define spin_lock_irqsave(l, flags) \
	do { local_irq_save(flags); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { spin_unlock(l); local_irq_restore(flags); } while (0)
#define spin_lock_irq(l)	do { local_irq_disable(); spin_lock(l); } while (0)
#define spin_unlock_irq(l)	do { spin_unlock(l); local_irq_enable(); } while (0)

#endif
