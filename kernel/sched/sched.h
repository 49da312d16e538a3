/*
 * The scheduler's insides: the per-CPU run queue and the policy functions
 * (kernel/sched/fair.c, pure, host-tested) that core.c calls with the
 * run-queue lock held.
 */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include <kernel/sched.h>

/* Policy knobs, in ns: the period a busy run queue is shared over, and its floor per task. */
#define SCHED_LATENCY_NS	6000000ULL
#define SCHED_MIN_GRANULARITY_NS 750000ULL
/* A waking task preempts the current one only if it is this far behind in vruntime. */
#define SCHED_WAKEUP_GRANULARITY_NS 1000000ULL
/* Ticks between periodic load-balancing passes on a CPU. */
#define SCHED_BALANCE_INTERVAL	4

/* enqueue flags */
#define ENQUEUE_WAKEUP		0x01	/* was sleeping: limit the credit it gets */
#define ENQUEUE_NEW		0x02	/* first time: start at the queue's min_vruntime */
#define ENQUEUE_MIGRATED	0x04	/* vruntime is relative to the old queue's min */

/*
 * One CPU's run queue. Holds the tasks that are runnable there: curr
 * (running, not in queue) and the waiting ones in queue, sorted by
 * vruntime. The idle task is never counted or queued.
 */
struct rq {
	spinlock_t lock;		/* taken with irqs off (raw: no preempt accounting) */
	int cpu;
	bool online;			/* its CPU runs the scheduler: tasks may be placed here */
	unsigned int nr_running;	/* runnable tasks here, curr included */
	u64 total_weight;		/* sum of their weights */
	u64 min_vruntime;		/* monotonic floor of the queue's vruntimes */
	struct list_head queue;		/* waiting tasks, smallest vruntime first */
	struct task_struct *curr;
	struct task_struct *idle;
	u64 clock;			/* ktime_get_ns at the last update */
	u64 idle_since;			/* clock when idle started running */
	u64 idle_ns;
	u64 nr_switches;
	u64 nr_migrations;
	unsigned int balance_ticks;	/* ticks until the next periodic balance */
};

DECLARE_PER_CPU(struct rq, runqueues);
#define cpu_rq(cpu)	per_cpu_ptr(&runqueues, (cpu))
#define this_rq()	this_cpu_ptr(&runqueues)

/* Weight of a priority: 1024 at nice 0, 1.25x per step down (higher priority). */
u32 sched_prio_to_weight(int prio);
void rq_init(struct rq *rq, int cpu);
void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags);
void dequeue_task_fair(struct rq *rq, struct task_struct *p);
/* Charges curr for the time since its exec_start; returns the ns charged. */
u64 update_curr_fair(struct rq *rq, u64 now);
/* The next task to run (taken off queue; prev, if still runnable, goes back first), or NULL. */
struct task_struct *pick_next_task_fair(struct rq *rq, struct task_struct *prev, u64 now);
/* curr has had its share of the latency period, and someone is waiting. */
bool check_preempt_tick(struct rq *rq);
/* p, just enqueued, should run before curr. */
bool check_preempt_wakeup(struct rq *rq, struct task_struct *p);
/* Load balancing: the queued task to move from src to dst_cpu (NULL if none may go). */
struct task_struct *pick_migratable_task(struct rq *src, int dst_cpu);
/* Moves a queued task between two locked run queues, keeping its vruntime lag. */
void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p);
/* Where to put a waking task: an idle allowed CPU, else the least loaded, preferring prev. */
int select_task_rq(struct task_struct *p, int prev_cpu, unsigned int nr_cpus);
/* The CPU with the most runnable tasks if it has at least 2 more than this one, else -1. */
int find_busiest_cpu(int this_cpu, unsigned int nr_cpus);

/* A task_struct with a stack, named, TASK_NEW, no pid yet (kernel/kthread.c). */
struct task_struct *task_alloc(const char *name, int nice);
/* prev has switched out for the last time: drop what only a running task needs (kernel/exit.c). */
void task_dead(struct task_struct *prev);
/* current's last switch: TASK_DEAD, off the run queue, never back (kernel/sched/core.c). */
__noreturn void do_task_dead(void);

static inline bool cpu_allowed(const struct task_struct *p, int cpu)
{
	return p->cpus_allowed & (1ULL << cpu);
}

#endif
