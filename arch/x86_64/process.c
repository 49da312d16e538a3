/* A new kernel thread's first stack frame (see arch/x86_64/switch.S). */
#include <kernel/types.h>
#include <kernel/sched.h>
#include <asm/switch_to.h>

void ret_from_kthread(void);

/* The registers __switch_to_asm pops, lowest address first, then its return address. */
struct inactive_task_frame {
	unsigned long r15, r14, r13, r12, rbx, rbp;
	unsigned long ret_addr;
};

void arch_init_task_stack(struct task_struct *p, int (*fn)(void *), void *arg)
{
	unsigned long top = (unsigned long)p->stack + THREAD_SIZE;
	/* ret pops ret_addr, leaving rsp = top: 16-byte aligned, as at a call site */
	struct inactive_task_frame *f = (struct inactive_task_frame *)top - 1;

	*f = (struct inactive_task_frame){
		.rbx = (unsigned long)fn,
		.r12 = (unsigned long)arg,
		.ret_addr = (unsigned long)ret_from_kthread,
	};
	p->thread.sp = (unsigned long)f;
}
