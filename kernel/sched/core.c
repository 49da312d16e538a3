/*
 * The scheduler core: schedule(), wake-ups, the tick, preemption, the
 * idle loop and load balancing. The policy is in fair.c.
 *
 * Locking. Each run queue's lock is taken with interrupts off and held
 * across the context switch; the task that is switched to releases it in
 * finish_task_switch. A wake-up takes the task's pi_lock first (so two
 * wakers do not race), then a run queue lock. A task that went to sleep
 * stays on_cpu until its CPU has switched away from its stack; a waker
 * that would move it elsewhere waits for that.
 *
 * preempt_count is per CPU. Every switch happens with exactly
 * PREEMPT_OFFSET in it (schedule's own preempt_disable), so each task
 * finds it as it left it.
 */
#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/delay.h>
#include <kernel/smp.h>
#include <kernel/interrupt.h>
#include <kernel/rcu.h>
#include <kernel/sched.h>
#include <kernel/sched/sched.h>
#include <kernel/sched/hooks.h>
#include <asm/switch_to.h>

static inline void rq_lock(struct rq *rq) { arch_spin_lock(&rq->lock); }
static inline void rq_unlock(struct rq *rq) { arch_spin_unlock(&rq->lock); }

/* Both locks, in CPU order so two CPUs balancing towards each other cannot deadlock. */
static void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a->cpu < b->cpu) {
		rq_lock(a);
		rq_lock(b);
	} else {
		rq_lock(b);
		rq_lock(a);
	}
}

static void double_rq_unlock(struct rq *a, struct rq *b)
{
	rq_unlock(a);
	rq_unlock(b);
}

/*
 * Asks rq's CPU to reschedule: sets its flag, and returns that CPU if it
 * is another one, which the caller sends an IPI once it holds no lock
 * (resched_kick), else -1. Under TCG the IPI's APIC accesses can wait
 * for QEMU's big lock while the host runs something else; other CPUs
 * would spin on our run queue lock all that time.
 */
static int resched_curr(struct rq *rq)
{
	if (rq->cpu == smp_processor_id()) {
		this_cpu_write(need_resched, 1);
		return -1;
	}
	WRITE_ONCE(per_cpu(need_resched, rq->cpu), 1);
	return rq->cpu;
}

static void resched_kick(int cpu)
{
	if (cpu >= 0)
		smp_send_reschedule(cpu);
}

/* Charges the running task; the runtime event fires for every charge. */
static void update_curr(struct rq *rq)
{
	u64 now = ktime_get_ns();
	u64 delta;

	rq->clock = now;
	delta = update_curr_fair(rq, now);
	if (delta && !is_idle_task(rq->curr))
		trace_sched_stat_runtime(rq->curr, delta);
}

/* The second half of a switch, run by the task switched to, on its own stack. */
static void finish_task_switch(struct task_struct *prev)
{
	struct rq *rq = this_rq();
	bool dead = task_state(prev) == TASK_DEAD;

	smp_store_release(&prev->on_cpu, 0);
	rq_unlock(rq);
	local_irq_enable();
	if (dead)
		task_dead(prev);
}

/* A new task's first C code (from ret_from_kthread): finish the switch that started it. */
void schedule_tail(struct task_struct *prev);
void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	preempt_enable();
}

