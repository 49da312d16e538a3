/* The register frame every interrupt, exception and NMI entry saves (arch/x86_64/entry.S). */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <kernel/types.h>

struct pt_regs {
	unsigned long r15, r14, r13, r12, rbp, rbx, r11, r10;
	unsigned long r9, r8, rax, rcx, rdx, rsi, rdi;
	union {
		unsigned long vector;	/* pushed by the entry stub */
		long orig_ax;		/* the system-call number, on syscall entry */
	};
	unsigned long error_code;	/* by the CPU, or 0 from the stub */
	/* the CPU's interrupt frame */
	unsigned long rip, cs, rflags, rsp, ss;
};

static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

struct task_struct;

/* The frame a task's entries from ring 3 save, at the top of its kernel stack. */
struct pt_regs *task_pt_regs(struct task_struct *p);

/* Print the registers (Linux's layout) and a backtrace from the frame. */
void show_regs(const struct pt_regs *regs);

#endif
