/* Unit tests of the scheduling policy and task bookkeeping, driven by a simulated clock. */
/* uses: kernel/sched/fair.c kernel/sched/task.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/sched/sched.h>

static struct task_struct tasks[8];
static struct task_struct idle;

static struct rq *setup_rq(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	rq_init(rq, cpu);
	rq->online = true;
	task_init_common(&idle, "swapper/0", 0);
	idle.flags = PF_IDLE;
	rq->idle = rq->curr = &idle;
	return rq;
}

static struct task_struct *mk(int i, int nice)
{
	task_init_common(&tasks[i], "t", nice);
	tasks[i].pid = 100 + i;
	return &tasks[i];
}

/* One scheduling decision at time now, as core.c's __schedule makes it. */
static void resched(struct rq *rq, u64 now)
{
	struct task_struct *next;

	update_curr_fair(rq, now);
	next = pick_next_task_fair(rq, rq->curr, now);
	rq->curr = next ? next : rq->idle;
}

Test(sched_fair, weights_follow_nice)
{
	cr_assert_eq(sched_prio_to_weight(DEFAULT_PRIO), 1024);
	/* Linux's table: 1277, 820, 335, 15, 88761 - ours is computed, within 0.5% */
	cr_assert_eq(sched_prio_to_weight(NICE_TO_PRIO(-1)), 1280);
	cr_assert_eq(sched_prio_to_weight(NICE_TO_PRIO(1)), 819);
	cr_assert(sched_prio_to_weight(NICE_TO_PRIO(5)) >= 334 && sched_prio_to_weight(NICE_TO_PRIO(5)) <= 336);
	cr_assert(sched_prio_to_weight(NICE_TO_PRIO(19)) >= 14 && sched_prio_to_weight(NICE_TO_PRIO(19)) <= 15);
	cr_assert(sched_prio_to_weight(NICE_TO_PRIO(-20)) > 88000);
	/* out of range clamps */
	cr_assert_eq(sched_prio_to_weight(NICE_TO_PRIO(40)), sched_prio_to_weight(NICE_TO_PRIO(19)));
}

Test(sched_fair, picks_smallest_vruntime_first)
{
	struct rq *rq = setup_rq(0);
	struct task_struct *a = mk(0, 0), *b = mk(1, 0), *c = mk(2, 0);

	rq->min_vruntime = 1000;
	a->vruntime = 5000;
	b->vruntime = 2000;
	c->vruntime = 3000;
	enqueue_task_fair(rq, b, 0);
	enqueue_task_fair(rq, a, 0);
	enqueue_task_fair(rq, c, 0);
	cr_assert_eq(rq->nr_running, 3);
	cr_assert_eq(rq->total_weight, 3 * 1024);
	cr_assert_eq(pick_next_task_fair(rq, rq->idle, 0), b);
	rq->curr = b;
	cr_assert_eq(rq->min_vruntime, 2000, "min_vruntime follows the smallest, never goes back");
	dequeue_task_fair(rq, b);
	cr_assert_eq(pick_next_task_fair(rq, b, 0), c);
	rq->curr = c;
	cr_assert_eq(pick_next_task_fair(rq, c, 0), c, "a runnable prev with the smallest vruntime runs on");
	cr_assert_eq(rq->nr_running, 2);
}

Test(sched_fair, cpu_share_follows_weight)
{
	struct rq *rq = setup_rq(0);
	struct task_struct *heavy = mk(0, 0), *light = mk(1, 5);
	u64 now = 0;

	enqueue_task_fair(rq, heavy, ENQUEUE_NEW);
	enqueue_task_fair(rq, light, ENQUEUE_NEW);
	resched(rq, now);
	for (int tick = 0; tick < 3000; tick++) {
		now += NSEC_PER_MSEC;
		update_curr_fair(rq, now);
		if (check_preempt_tick(rq))
			resched(rq, now);
	}
	double ratio = (double)heavy->sum_exec_runtime / (double)light->sum_exec_runtime;
	double want = 1024.0 / sched_prio_to_weight(NICE_TO_PRIO(5));

	cr_assert(ratio > want * 0.9 && ratio < want * 1.1, "ratio %.2f, want %.2f", ratio, want);
	cr_assert_eq(heavy->sum_exec_runtime + light->sum_exec_runtime, 3000 * NSEC_PER_MSEC);
}