static void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	unsigned int prev_state;
	struct rq *rq;

	local_irq_disable();
	rq = this_rq();
	rq_lock(rq);
	update_curr(rq);

	prev_state = task_state(prev);
	if (!preempt && prev_state != TASK_RUNNING) {
		/* A signal cancels an interruptible (a fatal one a killable) sleep before it starts. */
		if (((prev_state & TASK_INTERRUPTIBLE) && signal_pending(prev)) ||
		    ((prev_state & TASK_WAKEKILL) && fatal_signal_pending(prev)))
			WRITE_ONCE(prev->__state, TASK_RUNNING);
		else
			dequeue_task_fair(rq, prev);
	}
	this_cpu_write(need_resched, 0);
	rcu_note_qs();
	next = pick_next_task_fair(rq, prev, rq->clock);
	if (!next) {
		next = rq->idle;
		next->exec_start = rq->clock;
	}
	if (next == prev) {
		rq_unlock(rq);
		local_irq_enable();
		return;
	}
	rq->nr_switches++;
	if (preempt || prev_state == TASK_RUNNING)
		prev->nivcsw++;
	else
		prev->nvcsw++;
	rq->curr = next;
	next->on_cpu = 1;
	trace_sched_switch(preempt, prev, next, prev_state);
	this_cpu_write(current_task, next);
	arch_switch_to(prev, next);
	prev = __switch_to_asm(&prev->thread.sp, next->thread.sp, prev);
	/* Now on next's stack, maybe on another CPU than when it last ran. */
	finish_task_switch(prev);
}

static void warn_atomic_schedule(void)
{
	printk(KERN_ERR "BUG: scheduling while atomic: %s/%d/0x%08lx\n",
	       current->comm, current->pid, preempt_count());
}

void schedule(void)
{
	if (unlikely(preempt_count() || irqs_disabled()))
		warn_atomic_schedule();
	do {
		preempt_disable();
		__schedule(false);
		preempt_enable_no_resched();
	} while (this_cpu_read(need_resched));
}

void do_task_dead(void)
{
	unsigned long flags;

	preempt_disable();
	/*
	 * Under pi_lock, which a waker holds from its state check to the
	 * enqueue: one that saw us in a sleep we have since left finishes
	 * first, or sees TASK_DEAD and leaves us alone. Otherwise it could
	 * queue us again once the switch below has freed our stack.
	 */
	spin_lock_irqsave(&current->pi_lock, flags);
	__set_current_state(TASK_DEAD);
	spin_unlock_irqrestore(&current->pi_lock, flags);
	__schedule(false);
	BUG();
}

void preempt_schedule(void)
{
	/* spin_unlock with irqs still off ends up here: the next preemption point will do */
	if (preempt_count() || irqs_disabled())
		return;
	do {
		preempt_disable();
		__schedule(true);
		preempt_enable_no_resched();
	} while (this_cpu_read(need_resched));
}

void preempt_schedule_irq(void)
{
	do {
		preempt_disable();
		local_irq_enable();
		__schedule(true);
		local_irq_disable();
		preempt_enable_no_resched();
	} while (this_cpu_read(need_resched));
}

void yield(void)
{
	this_cpu_write(need_resched, 1);
	preempt_schedule();
}

bool wake_up_state(struct task_struct *p, unsigned int state)
{
	unsigned long flags;
	bool woken = false;
	struct rq *rq;
	int cpu, flags_enq = ENQUEUE_WAKEUP, kick = -1;

	spin_lock_irqsave(&p->pi_lock, flags);
	smp_mb();
	if (!(task_state(p) & state))
		goto out;
	trace_sched_waking(p);

	/* Still on a run queue (running, or not yet through schedule): just make it runnable. */
	for (;;) {
		rq = cpu_rq(task_cpu(p));
		rq_lock(rq);
		if (rq->cpu == task_cpu(p))
			break;
		rq_unlock(rq);
	}
	if (p->on_rq) {
		WRITE_ONCE(p->__state, TASK_RUNNING);
		trace_sched_wakeup(p);
		rq_unlock(rq);
		woken = true;
		goto out;
	}
	rq_unlock(rq);

	/* Asleep. It may still be switching out: its stack is in use until on_cpu clears. */
	while (smp_load_acquire(&p->on_cpu))
		cpu_relax();
	cpu = select_task_rq(p, task_cpu(p), nr_cpu_ids);
	rq = cpu_rq(cpu);
	rq_lock(rq);
	if (cpu != task_cpu(p)) {
		p->vruntime -= READ_ONCE(cpu_rq(task_cpu(p))->min_vruntime);
		flags_enq |= ENQUEUE_MIGRATED;
		rq->nr_migrations++;
		trace_sched_migrate_task(p, cpu);
		WRITE_ONCE(p->cpu, cpu);
	}
	WRITE_ONCE(p->__state, TASK_RUNNING);
	enqueue_task_fair(rq, p, flags_enq);
	trace_sched_wakeup(p);
	if (check_preempt_wakeup(rq, p))
		kick = resched_curr(rq);
	rq_unlock(rq);
	woken = true;
out:
	spin_unlock_irqrestore(&p->pi_lock, flags);
	resched_kick(kick);
	return woken;
}

