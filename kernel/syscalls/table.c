/*
 * The system-call table and the path every call takes: the raw_syscalls
 * events around the call, and on the way out what is due before ring 3
 * runs again (a reschedule, signals, the CLONE_CHILD_SETTID word).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/percpu.h>
#include <kernel/syscalls.h>
#include <asm/irqflags.h>
#include <asm/uaccess.h>
#include <trace/events/raw_syscalls.h>

#define __SYSCALL(nr, name) long __x64_sys_##name(struct pt_regs *regs);
#include "syscall_list.h"
#undef __SYSCALL

static const syscall_fn_t sys_call_table[NR_syscalls] = {
#define __SYSCALL(nr, name) [nr] = __x64_sys_##name,
#include "syscall_list.h"
#undef __SYSCALL
};

DECLARE_PER_CPU(int, need_resched);

void syscall_exit_to_user_mode(struct pt_regs *regs)
{
	struct task_struct *t = current;

	if (unlikely(t->set_child_tid)) {
		put_user(t->pid, (int *)t->set_child_tid);
		t->set_child_tid = 0;
	}
	for (;;) {
		local_irq_disable();
		if (this_cpu_read(need_resched)) {
			local_irq_enable();
			schedule();
			continue;
		}
		if (signal_pending(t) || READ_ONCE(t->signal->group_exit)) {
			/* One signal per pass: a handler frame, an ignored one, or the end of the group. */
			local_irq_enable();
			do_signal(regs);
			continue;
		}
		/* rt_sigsuspend's mask ends with the call when no handler took it over. */
		if (unlikely(t->restore_sigmask)) {
			t->blocked = t->saved_sigmask;
			t->restore_sigmask = false;
			continue;
		}
		return;		/* with interrupts off, until iretq */
	}
}

void do_syscall_64(struct pt_regs *regs)
{
	long nr = regs->orig_ax, ret;
	unsigned long args[6];

	local_irq_enable();
	if (static_branch_unlikely(&__tracepoint_sys_enter.key)) {
		args[0] = regs->rdi; args[1] = regs->rsi; args[2] = regs->rdx;
		args[3] = regs->r10; args[4] = regs->r8; args[5] = regs->r9;
		__do_trace_sys_enter(nr, args);
	}
	if ((unsigned long)nr < NR_syscalls && sys_call_table[nr])
		ret = sys_call_table[nr](regs);
	else
		ret = -ENOSYS;
	regs->rax = (unsigned long)ret;
	trace_sys_exit(nr, ret);
	current->syscall_nr = nr;
	syscall_exit_to_user_mode(regs);
	current->syscall_nr = -1;
}

/*
 * Calls an SA_RESTART handler restarts when a signal interrupted them
 * (-EINTR from a sleep), as Linux's -ERESTARTSYS ones. Sleeps with a
 * timeout or a sigmask (nanosleep, poll, pause, sigsuspend) are not.
 */
bool syscall_restartable(long nr)
{
	switch (nr) {
	case 0: case 1: case 2: case 16: case 17: case 18: case 19: case 20:	/* read write open ioctl pread pwrite readv writev */
	case 40: case 61: case 202: case 247: case 257:			/* sendfile wait4 futex waitid openat */
	case 43: case 44: case 45: case 288:				/* accept sendto recvfrom accept4 */
		return true;
	default:
		return false;
	}
}