Test(sched_fair, equal_tasks_rotate_within_latency)
{
	struct rq *rq = setup_rq(0);
	struct task_struct *t[3] = { mk(0, 0), mk(1, 0), mk(2, 0) };
	u64 now = 0, longest = 0, run = 0;
	struct task_struct *last = NULL;

	for (int i = 0; i < 3; i++)
		enqueue_task_fair(rq, t[i], ENQUEUE_NEW);
	resched(rq, now);
	for (int tick = 0; tick < 600; tick++) {
		now += NSEC_PER_MSEC;
		update_curr_fair(rq, now);
		if (check_preempt_tick(rq))
			resched(rq, now);
		run = rq->curr == last ? run + 1 : 1;
		last = rq->curr;
		if (run > longest)
			longest = run;
	}
	/* a third of the 6 ms period each, give or take a tick */
	cr_assert(longest <= 3, "a task ran %lu ticks in a row", (unsigned long)longest);
	for (int i = 0; i < 3; i++)
		cr_assert(t[i]->sum_exec_runtime >= 190 * NSEC_PER_MSEC, "task %d starved", i);
}

Test(sched_fair, lone_task_is_not_preempted)
{
	struct rq *rq = setup_rq(0);
	struct task_struct *a = mk(0, 0);

	enqueue_task_fair(rq, a, ENQUEUE_NEW);
	resched(rq, 0);
	cr_assert_eq(rq->curr, a);
	update_curr_fair(rq, 50 * NSEC_PER_MSEC);
	cr_assert_not(check_preempt_tick(rq));
}

Test(sched_fair, sleeper_credit_is_bounded)
{
	struct rq *rq = setup_rq(0);
	struct task_struct *runner = mk(0, 0), *sleeper = mk(1, 0);

	enqueue_task_fair(rq, runner, ENQUEUE_NEW);
	resched(rq, 0);
	update_curr_fair(rq, 100 * NSEC_PER_MSEC);
	cr_assert_eq(rq->min_vruntime, 100 * NSEC_PER_MSEC);
	sleeper->vruntime = 0;		/* slept through all of it */
	enqueue_task_fair(rq, sleeper, ENQUEUE_WAKEUP);
	cr_assert_eq(sleeper->vruntime, 100 * NSEC_PER_MSEC - SCHED_LATENCY_NS / 2);
	cr_assert(check_preempt_wakeup(rq, sleeper));
	/* a task just behind does not preempt */
	dequeue_task_fair(rq, sleeper);
	sleeper->vruntime = runner->vruntime - SCHED_WAKEUP_GRANULARITY_NS / 2;
	enqueue_task_fair(rq, sleeper, ENQUEUE_WAKEUP);
	cr_assert_not(check_preempt_wakeup(rq, sleeper));
}

