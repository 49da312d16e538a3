/* Creating kernel threads. */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/vmalloc.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/uprobes.h>
#include <kernel/time.h>
#include <kernel/sched/sched.h>
#include <kernel/sched/hooks.h>
#include <asm/switch_to.h>
#include <kernel/signal.h>

_Static_assert(KERNEL_STACK_SIZE == THREAD_SIZE, "task stacks come from alloc_kernel_stack");

struct task_struct *task_alloc(const char *name, int nice)
{
	struct task_struct *p = kmem_cache_alloc(task_struct_cachep, GFP_KERNEL);

	if (!p)
		return ERR_PTR(-ENOMEM);
	task_init_common(p, name, nice);
	/* in the kernel virtual area, with a guard page below: an overflow faults */
	p->stack = alloc_kernel_stack();
	if (!p->stack) {
		kmem_cache_free(task_struct_cachep, p);
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
		uprobe_free_utask(p);
		task_free_stack(p);
		kmem_cache_free(task_struct_cachep, p);
	}
}

/*
 * The child of current, unless current is an idle task: then nobody will
 * wait for it and it is reaped at exit. A waitable child holds a second
 * reference, the one its reaper drops. Made by kernel_clone, as Linux's
 * kernel threads are, and left for the caller to start.
 */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *namefmt, ...)
{
	char name[TASK_COMM_LEN];
	struct task_struct *p;
	struct kernel_clone_args args = { .fn = fn, .fn_arg = arg, .name = name, .created = &p };
	va_list ap;
	pid_t pid;

	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	pid = kernel_clone(&args);
	return pid < 0 ? ERR_PTR(pid) : p;
}

/* A kthread's function returned ret: that is its exit code. */
__noreturn void kthread_exit(int ret);
void kthread_exit(int ret)
{
	do_exit((ret & 0xff) << 8);
}
