/* Creating kernel threads. */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/vmalloc.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/sched/sched.h>
#include <kernel/sched/hooks.h>
#include <asm/switch_to.h>
#include <kernel/signal.h>

_Static_assert(KERNEL_STACK_SIZE == THREAD_SIZE, "task stacks come from alloc_kernel_stack");

struct task_struct *task_alloc(const char *name, int nice)
{
	struct task_struct *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return ERR_PTR(-ENOMEM);
	task_init_common(p, name, nice);
	/* in the kernel virtual area, with a guard page below: an overflow faults */
	p->stack = alloc_kernel_stack();
	if (!p->stack) {
		kfree(p);
		return ERR_PTR(-ENOMEM);
	}
	p->__state = TASK_NEW;
	p->start_time_ns = ktime_get_ns();
	return p;
}

void task_free_stack(struct task_struct *p)
{
	if (p->stack)
		free_kernel_stack(p->stack);
	p->stack = NULL;
}

void get_task_struct(struct task_struct *p)
{
	__atomic_add_fetch(&p->refcount, 1, __ATOMIC_RELAXED);
}

void put_task_struct(struct task_struct *p)
{
	if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
		trace_sched_process_free(p);
		exit_signal_state(p);
		task_free_stack(p);
		kfree(p);
	}
}

/*
 * The child of current, unless current is an idle task: then nobody will
 * wait for it and it is reaped at exit. A waitable child holds a second
 * reference, the one its reaper drops.
 */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *namefmt, ...)
{
	struct task_struct *parent = current, *p;
	char name[TASK_COMM_LEN];
	unsigned long flags;
	va_list ap;
	pid_t pid;

	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	p = task_alloc(name, 0);
	if (IS_ERR(p))
		return p;
	p->flags = PF_KTHREAD;
	p->threadfn = fn;
	p->data = arg;
	p->cpu = task_cpu(parent);
	arch_init_task_stack(p, fn, arg);

	spin_lock_irqsave(&tasklist_lock, flags);
	pid = alloc_pid();
	if (pid < 0) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		put_task_struct(p);
		return ERR_PTR(pid);
	}
	p->pid = p->tgid = pid;
	if (is_idle_task(parent)) {
		p->flags |= PF_AUTOREAP;
	} else {
		p->parent = parent;
		list_add_tail(&p->sibling, &parent->children);
		get_task_struct(p);
	}
	list_add_tail(&p->tasks, &task_list);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	trace_sched_process_fork(parent, p);
	return p;
}

/* A kthread's function returned ret: that is its exit code. */
__noreturn void kthread_exit(int ret);
void kthread_exit(int ret)
{
	do_exit((ret & 0xff) << 8);
}
