/*
 * Workload generators: kernel activity for tracing to observe, callable
 * from kernel code and the shell. Each runs its threads as children of
 * the caller, waits for them, and returns 0, -EINTR if a fatal signal
 * stopped it early (the threads see it too: task_kill of the caller is
 * passed on), or another negative errno. Implemented in kernel/workload.c.
 */
#ifndef KERNEL_WORKLOAD_H
#define KERNEL_WORKLOAD_H

#include <kernel/types.h>

/*
 * nr_pairs pairs of threads "pingpong/N" handing a token back and forth
 * through wait queues, iterations round trips each: two wake-ups and two
 * context switches per round trip (sched_waking/wakeup/switch).
 */
int workload_pingpong(unsigned int nr_pairs, unsigned int iterations);
/*
 * nr_threads threads "kmalloc/N" each doing iterations kmalloc/kfree
 * pairs with sizes cycling from 8 bytes to max_size (kmem events).
 */
int workload_kmalloc(unsigned int nr_threads, unsigned int iterations, size_t max_size);
/*
 * nr_threads threads "cpuhog/N" spinning for duration_ms each (tick
 * preemption, sched_stat_runtime, load balancing). On return, *cpus_seen
 * (if not NULL) has a bit set for every CPU a hog ran on.
 */
int workload_cpu_hog(unsigned int nr_threads, unsigned int duration_ms, u64 *cpus_seen);

#endif
