/* Fast user-space mutexes (futex(2)): waits on a user address, keyed by its physical page. */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <kernel/types.h>

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAKE_OP		5
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_BITSET_MATCH_ANY	0xffffffffU

/* The hash buckets, once at boot before the other CPUs run. */
void futex_init(void);
/* Wakes up to nr waiters on the word at uaddr of current's address space; how many woke. */
int futex_wake(unsigned long uaddr, int nr);

#endif