Test(sched_fair, placement_and_balancing)
{
	struct rq *r0 = setup_rq(0), *r1 = cpu_rq(1), *r2 = cpu_rq(2);
	struct task_struct *p = mk(0, 0), *q;
	unsigned int nr = 3;

	rq_init(r1, 1);
	rq_init(r2, 2);
	r1->online = r2->online = true;
	r0->nr_running = 2;
	r1->nr_running = 1;
	r2->nr_running = 0;
	cr_assert_eq(select_task_rq(p, 0, nr), 2, "an idle CPU wins");
	r2->online = false;
	cr_assert_eq(select_task_rq(p, 0, nr), 1, "offline CPUs are skipped; least loaded next");
	p->cpus_allowed = 1ULL << 0;
	cr_assert_eq(select_task_rq(p, 1, nr), 0, "affinity is respected");
	r2->online = true;
	r1->nr_running = 0;
	p->cpus_allowed = ~0ULL;
	cr_assert_eq(select_task_rq(p, 1, nr), 1, "an idle prev CPU is kept");

	/* balancing: cpu 0 with three runnable, cpu 1 idle */
	r0->nr_running = 0;
	r0->total_weight = 0;
	r1->nr_running = 0;
	r2->nr_running = 1;
	for (int i = 1; i <= 3; i++) {
		q = mk(i, 0);
		q->vruntime = (u64)i * 1000;
		enqueue_task_fair(r0, q, 0);
	}
	r0->curr = &tasks[1];
	list_del_init(&tasks[1].run_node);
	cr_assert_eq(find_busiest_cpu(1, nr), 0);
	cr_assert_eq(find_busiest_cpu(2, nr), 0);
	q = pick_migratable_task(r0, 1);
	cr_assert_eq(q, &tasks[3], "the queue's tail, never the running task");
	r1->min_vruntime = 50;
	u64 lag = q->vruntime - r0->min_vruntime;
	move_queued_task(r0, r1, q);
	cr_assert_eq(q->cpu, 1);
	cr_assert_eq(q->vruntime, 50 + lag, "keeps its lag behind the queue's minimum");
	cr_assert_eq(r0->nr_running, 2);
	cr_assert_eq(r1->nr_running, 1);
	cr_assert_eq(r1->nr_migrations, 1);
	cr_assert_eq(find_busiest_cpu(1, nr), -1, "2 vs 1 is balanced enough");
	tasks[2].cpus_allowed = 1ULL << 0;
	cr_assert_null(pick_migratable_task(r0, 2), "a pinned task stays");
}

Test(sched_task, switch_state_encoding)
{
	struct task_struct *p = mk(0, 0);

	cr_assert_eq(__trace_sched_switch_state(true, TASK_INTERRUPTIBLE, p), TASK_REPORT_MAX);
	cr_assert_eq(__trace_sched_switch_state(false, TASK_RUNNING, p), 0);
	cr_assert_eq(__trace_sched_switch_state(false, TASK_INTERRUPTIBLE, p), 1);
	cr_assert_eq(__trace_sched_switch_state(false, TASK_UNINTERRUPTIBLE, p), 2);
	cr_assert_eq(__trace_sched_switch_state(false, TASK_KILLABLE, p), 2);
	cr_assert_eq(__trace_sched_switch_state(false, TASK_IDLE, p), TASK_REPORT_IDLE);
	p->exit_state = EXIT_ZOMBIE;
	cr_assert_eq(__trace_sched_switch_state(false, TASK_DEAD, p), EXIT_ZOMBIE);
}

Test(sched_task, pids_and_lookup)
{
	struct task_struct *a = mk(0, 0), *b = mk(1, 0);
	pid_t pa, pb;

	cr_assert_eq(strcmp(a->comm, "t"), 0);
	set_task_comm(a, "a-name-longer-than-fifteen");
	cr_assert_eq(strlen(a->comm), TASK_COMM_LEN - 1);
	pa = alloc_pid();
	a->pid = pa;
	list_add_tail(&a->tasks, &task_list);
	pb = alloc_pid();
	b->pid = pb;
	list_add_tail(&b->tasks, &task_list);
	cr_assert_eq(pb, pa + 1);
	cr_assert_eq(find_task_by_pid(pb), b);
	cr_assert_null(find_task_by_pid(pb + 1));
	cr_assert_null(find_task_by_pid(0));
	cr_assert_eq(a->prio, DEFAULT_PRIO);
	cr_assert_eq(task_nice(mk(2, -5)), -5);
	list_del_init(&a->tasks);
	list_del_init(&b->tasks);
}
