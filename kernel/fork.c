/*
 * kernel_clone, where tasks are made: kernel threads (kthread_create) and
 * fork, vfork and clone for ring-3 tasks, a new task whose first return
 * to ring 3 resumes the parent's registers with rax = 0. What is shared
 * and what is copied follows Linux's clone flags (CLONE_VM, CLONE_FS,
 * CLONE_FILES, CLONE_SIGHAND, CLONE_THREAD, ...).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/sched.h>
#include <kernel/uprobes.h>
#include <kernel/signal.h>
#include <kernel/mman.h>
#include <kernel/time.h>
#include <kernel/fs/fdtable.h>
#include <kernel/sched/sched.h>
#include <kernel/sched/hooks.h>
#include <kernel/syscalls.h>
#include <asm/switch_to.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>
#include <asm/cpu.h>

struct task_struct *task_alloc(const char *name, int nice);

struct kmem_cache *task_struct_cachep, *sighand_cachep, *signal_cachep, *mm_cachep, *vm_area_cachep;

/* The caches of what a fork copies, with Linux's names and alignments. */
void proc_caches_init(void)
{
	task_struct_cachep = KMEM_CACHE(task_struct, SLAB_PANIC);
	sighand_cachep = kmem_cache_create("sighand_cache", sizeof(struct sighand_struct), 0,
					   SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
	signal_cachep = kmem_cache_create("signal_cache", sizeof(struct signal_struct), 0,
					  SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
	mm_cachep = kmem_cache_create("mm_struct", sizeof(struct mm_struct), 0,
				      SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
	vm_area_cachep = KMEM_CACHE(vm_area_struct, SLAB_PANIC);
}

int copy_sighand(struct task_struct *p, unsigned long clone_flags)
{
	struct sighand_struct *old = current->sighand;

	if (clone_flags & CLONE_SIGHAND) {
		__atomic_add_fetch(&old->count, 1, __ATOMIC_RELAXED);
		p->sighand = old;
		return 0;
	}
	p->sighand = kmem_cache_alloc(sighand_cachep, GFP_KERNEL);
	if (!p->sighand)
		return -ENOMEM;
	memcpy(p->sighand->action, old->action, sizeof(old->action));
	p->sighand->count = 1;
	spin_lock_init(&p->sighand->lock);
	return 0;
}

int copy_signal(struct task_struct *p, unsigned long clone_flags)
{
	struct signal_struct *sig;

	if (clone_flags & CLONE_THREAD) {
		sig = current->signal;
		__atomic_add_fetch(&sig->count, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&sig->live, 1, __ATOMIC_RELAXED);
		p->signal = sig;
		p->tgid = current->tgid;
		p->exit_signal = -1;
		p->flags |= PF_AUTOREAP;
		return 0;
	}
	sig = signal_alloc(p, current->signal->pgrp, current->signal->session);
	if (!sig)
		return -ENOMEM;
	p->signal = sig;
	p->exit_signal = (int)(clone_flags & CSIGNAL);
	return 0;
}

void exit_signal_state(struct task_struct *p)
{
	if (p->thread.fpu)
		fpu_free(p->thread.fpu);
	p->thread.fpu = NULL;
	if (p->sighand && !__atomic_sub_fetch(&p->sighand->count, 1, __ATOMIC_ACQ_REL))
		kmem_cache_free(sighand_cachep, p->sighand);
	p->sighand = NULL;
	if (p->signal && !__atomic_sub_fetch(&p->signal->count, 1, __ATOMIC_ACQ_REL))
		kmem_cache_free(signal_cachep, p->signal);
	p->signal = NULL;
}

/* A user task's memory, files, fs, signal state and registers, from current's. */
static int copy_user_task(struct task_struct *p, const struct kernel_clone_args *args)
{
	struct task_struct *parent = current;
	u64 flags = args->flags;
	int err;

	p->cpus_allowed = parent->cpus_allowed;
	p->blocked = parent->blocked;
	p->sas = parent->sas;
	p->thread.fsbase = (flags & CLONE_SETTLS) ? args->tls : parent->thread.fsbase;
	p->thread.gsbase = parent->thread.gsbase;
	/* The parent's live registers are its state: save them before copying. */
	fpu_save(parent->thread.fpu);
	p->thread.fpu = fpu_dup(parent->thread.fpu);
	if (!p->thread.fpu)
		return -ENOMEM;
	if (flags & CLONE_VM) {
		mmget(parent->mm);
		p->mm = parent->mm;
	} else {
		p->mm = dup_mm(parent->mm);
		if (!p->mm)
			return -ENOMEM;
	}
	if (flags & CLONE_FILES) {
		__atomic_add_fetch(&parent->files->count, 1, __ATOMIC_RELAXED);
		p->files = parent->files;
	} else {
		p->files = dup_fd(parent->files);
		if (!p->files)
			return -ENOMEM;
	}
	if (flags & CLONE_FS) {
		__atomic_add_fetch(&parent->fs->count, 1, __ATOMIC_RELAXED);
		p->fs = parent->fs;
	} else {
		p->fs = copy_fs_struct(parent->fs);
		if (!p->fs)
			return -ENOMEM;
	}
	err = copy_sighand(p, flags);
	if (!err)
		err = copy_signal(p, flags | (u64)args->exit_signal);	/* clone's raw word */
	if (err)
		return err;
	arch_init_fork_stack(p, args->regs);
	if (args->stack)
		task_pt_regs(p)->rsp = args->stack;
	if (flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = args->child_tid;
	/* a thread starts with no calls of its own; a forked child has its parent's stack */
	return (flags & CLONE_VM) ? 0 : uprobe_copy_process(p, parent);
}

/* Linux's rules for the flag combinations threads need. */
static bool clone_flags_valid(const struct kernel_clone_args *args)
{
	u64 flags = args->flags;

	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return false;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return false;
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS))
		return false;
	/* A task made on behalf of its caller is not started: a vfork parent would wait forever. */
	if ((flags & CLONE_VFORK) && args->created)
		return false;
	/* The exit signal indexes the signal tables: Linux's valid_signal(). */
	return args->exit_signal >= 0 && args->exit_signal <= _NSIG;
}

/*
 * Every new task but the idle ones, as in Linux: a kernel thread running
 * args->fn (kthread_create), or a copy of the calling process (fork,
 * vfork, clone). Returns the child's pid, or -errno; the child is
 * started unless args->created asks for it.
 */
pid_t kernel_clone(struct kernel_clone_args *args)
{
	struct task_struct *parent = current, *p;
	u64 flags = args->flags;
	unsigned long irqf;
	int err;
	pid_t pid;

	if (!clone_flags_valid(args))
		return -EINVAL;
	if (!args->fn && !parent->mm)
		return -EINVAL;
	if (args->fn)
		p = task_alloc(args->name, 0);
	else
		p = task_alloc(parent->comm, task_nice(parent));
	if (IS_ERR(p))
		return PTR_ERR(p);
	p->cpu = task_cpu(parent);
	if (args->fn) {
		p->flags = PF_KTHREAD;
		p->threadfn = args->fn;
		p->data = args->fn_arg;
		arch_init_task_stack(p, args->fn, args->fn_arg);
		err = 0;
	} else {
		err = copy_user_task(p, args);
	}
	if (err)
		goto fail;

	spin_lock_irqsave(&tasklist_lock, irqf);
	pid = alloc_pid();
	if (pid < 0) {
		spin_unlock_irqrestore(&tasklist_lock, irqf);
		err = pid;
		goto fail;
	}
	p->pid = pid;
	if (!(flags & CLONE_THREAD))
		p->tgid = pid;
	if (is_idle_task(parent))
		p->flags |= PF_AUTOREAP;	/* a boot-time thread: nobody waits for it */
	else if (flags & (CLONE_THREAD | CLONE_PARENT))
		p->parent = parent->parent;
	else
		p->parent = parent;
	if (p->flags & PF_AUTOREAP) {
		/* a thread or a boot-time kthread: nobody waits for it */
	} else {
		list_add_tail(&p->sibling, &p->parent->children);
		get_task_struct(p);
	}
	list_add_tail(&p->tasks, &task_list);
	if (p->signal)
		list_add_tail(&p->thread_node, &p->signal->threads);
	spin_unlock_irqrestore(&tasklist_lock, irqf);

	if (flags & CLONE_PARENT_SETTID)
		put_user(pid, (int *)args->parent_tid);
	if (flags & CLONE_CHILD_SETTID) {
		/* In the child's memory: the same pages unless the mm was copied. */
		p->set_child_tid = args->child_tid;
	}
	trace_sched_process_fork(parent, p);
	if (args->created) {
		*args->created = p;
		return pid;
	}
	if (flags & CLONE_VFORK) {
		get_task_struct(p);
		p->vfork_parent = parent;
	}
	wake_up_new_task(p);
	if (flags & CLONE_VFORK) {
		/* The parent sleeps until the child has its own memory: exec or exit. */
		wait_event(parent->wait_chldexit, READ_ONCE(p->vfork_parent) == NULL);
		put_task_struct(p);
	}
	return pid;
fail:
	if (p->mm)
		mmput(p->mm);
	p->mm = NULL;
	put_files_struct(p->files);
	p->files = NULL;
	free_fs_struct(p->fs);
	p->fs = NULL;
	if (p->signal && !(flags & CLONE_THREAD))
		put_task_struct(p);	/* the group's reference on its leader */
	else if (p->signal)
		__atomic_sub_fetch(&p->signal->live, 1, __ATOMIC_RELAXED);
	put_task_struct(p);
	return err;
}

/* A vfork child let go of its parent's memory (exec, exit): wake the parent. */
void vfork_release(struct task_struct *p)
{
	struct task_struct *parent = p->vfork_parent;

	if (!parent)
		return;
	WRITE_ONCE(p->vfork_parent, NULL);
	wake_up_all(&parent->wait_chldexit);
}

SYSCALL_DEFINE_REGS(fork)
{
	struct kernel_clone_args args = { .exit_signal = SIGCHLD, .regs = regs };

	return kernel_clone(&args);
}

SYSCALL_DEFINE_REGS(vfork)
{
	struct kernel_clone_args args = {
		.flags = CLONE_VM | CLONE_VFORK, .exit_signal = SIGCHLD, .regs = regs,
	};

	return kernel_clone(&args);
}

SYSCALL_DEFINE_REGS(clone)
{
	/* x86_64: clone(flags, stack, parent_tid, child_tid, tls) */
	struct kernel_clone_args args = {
		.flags = regs->rdi & ~(u64)CSIGNAL, .exit_signal = (int)(regs->rdi & CSIGNAL),
		.stack = regs->rsi, .parent_tid = regs->rdx, .child_tid = regs->r10,
		.tls = regs->r8, .regs = regs,
	};

	return kernel_clone(&args);
}
