/*
 * System calls: Linux's x86_64 numbers and argument registers (rdi, rsi,
 * rdx, r10, r8, r9; the result in rax). Each call is defined with
 * SYSCALL_DEFINEn(name, type, arg, ...), which makes a typed function
 * and the entry __x64_sys_NAME(regs) the table (kernel/syscalls/table.c)
 * holds. Calls that need the whole frame (fork, execve, rt_sigreturn)
 * use SYSCALL_DEFINE_REGS.
 */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include <kernel/types.h>
#include <asm/ptrace.h>

#define NR_syscalls		463

typedef long (*syscall_fn_t)(struct pt_regs *regs);

#define __SC_ARG0(r)	(r)->rdi
#define __SC_ARG1(r)	(r)->rsi
#define __SC_ARG2(r)	(r)->rdx
#define __SC_ARG3(r)	(r)->r10
#define __SC_ARG4(r)	(r)->r8
#define __SC_ARG5(r)	(r)->r9

#define SYSCALL_DEFINE_REGS(name)					\
	long __x64_sys_##name(struct pt_regs *regs)

#define SYSCALL_DEFINE0(name)						\
	static long __do_sys_##name(void);				\
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ (void)regs; return __do_sys_##name(); }			\
	static long __do_sys_##name(void)

#define SYSCALL_DEFINE1(name, t1, a1)					\
	static long __do_sys_##name(t1 a1);				\
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ return __do_sys_##name((t1)__SC_ARG0(regs)); }		\
	static long __do_sys_##name(t1 a1)

#define SYSCALL_DEFINE2(name, t1, a1, t2, a2)				\
	static long __do_sys_##name(t1 a1, t2 a2);			\
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ return __do_sys_##name((t1)__SC_ARG0(regs), (t2)__SC_ARG1(regs)); } \
	static long __do_sys_##name(t1 a1, t2 a2)

#define SYSCALL_DEFINE3(name, t1, a1, t2, a2, t3, a3)			\
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3);		\
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ return __do_sys_##name((t1)__SC_ARG0(regs), (t2)__SC_ARG1(regs), \
				 (t3)__SC_ARG2(regs)); }		\
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3)

#define SYSCALL_DEFINE4(name, t1, a1, t2, a2, t3, a3, t4, a4)		\
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4);	\
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ return __do_sys_##name((t1)__SC_ARG0(regs), (t2)__SC_ARG1(regs), \
				 (t3)__SC_ARG2(regs), (t4)__SC_ARG3(regs)); } \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4)

#define SYSCALL_DEFINE5(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)	\
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5); \
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ return __do_sys_##name((t1)__SC_ARG0(regs), (t2)__SC_ARG1(regs), \
				 (t3)__SC_ARG2(regs), (t4)__SC_ARG3(regs), \
				 (t5)__SC_ARG4(regs)); }		\
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5)

#define SYSCALL_DEFINE6(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6); \
	long __x64_sys_##name(struct pt_regs *regs)			\
	{ return __do_sys_##name((t1)__SC_ARG0(regs), (t2)__SC_ARG1(regs), \
				 (t3)__SC_ARG2(regs), (t4)__SC_ARG3(regs), \
				 (t5)__SC_ARG4(regs), (t6)__SC_ARG5(regs)); } \
	static long __do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6)

/* clone(2) flags */
#define CSIGNAL			0x000000ff
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_PIDFD		0x00001000
#define CLONE_VFORK		0x00004000
#define CLONE_PARENT		0x00008000
#define CLONE_THREAD		0x00010000
#define CLONE_NEWNS		0x00020000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_DETACHED		0x00400000
#define CLONE_CHILD_SETTID	0x01000000

struct task_struct;
void vfork_release(struct task_struct *p);
/* The way back to ring 3 after a system call or an interrupt from it: resched, signals. */
void syscall_exit_to_user_mode(struct pt_regs *regs);
/* An interrupted call an SA_RESTART handler makes the process issue again. */
bool syscall_restartable(long nr);
/* The body of the entry from ring 3's syscall instruction (entry.S). */
void do_syscall_64(struct pt_regs *regs);

#endif
