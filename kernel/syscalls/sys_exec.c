/*
 * execve from ring 3 and from the kernel: the argument and environment
 * strings are copied into one kernel block, then kernel/exec/exec.c
 * builds the new program.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/syscalls.h>
#include <kernel/exec/exec.h>
#include <asm/uaccess.h>
#include <asm/switch_to.h>

#define MAX_ARG_STRINGS		32768
#define MAX_ARG_BYTES		(256 * 1024)	/* all strings together (E2BIG beyond) */

#include "sys_fs.h"

/* Copies a NULL-terminated user vector of strings into *out (strings packed in *buf). */
static int copy_strings(const char *const *uvec, char ***out, int *count, char **buf, size_t *used)
{
	int n = 0;

	*out = NULL;
	*count = 0;
	if (!uvec)
		return 0;
	for (;;) {
		const char *s;
		long len;
		char **nv;

		if (get_user(s, &uvec[n]))
			return -EFAULT;
		if (!s)
			break;
		if (n >= MAX_ARG_STRINGS)
			return -E2BIG;
		len = strncpy_from_user(*buf + *used, s, (long)(MAX_ARG_BYTES - *used));
		if (len < 0)
			return -EFAULT;
		if ((size_t)len >= MAX_ARG_BYTES - *used)
			return -E2BIG;
		nv = krealloc(*out, (size_t)(n + 2) * sizeof(char *), GFP_KERNEL);
		if (!nv)
			return -ENOMEM;
		*out = nv;
		nv[n++] = *buf + *used;
		nv[n] = NULL;
		*used += (size_t)len + 1;
	}
	*count = n;
	return 0;
}

SYSCALL_DEFINE_REGS(execve)
{
	const char *upath = (const char *)regs->rdi;
	struct exec_args a = { 0 };
	char *path = getname(upath), *buf = NULL;
	long r;

	if (IS_ERR(path))
		return PTR_ERR(path);
	buf = kmalloc(MAX_ARG_BYTES, GFP_KERNEL);
	r = -ENOMEM;
	if (buf) {
		r = copy_strings((const char *const *)regs->rsi, &a.argv, &a.argc, &buf, &a.strings_size);
		if (!r)
			r = copy_strings((const char *const *)regs->rdx, &a.envp, &a.envc, &buf,
					 &a.strings_size);
		if (!r)
			r = do_execve(path, &a);
	}
	kfree(a.argv);
	kfree(a.envp);
	kfree(buf);
	putname(path);
	/* On success regs now hold the new program's start: rax (0) is what it sees. */
	return r ? r : (long)regs->rax;
}

int kernel_execve(const char *filename, char *const argv[], char *const envp[])
{
	struct exec_args a = { .argv = (char **)argv, .envp = (char **)envp };

	while (argv && argv[a.argc])
		a.strings_size += strlen(argv[a.argc++]) + 1;
	while (envp && envp[a.envc])
		a.strings_size += strlen(envp[a.envc++]) + 1;
	if (a.strings_size > MAX_ARG_BYTES)
		return -E2BIG;
	return do_execve(filename, &a);
}

/* On a stack that starts just below pt_regs, so writing them clobbers no live frame. */
static __noreturn void enter_user_below_regs(void)
{
	struct pt_regs *regs = task_pt_regs(current);

	arch_setup_user_regs(regs, current->thread.entry_ip, current->thread.entry_sp);
	syscall_exit_to_user_mode(regs);
	start_user_mode(regs);
}

void kernel_enter_user(void)
{
	call_on_stack(enter_user_below_regs, (unsigned long)task_pt_regs(current));
}