bool wake_up_process(struct task_struct *p)
{
	return wake_up_state(p, TASK_NORMAL);
}

void wake_up_new_task(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	int cpu, kick = -1;

	spin_lock_irqsave(&p->pi_lock, flags);
	cpu = select_task_rq(p, smp_processor_id(), nr_cpu_ids);
	rq = cpu_rq(cpu);
	rq_lock(rq);
	p->cpu = cpu;
	WRITE_ONCE(p->__state, TASK_RUNNING);
	enqueue_task_fair(rq, p, ENQUEUE_NEW);
	trace_sched_wakeup_new(p);
	if (check_preempt_wakeup(rq, p))
		kick = resched_curr(rq);
	rq_unlock(rq);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	resched_kick(kick);
}

void set_user_nice(struct task_struct *p, int nice)
{
	unsigned long flags;
	struct rq *rq;

	if (nice < MIN_NICE)
		nice = MIN_NICE;
	if (nice > MAX_NICE)
		nice = MAX_NICE;
	spin_lock_irqsave(&p->pi_lock, flags);
	rq = cpu_rq(task_cpu(p));
	rq_lock(rq);
	/* the weight is part of the queue's total: take it out and back in */
	if (p->on_rq)
		rq->total_weight -= p->weight;
	p->static_prio = p->prio = NICE_TO_PRIO(nice);
	p->weight = sched_prio_to_weight(p->prio);
	if (p->on_rq)
		rq->total_weight += p->weight;
	rq_unlock(rq);
	spin_unlock_irqrestore(&p->pi_lock, flags);
}

void kthread_bind(struct task_struct *p, int cpu)
{
	p->cpus_allowed = 1ULL << cpu;
	p->cpu = cpu;
	p->flags |= PF_NO_SETAFFINITY;
}

/* Pulls one waiting task from the busiest CPU if it is clearly busier. */
static bool pull_one_task(int this_cpu)
{
	struct rq *this = cpu_rq(this_cpu), *src;
	struct task_struct *p = NULL;
	unsigned long flags;
	int busiest = find_busiest_cpu(this_cpu, nr_cpu_ids);

	if (busiest < 0)
		return false;
	src = cpu_rq(busiest);
	local_irq_save(flags);
	double_rq_lock(this, src);
	if (src->nr_running >= this->nr_running + 2)
		p = pick_migratable_task(src, this_cpu);
	if (p) {
		trace_sched_migrate_task(p, this_cpu);
		move_queued_task(src, this, p);
		if (check_preempt_wakeup(this, p))
			resched_curr(this);
	}
	double_rq_unlock(this, src);
	local_irq_restore(flags);
	return p != NULL;
}

static void run_rebalance(void)
{
	pull_one_task(smp_processor_id());
}

void scheduler_tick(void)
{
	struct rq *rq = this_rq();

	rq_lock(rq);
	update_curr(rq);
	if (check_preempt_tick(rq))
		resched_curr(rq);
	if (--rq->balance_ticks == 0) {
		rq->balance_ticks = SCHED_BALANCE_INTERVAL;
		if (nr_cpu_ids > 1)
			raise_softirq_irqoff(SCHED_SOFTIRQ);
	}
	rq_unlock(rq);
}

static void process_timeout(struct timer_list *t);

/* A sleeping task's alarm clock. */
struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	wake_up_process(container_of(t, struct process_timer, timer)->task);
}

