/*
 * The arch half of tasks: a new kernel thread's first stack frame, a
 * forked process's, and what the context switch changes besides the
 * stack (arch/x86_64/switch.S): the kernel stack ring 3 enters on, the
 * address space, the FS/GS bases and the FPU registers.
 */
#include <kernel/types.h>
#include <kernel/sched.h>
#include <kernel/mman.h>
#include <kernel/percpu.h>
#include <asm/switch_to.h>
#include <asm/segment.h>
#include <asm/ptrace.h>
#include <asm/page.h>
#include <asm/cpu.h>

void ret_from_kthread(void);
void ret_from_fork(void);

DECLARE_PER_CPU(unsigned long, cpu_kernel_rsp);
/* The mm whose tables are in this CPU's CR3 (referenced), NULL for the kernel's own. */
static DEFINE_PER_CPU(struct mm_struct *, cpu_loaded_mm);

/* The registers __switch_to_asm pops, lowest address first, then its return address. */
struct inactive_task_frame {
	unsigned long r15, r14, r13, r12, rbx, rbp;
	unsigned long ret_addr;
};

struct pt_regs *task_pt_regs(struct task_struct *p)
{
	return (struct pt_regs *)((unsigned long)p->stack + THREAD_SIZE) - 1;
}

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

void arch_init_fork_stack(struct task_struct *p, const struct pt_regs *regs)
{
	struct pt_regs *child = task_pt_regs(p);
	struct inactive_task_frame *f = (struct inactive_task_frame *)child - 1;

	*child = *regs;
	child->rax = 0;			/* fork/clone return 0 in the child */
	*f = (struct inactive_task_frame){ .ret_addr = (unsigned long)ret_from_fork };
	p->thread.sp = (unsigned long)f;
}

void arch_setup_user_regs(struct pt_regs *regs, unsigned long ip, unsigned long sp)
{
	*regs = (struct pt_regs){
		.rip = ip,
		.cs = GDT_USER_CS | 3,
		.rflags = 0x202,		/* IF */
		.rsp = sp,
		.ss = GDT_USER_DS | 3,
		.orig_ax = -1,
	};
}

/* Called by __schedule with interrupts off, before the stacks change. */
void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	unsigned long top = (unsigned long)next->stack + THREAD_SIZE;
	struct mm_struct *loaded = this_cpu_read(cpu_loaded_mm);

	if (prev->thread.fpu)
		fpu_save(prev->thread.fpu);
	if (!next->mm)
		return;			/* a kernel thread runs on whatever tables are loaded */
	tss_set_rsp0(top);
	this_cpu_write(cpu_kernel_rsp, top);
	if (next->mm != loaded) {
		mmgrab(next->mm);
		__atomic_or_fetch(&next->mm->cpu_mask, 1ULL << smp_processor_id(), __ATOMIC_SEQ_CST);
		load_cr3(next->mm->pgd);
		this_cpu_write(cpu_loaded_mm, next->mm);
		if (loaded)
			mmdrop(loaded);
	}
	load_fsgs_base(next->thread.fsbase, next->thread.gsbase);
	if (next->thread.fpu)
		fpu_restore(next->thread.fpu);
}

/*
 * current's mm changed (execve, exit): load it, or the kernel's tables when NULL.
 * With interrupts off, as arch_switch_to runs: preempted between reading this
 * CPU's loaded mm and writing it, the task could finish on another CPU and
 * drop the first CPU's reference to the mm it still holds loaded. That was the
 * walk_table panic: an mm dropped once too often lost its pgd while in use.
 */
void arch_activate_mm(struct mm_struct *mm)
{
	unsigned long top = (unsigned long)current->stack + THREAD_SIZE, flags;
	struct mm_struct *loaded;

	local_irq_save(flags);
	loaded = this_cpu_read(cpu_loaded_mm);
	/* A kernel thread becoming a process never went through arch_switch_to with an mm. */
	tss_set_rsp0(top);
	this_cpu_write(cpu_kernel_rsp, top);
	if (mm != loaded) {
		if (mm) {
			mmgrab(mm);
			__atomic_or_fetch(&mm->cpu_mask, 1ULL << smp_processor_id(), __ATOMIC_SEQ_CST);
			load_cr3(mm->pgd);
		} else {
			load_cr3(init_top_pgt);
		}
		this_cpu_write(cpu_loaded_mm, mm);
	}
	local_irq_restore(flags);
	/* Outside: the last drop frees the tables. This CPU no longer names it. */
	if (mm != loaded && loaded)
		mmdrop(loaded);
}
