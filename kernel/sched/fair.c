/*
 * The scheduling policy, a small CFS. Pure: it only moves tasks between
 * lists and does arithmetic on the time it is given, so the unit tests
 * drive it with a simulated clock. core.c holds the run-queue lock
 * around every call.
 *
 * Fairness comes from vruntime: running for d ns adds d * 1024 / weight,
 * so a heavier (lower nice) task's vruntime grows slower and it is picked
 * more often. The queue is ordered by vruntime; its min_vruntime only
 * moves forward and is where new and long-sleeping tasks are placed, so
 * they neither starve others nor are starved.
 */
#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/sched/sched.h>

DEFINE_PER_CPU(struct rq, runqueues);

u32 sched_prio_to_weight(int prio)
{
	int nice = PRIO_TO_NICE(prio);
	u64 w = NICE_0_WEIGHT << 10;	/* 10 extra bits keep the rounding small */

	if (nice < MIN_NICE)
		nice = MIN_NICE;
	if (nice > MAX_NICE)
		nice = MAX_NICE;
	for (; nice > 0; nice--)
		w = w * 4 / 5;
	for (; nice < 0; nice++)
		w = w * 5 / 4;
	return (u32)((w + 512) >> 10);
}

void rq_init(struct rq *rq, int cpu)
{
	spin_lock_init(&rq->lock);
	rq->cpu = cpu;
	rq->online = false;
	rq->nr_running = 0;
	rq->total_weight = 0;
	rq->min_vruntime = 0;
	INIT_LIST_HEAD(&rq->queue);
	rq->curr = rq->idle = NULL;
	rq->balance_ticks = SCHED_BALANCE_INTERVAL + (unsigned int)cpu;
}

static bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static void update_min_vruntime(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct task_struct *left = list_first_entry_or_null(&rq->queue, struct task_struct, run_node);
	bool have = false;
	u64 v = 0;

	if (curr && !is_idle_task(curr) && curr->on_rq) {
		v = curr->vruntime;
		have = true;
	}
	if (left && (!have || vruntime_before(left->vruntime, v))) {
		v = left->vruntime;
		have = true;
	}
	if (have && vruntime_before(rq->min_vruntime, v))
		rq->min_vruntime = v;
}

static void queue_insert(struct rq *rq, struct task_struct *p)
{
	struct list_head *pos = rq->queue.prev;

	/* From the tail: equal vruntimes keep FIFO order, and wake-ups mostly land late. */
	while (pos != &rq->queue &&
	       vruntime_before(p->vruntime, list_entry(pos, struct task_struct, run_node)->vruntime))
		pos = pos->prev;
	__list_add(&p->run_node, pos, pos->next);
}

void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	if (flags & ENQUEUE_MIGRATED)
		p->vruntime += rq->min_vruntime;
	if (flags & ENQUEUE_NEW) {
		p->vruntime = rq->min_vruntime;
	} else if (flags & ENQUEUE_WAKEUP) {
		/* A sleeper gets at most half a period of credit over the runners. */
		u64 floor = rq->min_vruntime - SCHED_LATENCY_NS / 2;

		if (vruntime_before(p->vruntime, floor))
			p->vruntime = floor;
	}
	p->on_rq = 1;
	rq->nr_running++;
	rq->total_weight += p->weight;
	if (p != rq->curr)
		queue_insert(rq, p);
	update_min_vruntime(rq);
}

void dequeue_task_fair(struct rq *rq, struct task_struct *p)
{
	if (p != rq->curr)
		list_del_init(&p->run_node);
	p->on_rq = 0;
	rq->nr_running--;
	rq->total_weight -= p->weight;
	update_min_vruntime(rq);
}

u64 update_curr_fair(struct rq *rq, u64 now)
{
	struct task_struct *curr = rq->curr;
	u64 delta;

	if (!curr || (s64)(now - curr->exec_start) <= 0)
		return 0;
	delta = now - curr->exec_start;
	curr->exec_start = now;
	curr->sum_exec_runtime += delta;
	if (is_idle_task(curr))
		return delta;
	curr->vruntime += delta * NICE_0_WEIGHT / curr->weight;
	update_min_vruntime(rq);
	return delta;
}

struct task_struct *pick_next_task_fair(struct rq *rq, struct task_struct *prev, u64 now)
{
	struct task_struct *next;