long schedule_timeout(long timeout)
{
	struct process_timer pt;
	unsigned long expire;
	long left;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + (unsigned long)timeout;
	pt.task = current;
	timer_setup(&pt.timer, process_timeout);
	mod_timer(&pt.timer, expire);
	schedule();
	del_timer_sync(&pt.timer);
	left = (long)(expire - jiffies);
	return left < 0 ? 0 : left;
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

/*
 * Jiffies alone could end a sleep early: a tick delivered late (a busy
 * host delays the vCPU) is followed by one on schedule. The clock decides.
 */
static long msleep_timeout(u64 end_ns)
{
	u64 now = ktime_get_ns();

	if (now >= end_ns)
		return 0;
	return (long)msecs_to_jiffies((unsigned int)DIV_ROUND_UP(end_ns - now, NSEC_PER_MSEC)) + 1;
}

void msleep(unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	long timeout;

	while ((timeout = msleep_timeout(end)))
		schedule_timeout_uninterruptible(timeout);
}

unsigned long msleep_interruptible(unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	long timeout;

	while ((timeout = msleep_timeout(end)) && !signal_pending(current))
		schedule_timeout_interruptible(timeout);
	return timeout ? jiffies_to_msecs((unsigned long)timeout - 1) : 0;
}

void sched_cpu_stats(int cpu, struct sched_cpu_stats *st)
{
	struct rq *rq = cpu_rq(cpu);

	st->nr_switches = READ_ONCE(rq->nr_switches);
	st->nr_migrations = READ_ONCE(rq->nr_migrations);
	st->nr_running = READ_ONCE(rq->nr_running);
	st->idle_ns = rq->idle ? READ_ONCE(rq->idle->sum_exec_runtime) : 0;
}

/* swapper/N: pull work when there is none, else halt until an interrupt. */
static __noreturn void do_idle(void)
{
	int cpu = smp_processor_id();

	local_irq_enable();
	for (;;) {
		while (!this_cpu_read(need_resched)) {
			if (nr_cpu_ids > 1 && pull_one_task(cpu))
				continue;
			local_irq_disable();
			/* sti takes effect after hlt starts: a wake-up IPI cannot slip in between */
			if (!this_cpu_read(need_resched))
				safe_halt();
			else
				local_irq_enable();
		}
		preempt_disable();
		__schedule(false);
		preempt_enable_no_resched();
	}
}

struct task_struct *idle_task_create(int cpu)
{
	char name[TASK_COMM_LEN];
	struct task_struct *idle;
	struct rq *rq = cpu_rq(cpu);

	snprintf(name, sizeof(name), "swapper/%d", cpu);
	idle = task_alloc(name, 0);
	BUG_ON(IS_ERR(idle));
	idle->pid = 0;
	idle->flags |= PF_IDLE | PF_KTHREAD;
	idle->cpus_allowed = 1ULL << cpu;
	idle->cpu = cpu;
	idle->on_cpu = 1;
	idle->exec_start = ktime_get_ns();
	rq->idle = rq->curr = idle;
	return idle;
}

void sched_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		rq_init(cpu_rq(cpu), cpu);
	this_cpu_write(current_task, idle_task_create(0));
	this_rq()->online = true;
	open_softirq(SCHED_SOFTIRQ, run_rebalance);
	init_timers();
}

void cpu_startup_entry(void)
{
	WRITE_ONCE(this_rq()->online, true);
	do_idle();
}

void sched_start_init(int (*fn)(void *), void *arg)
{
	struct task_struct *init = kthread_create(fn, arg, "init");
	struct task_struct *idle = current;
	int cpu;

	BUG_ON(IS_ERR(init) || init->pid != 1);
	for_each_possible_cpu(cpu)
		if (cpu_online(cpu))
			spawn_ksoftirqd(cpu);
	/* Before init runs: on another CPU its first prompt would come first. */
	printk(KERN_INFO "Spoor ready in %lu us\n", (unsigned long)(ktime_get_ns() / NSEC_PER_USEC));
	wake_up_new_task(init);
	/* The boot stack is small and in the image: swapper/0 continues on its own. */
	call_on_stack(do_idle, (unsigned long)idle->stack + THREAD_SIZE);
}
