/*
 * Task bookkeeping that involves no CPU state: the task list, pids,
 * names, and the prev_state encoding of sched_switch. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/sched/sched.h>

DEFINE_PER_CPU(struct task_struct *, current_task);
DEFINE_SPINLOCK(tasklist_lock);
LIST_HEAD(task_list);

static pid_t last_pid;

void set_task_comm(struct task_struct *p, const char *name)
{
	strscpy(p->comm, name, sizeof(p->comm));
}

_Static_assert(offsetof(struct task_struct, ret_stack.frames) +
	       sizeof(((struct task_struct *)0)->ret_stack.frames) == sizeof(struct task_struct),
	       "the shadow stack's frames end task_struct: task_init_common leaves them unzeroed");

void task_init_common(struct task_struct *p, const char *name, int nice)
{
	memset(p, 0, offsetof(struct task_struct, ret_stack.frames));
	set_task_comm(p, name);
	p->static_prio = p->prio = NICE_TO_PRIO(nice);
	p->weight = sched_prio_to_weight(p->prio);
	spin_lock_init(&p->pi_lock);
	INIT_LIST_HEAD(&p->run_node);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->tasks);
	init_waitqueue_head(&p->wait_chldexit);
	p->cpus_allowed = ~0ULL;
	p->refcount = 1;
	p->syscall_nr = -1;
}

struct task_struct *find_task_by_pid(pid_t pid)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks)
		if (p->pid == pid)
			return p;
	return NULL;
}

pid_t alloc_pid(void)
{
	for (int tries = 0; tries < PID_MAX; tries++) {
		pid_t pid = last_pid + 1 >= PID_MAX ? 1 : last_pid + 1;

		last_pid = pid;
		if (!find_task_by_pid(pid))
			return pid;
	}
	return -EAGAIN;
}

long __trace_sched_switch_state(bool preempt, unsigned int prev_state, const struct task_struct *p)
{
	unsigned int state;

	if (preempt)
		return TASK_REPORT_MAX;
	state = (prev_state | p->exit_state) & TASK_REPORT;
	if (prev_state == TASK_IDLE)
		state = TASK_REPORT_IDLE;
	/* 1 << (index of the highest bit): fls(state) is that index + 1 */
	return state ? 1L << (31 - __builtin_clz(state)) : 0;
}
