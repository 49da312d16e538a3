/*
 * Where the sched and softirq events fire. Each trace_xxx() call in
 * kernel/sched/ (core.c), kernel/exit.c, kernel/kthread.c and kernel/softirq.c
 * is the hook point of the Linux event of the same name, with Linux's
 * TP_PROTO arguments, so every field of the event is computable there:
 *
 *   sched_switch(preempt, prev, next, prev_state)
 *       prev_comm/pid/prio from prev, next_* from next, prev_state is
 *       __trace_sched_switch_state(preempt, prev_state, prev)
 *   sched_waking(p), sched_wakeup(p), sched_wakeup_new(p)
 *       comm, pid, prio, target_cpu = task_cpu(p)
 *   sched_migrate_task(p, dest_cpu)
 *   sched_process_fork(parent, child)
 *   sched_process_exit(p, group_dead)
 *   sched_stat_runtime(p, runtime)
 *   softirq_raise(vec_nr), softirq_entry(vec_nr), softirq_exit(vec_nr)
 *
 * Until the tracing code defines these events (trace/events), the calls
 * land on the empty inlines below and compile to nothing; the event
 * header then replaces this file's body.
 */
#ifndef KERNEL_SCHED_HOOKS_H
#define KERNEL_SCHED_HOOKS_H

#include <kernel/types.h>

struct task_struct;

static inline void trace_sched_switch(bool preempt, struct task_struct *prev,
				      struct task_struct *next, unsigned int prev_state) {}
static inline void trace_sched_waking(struct task_struct *p) {}
static inline void trace_sched_wakeup(struct task_struct *p) {}
static inline void trace_sched_wakeup_new(struct task_struct *p) {}
static inline void trace_sched_migrate_task(struct task_struct *p, int dest_cpu) {}
static inline void trace_sched_process_fork(struct task_struct *parent, struct task_struct *child) {}
static inline void trace_sched_process_exit(struct task_struct *p, bool group_dead) {}
static inline void trace_sched_stat_runtime(struct task_struct *p, u64 runtime) {}
static inline void trace_softirq_raise(unsigned int vec_nr) {}
static inline void trace_softirq_entry(unsigned int vec_nr) {}
static inline void trace_softirq_exit(unsigned int vec_nr) {}

#endif
