/*
 * Task exit and reaping. An exiting task becomes a zombie that keeps its
 * pid and exit status until its parent collects them with do_wait;
 * tasks nobody will wait for (children of an idle task, orphans, which
 * init adopts, and the threads of a process) are released as soon as
 * they exit. A process (thread group) is reapable once its last thread
 * has exited.
 */
#include <kernel/kprobes.h>
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/mman.h>
#include <kernel/wait.h>
#include <kernel/futex.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fdtable.h>
#include <kernel/sched/sched.h>
#include <kernel/sched/hooks.h>
#include <asm/uaccess.h>
#include <asm/cpu.h>

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
	struct task_struct *c, *n, *t;

	list_for_each_entry_safe(c, n, &tsk->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = init;
		/*
		 * Its other threads name tsk as parent too (fork gives a thread
		 * its creator's parent) but are on no list of ours: without this
		 * they would point at tsk after it is freed, and a fork with
		 * CLONE_PARENT or the SIGCHLD of such a child would write there.
		 */
		if (c->signal)
			list_for_each_entry(t, &c->signal->threads, thread_node)
				t->parent = init;
		c->flags |= PF_AUTOREAP;
		if (c->exit_state == EXIT_ZOMBIE && (!c->signal || !c->signal->live))
			unhash_task(c);
		put_task_struct(c);	/* the reaper's reference: nobody will reap it */
	}
}

/* A thread group is over when its last thread is: its leader may be reaped. */
static bool group_dead(const struct task_struct *p)
{
	return !p->signal || !READ_ONCE(p->signal->live);
}

/* The ring-3 half of exit: the address space, the child-tid word, the group's count. */
static bool exit_process_state(struct task_struct *tsk)
{
	struct mm_struct *mm = tsk->mm;
	unsigned long flags;
	bool last = true;

	if (mm) {
		unsigned long ctid = tsk->clear_child_tid;

		/* CLONE_CHILD_CLEARTID: pthread_join waits on this word. */
		if (ctid && mm->mm_users > 1 && !put_user(0, (int *)ctid))
			futex_wake(ctid, 1);
		/* Under tasklist_lock: /proc readers take their mm references under it. */
		spin_lock_irqsave(&tasklist_lock, flags);
		tsk->mm = NULL;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		mmput(mm);
	}
	if (tsk->signal) {
		last = __atomic_sub_fetch(&tsk->signal->live, 1, __ATOMIC_ACQ_REL) == 0;
		if (last)
			del_timer_sync(&tsk->signal->real_timer);
	}
	return last;
}

void do_exit(int code)
{
	struct task_struct *tsk = current, *leader, *parent = NULL;
	unsigned long flags;
	bool last, notify;

	if (is_idle_task(tsk) || tsk->pid == 1)
		panic("Attempted to kill %s! exitcode=0x%08x", tsk->comm, code);
	tsk->flags |= PF_EXITING;
	kretprobe_flush_task(tsk);
	trace_sched_process_exit(tsk, true);
	last = exit_process_state(tsk);
	vfork_release(tsk);
	exit_files(tsk);
	exit_fs(tsk);

	spin_lock_irqsave(&tasklist_lock, flags);
	forget_original_parent(tsk);
	tsk->exit_code = code;
	if (tsk->signal && tsk->signal->group_exit)
		tsk->exit_code = tsk->signal->group_exit_code;
	leader = tsk->signal ? tsk->signal->leader : tsk;
	if (tsk->signal) {
		list_del_init(&tsk->thread_node);
		usage_account_exit(tsk);
	}
	if (tsk->flags & PF_AUTOREAP) {
		unhash_task(tsk);
	} else {
		tsk->exit_state = EXIT_ZOMBIE;
	}
	/*
	 * A leader that became a zombie before its parent died was adopted
	 * with nobody to reap it (forget_original_parent): it leaves the task
	 * list with its group, before the put below may free it.
	 */
	if (last && leader != tsk && leader->exit_state == EXIT_ZOMBIE &&
	    (leader->flags & PF_AUTOREAP))
		unhash_task(leader);
	/* The group's end is what its parent waits for, whichever thread ends last. */
	notify = last && leader->exit_state == EXIT_ZOMBIE && !(leader->flags & PF_AUTOREAP);
	if (notify) {
		if (leader != tsk && tsk->signal->group_exit)
			leader->exit_code = tsk->signal->group_exit_code;
		__wake_up(&leader->parent->wait_chldexit, TASK_INTERRUPTIBLE, 0, NULL);
		/* Once we unlock, the parent may exit and be reaped: hold it for the signal. */
		parent = leader->parent;
		if (parent)
			get_task_struct(parent);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (parent) {
		notify_parent(leader, parent);
		put_task_struct(parent);
	}
	/* The group held its leader so the last thread could find it (signal_init_process). */
	if (last && tsk->signal)
		put_task_struct(leader);
	do_task_dead();
}

void do_group_exit(int code)
{
	struct signal_struct *sig = current->signal;
	struct task_struct *t;
	unsigned long flags;

	if (sig) {
		spin_lock_irqsave(&current->sighand->lock, flags);
		if (sig->group_exit) {
			code = sig->group_exit_code;
		} else {
			sig->group_exit = true;
			sig->group_exit_code = code;
		}
		list_for_each_entry(t, &sig->threads, thread_node)
			if (t != current) {
				__atomic_or_fetch(&t->pending_signals, sigmask(SIGKILL), __ATOMIC_SEQ_CST);
				wake_up_state(t, TASK_INTERRUPTIBLE | TASK_WAKEKILL);
			}
		spin_unlock_irqrestore(&current->sighand->lock, flags);
	}
	do_exit(code);
}

void task_dead(struct task_struct *prev)
{
	task_free_stack(prev);
	put_task_struct(prev);
}

/* Does child c match wait's pid argument (Linux's: > 0 pid, -1 any, 0 own group, < -1 group)? */
static bool wait_matches(const struct task_struct *c, pid_t pid)
{
	pid_t pgrp = c->signal ? c->signal->pgrp : c->pid;
	pid_t mine = current->signal ? current->signal->pgrp : current->pid;

	if (pid > 0)
		return c->pid == pid;
	if (pid == -1)
		return true;
	return pgrp == (pid == 0 ? mine : -pid);
}

pid_t do_wait(pid_t pid, int *status, int options)
{
	struct task_struct *tsk = current, *c, *zombie;
	DEFINE_WAIT(wait);
	unsigned long flags;
	pid_t ret;

	trace_sched_process_wait(tsk, pid > 0 ? pid : 0);
	for (;;) {
		bool found = false;

		zombie = NULL;
		prepare_to_wait(&tsk->wait_chldexit, &wait, TASK_INTERRUPTIBLE);
		spin_lock_irqsave(&tasklist_lock, flags);
		list_for_each_entry(c, &tsk->children, sibling) {
			if (!wait_matches(c, pid) || c->exit_signal < 0)
				continue;
			found = true;
			if (c->exit_state == EXIT_ZOMBIE && group_dead(c)) {
				zombie = c;
				if (!(options & WNOWAIT)) {
					unhash_task(c);
					usage_account_reap(tsk, c);
				}
				break;
			}
		}
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (zombie) {
			ret = zombie->pid;
			if (status)
				*status = zombie->exit_code;
			if (!(options & WNOWAIT))
				put_task_struct(zombie);
			break;
		}
		if (!found) {
			ret = -ECHILD;
			break;
		}
		if (options & WNOHANG) {
			ret = 0;
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

pid_t kernel_wait(pid_t pid, int *status)
{
	return do_wait(pid, status, 0);
}
