/*
 * Atomics on GCC's __atomic builtins: the same code on the host and in the
 * kernel. local_t is an atomic only its own CPU writes (ring buffer commit
 * counters): a plain add is enough on x86, but it must be one instruction
 * so an interrupt cannot split it.
 */
#ifndef KERNEL_ATOMIC_H
#define KERNEL_ATOMIC_H

#include <kernel/types.h>

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic64_t;
typedef struct { long counter; } local_t;

#define ATOMIC_INIT(v)	{ (v) }

#define atomic_read(a)		__atomic_load_n(&(a)->counter, __ATOMIC_RELAXED)
#define atomic_set(a, v)	__atomic_store_n(&(a)->counter, (v), __ATOMIC_RELAXED)
#define atomic_add(a, v)	((void)__atomic_fetch_add(&(a)->counter, (v), __ATOMIC_RELAXED))
#define atomic_sub(a, v)	((void)__atomic_fetch_sub(&(a)->counter, (v), __ATOMIC_RELAXED))
#define atomic_inc(a)		atomic_add(a, 1)
#define atomic_dec(a)		atomic_sub(a, 1)
#define atomic_add_return(a, v)	__atomic_add_fetch(&(a)->counter, (v), __ATOMIC_SEQ_CST)
#define atomic_inc_return(a)	atomic_add_return(a, 1)
#define atomic_dec_return(a)	__atomic_sub_fetch(&(a)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_dec_and_test(a)	(atomic_dec_return(a) == 0)
#define atomic_xchg(a, v)	__atomic_exchange_n(&(a)->counter, (v), __ATOMIC_SEQ_CST)

#define atomic64_read		atomic_read
#define atomic64_set		atomic_set
#define atomic64_add		atomic_add
#define atomic64_inc		atomic_inc
#define atomic64_add_return	atomic_add_return

#define local_read		atomic_read
#define local_set		atomic_set
#define local_inc(l)		__asm__ __volatile__("incq %0" : "+m"((l)->counter))
#define local_add(l, v)		__asm__ __volatile__("addq %1, %0" : "+m"((l)->counter) : "er"((long)(v)))
#define local_add_return(l, v)	__atomic_add_fetch(&(l)->counter, (v), __ATOMIC_RELAXED)
#define local_dec(l)		__asm__ __volatile__("decq %0" : "+m"((l)->counter))
#define local_sub(l, v)		__asm__ __volatile__("subq %1, %0" : "+m"((l)->counter) : "er"((long)(v)))
/* cmpxchg without the lock prefix: atomic against this CPU's interrupts only. */
static inline long local_cmpxchg(local_t *l, long old, long new)
{
	long prev;

	__asm__ __volatile__("cmpxchgq %2, %1"
			     : "=a"(prev), "+m"(l->counter)
			     : "r"(new), "0"(old) : "memory");
	return prev;
}

/* cmpxchg(ptr, old, new): returns the value found; the swap happened if it equals old. */
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) __o = (o);					\
	__atomic_compare_exchange_n((p), &__o, (n), false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
	__o; })
#define try_cmpxchg(p, po, n) \
	__atomic_compare_exchange_n((p), (po), (n), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define xchg(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)

#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#endif
