/*
 * Task exit and reaping. An exiting task becomes a zombie that keeps its
 * pid and exit status until its parent collects them with kernel_wait;
 * tasks nobody will wait for (children of an idle task, and orphans,
 * which init adopts) are released as soon as they exit.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/sched/sched.h>
#include <kernel/sched/hooks.h>

void task_free_stack(struct task_struct *p);

/* Caller holds tasklist_lock. */
static void unhash_task(struct task_struct *p)
{
	list_del_init(&p->tasks);
	list_del_init(&p->sibling);
	p->exit_state = EXIT_DEAD;
}

/* init adopts tsk's children and will not wait for them. Caller holds tasklist_lock. */
static void forget_original_parent(struct task_struct *tsk)
{
	struct task_struct *init = find_task_by_pid(1);
	struct task_struct *c, *n;

	list_for_each_entry_safe(c, n, &tsk->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = init;
		c->flags |= PF_AUTOREAP;
		if (c->exit_state == EXIT_ZOMBIE)
			unhash_task(c);
		put_task_struct(c);	/* the reaper's reference: nobody will reap it */
	}
}

void do_exit(int code)
{
	struct task_struct *tsk = current;
	unsigned long flags;

	if (is_idle_task(tsk) || tsk->pid == 1)
		panic("Attempted to kill %s! exitcode=0x%08x", tsk->comm, code);
	tsk->flags |= PF_EXITING;
	trace_sched_process_exit(tsk, true);

	spin_lock_irqsave(&tasklist_lock, flags);
	forget_original_parent(tsk);
	tsk->exit_code = code;
	if (tsk->flags & PF_AUTOREAP) {
		unhash_task(tsk);
	} else {
		tsk->exit_state = EXIT_ZOMBIE;
		__wake_up(&tsk->parent->wait_chldexit, TASK_INTERRUPTIBLE, 0, NULL);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);

	do_task_dead();
}

void task_dead(struct task_struct *prev)
{
	task_free_stack(prev);
	put_task_struct(prev);
}

pid_t kernel_wait(pid_t pid, int *status)
{
	struct task_struct *tsk = current, *c, *zombie;
	DEFINE_WAIT(wait);
	unsigned long flags;
	pid_t ret;

	for (;;) {
		bool found = false;

		zombie = NULL;
		prepare_to_wait(&tsk->wait_chldexit, &wait, TASK_INTERRUPTIBLE);
		spin_lock_irqsave(&tasklist_lock, flags);
		list_for_each_entry(c, &tsk->children, sibling) {
			if (pid > 0 && c->pid != pid)
				continue;
			found = true;
			if (c->exit_state == EXIT_ZOMBIE) {
				zombie = c;
				unhash_task(c);
				break;
			}
		}
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (zombie) {
			ret = zombie->pid;
			if (status)
				*status = zombie->exit_code;
			put_task_struct(zombie);
			break;
		}
		if (!found) {
			ret = -ECHILD;
			break;
		}
		if (signal_pending(tsk)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&tsk->wait_chldexit, &wait);
	return ret;
}
