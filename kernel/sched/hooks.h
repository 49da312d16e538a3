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
 *   sched_process_exec(p, old_pid, filename)    (kernel/exec/exec.c)
 *   sched_process_wait(waiter, pid), sched_process_free(p)
 *   sched_stat_runtime(p, runtime)
 *   softirq_raise(vec_nr), softirq_entry(vec_nr), softirq_exit(vec_nr)
 *
 * The events come from the tracing headers (trace/events/sched.tev and
 * irq.tev, created in trace/trace_sched.c and trace/trace_irq.c); the one
 * with no event spec yet lands on the empty inline below.
 */
#ifndef KERNEL_SCHED_HOOKS_H
#define KERNEL_SCHED_HOOKS_H

#include <kernel/types.h>
#include <trace/events/sched.h>
#include <trace/events/irq.h>

struct task_struct;

static inline void trace_softirq_raise(unsigned int vec_nr) {}

#endif