	if (prev && !is_idle_task(prev) && prev->on_rq && list_empty(&prev->run_node))
		queue_insert(rq, prev);
	next = list_first_entry_or_null(&rq->queue, struct task_struct, run_node);
	if (!next)
		return NULL;
	list_del_init(&next->run_node);
	next->exec_start = now;
	next->slice_start_runtime = next->sum_exec_runtime;
	return next;
}

/* curr's share of the period: the period stretches when many tasks share it. */
static u64 sched_slice(const struct rq *rq, const struct task_struct *p)
{
	u64 period = SCHED_LATENCY_NS;
	u64 slice;

	if (rq->nr_running * SCHED_MIN_GRANULARITY_NS > period)
		period = rq->nr_running * SCHED_MIN_GRANULARITY_NS;
	slice = rq->total_weight ? period * p->weight / rq->total_weight : period;
	return slice < SCHED_MIN_GRANULARITY_NS ? SCHED_MIN_GRANULARITY_NS : slice;
}

bool check_preempt_tick(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct task_struct *left = list_first_entry_or_null(&rq->queue, struct task_struct, run_node);
	u64 ran, slice;

	if (!left)
		return false;
	if (!curr || is_idle_task(curr) || !curr->on_rq)
		return true;
	ran = curr->sum_exec_runtime - curr->slice_start_runtime;
	slice = sched_slice(rq, curr);
	if (ran > slice)
		return true;
	if (ran < SCHED_MIN_GRANULARITY_NS)
		return false;
	/* Far ahead of the most deserving waiter: give way early. */
	return (s64)(curr->vruntime - left->vruntime) > (s64)slice;
}

bool check_preempt_wakeup(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (!curr || is_idle_task(curr))
		return true;
	return (s64)(curr->vruntime - p->vruntime) > (s64)SCHED_WAKEUP_GRANULARITY_NS;
}

struct task_struct *pick_migratable_task(struct rq *src, int dst_cpu)
{
	struct list_head *pos;

	/* The last to run here again has the coldest cache: take from the tail. */
	for (pos = src->queue.prev; pos != &src->queue; pos = pos->prev) {
		struct task_struct *p = list_entry(pos, struct task_struct, run_node);

		if (cpu_allowed(p, dst_cpu) && !p->on_cpu)
			return p;
	}
	return NULL;
}

void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	/* the lag against the queue as it was, before p's leaving moves min_vruntime */
	p->vruntime -= src->min_vruntime;
	dequeue_task_fair(src, p);
	p->cpu = dst->cpu;
	enqueue_task_fair(dst, p, ENQUEUE_MIGRATED);
	dst->nr_migrations++;
}

int select_task_rq(struct task_struct *p, int prev_cpu, unsigned int nr_cpus)
{
	int best = -1;
	unsigned int best_n = ~0u;

	if (cpu_allowed(p, prev_cpu) && READ_ONCE(cpu_rq(prev_cpu)->online) &&
	    READ_ONCE(cpu_rq(prev_cpu)->nr_running) == 0)
		return prev_cpu;
	for (int c = 0; c < (int)nr_cpus; c++) {
		unsigned int n;

		if (!cpu_allowed(p, c) || !READ_ONCE(cpu_rq(c)->online))
			continue;
		n = READ_ONCE(cpu_rq(c)->nr_running);
		/* prev wins ties: its cache may still hold the task's data */
		if (n < best_n || (n == best_n && c == prev_cpu)) {
			best = c;
			best_n = n;
		}
	}
	/* nowhere allowed is online: the CPU it was bound to will take it when it comes up */
	return best < 0 ? prev_cpu : best;
}

int find_busiest_cpu(int this_cpu, unsigned int nr_cpus)
{
	unsigned int mine = READ_ONCE(cpu_rq(this_cpu)->nr_running);
	unsigned int most = 0;
	int busiest = -1;

	for (int c = 0; c < (int)nr_cpus; c++) {
		unsigned int n = READ_ONCE(cpu_rq(c)->nr_running);

		if (c != this_cpu && READ_ONCE(cpu_rq(c)->online) && n > most) {
			most = n;
			busiest = c;
		}
	}
	return busiest >= 0 && most >= mine + 2 ? busiest : -1;
}
