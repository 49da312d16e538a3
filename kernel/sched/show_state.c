/*
 * Every task with its state and, when it is not running, where it sleeps:
 * Linux's "Show State" (SysRq t), for a system that seems stuck. Also run
 * for an NMI nobody claims (QEMU's monitor `nmi`), since a hung guest with
 * every CPU idle still takes NMIs: that is how a lost wake-up shows which
 * task waits where.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/spinlock.h>
#include <kernel/stacktrace.h>
#include <kernel/sched/sched.h>

/* Linux's one-letter task states (task_state_to_char): /proc/PID and Show State. */
char task_state_char(const struct task_struct *p)
{
	unsigned int state = task_state(p);

	if (p->exit_state & EXIT_ZOMBIE)
		return 'Z';
	if (p->exit_state & EXIT_DEAD)
		return 'X';
	if (state == TASK_RUNNING)
		return 'R';
	if (state & TASK_INTERRUPTIBLE)
		return 'S';
	if ((state & TASK_IDLE) == TASK_IDLE)
		return 'I';
	if (state & TASK_UNINTERRUPTIBLE)
		return 'D';
	if (state & __TASK_STOPPED)
		return 'T';
	if (state & __TASK_TRACED)
		return 't';
	if (state & TASK_PARKED)
		return 'P';
	return 'R';
}

static void show_task(struct task_struct *p)
{
	unsigned long entries[16];
	unsigned int n;

	printk(KERN_INFO "task:%-15.15s state:%c stack:0     pid:%-5d tgid:%-5d ppid:%-6d flags:0x%08x\n",
	       p->comm, task_state_char(p), p->pid, p->tgid, p->parent ? p->parent->pid : 0, p->flags);
	if (READ_ONCE(p->on_cpu)) {
		printk(KERN_INFO " running on CPU %d\n", task_cpu(p));
		return;
	}
	n = stack_trace_save_tsk(p, entries, ARRAY_SIZE(entries));
	printk(KERN_INFO "Call Trace:\n");
	printk(KERN_INFO " <TASK>\n");
	for (unsigned int i = 0; i < n; i++)
		printk(KERN_INFO " %pS\n", (void *)entries[i]);
	printk(KERN_INFO " </TASK>\n");
}

void show_state(void)
{
	/* From an NMI the lock may be held under us: then walk without it. */
	bool locked = spin_trylock(&tasklist_lock);
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks)
		show_task(p);
	if (locked)
		spin_unlock(&tasklist_lock);
}

void sched_show_cpu(void)
{
	struct rq *rq = this_rq();
	struct task_struct *curr = READ_ONCE(rq->curr);

	printk(KERN_INFO "CPU %d rq: curr %s/%d, nr_running %u, need_resched %d, switches %llu\n",
	       smp_processor_id(), curr ? curr->comm : "-", curr ? curr->pid : -1,
	       READ_ONCE(rq->nr_running), this_cpu_read(need_resched),
	       (unsigned long long)READ_ONCE(rq->nr_switches));
}
