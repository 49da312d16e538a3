/* Starting a program (kernel/exec/exec.c). */
#ifndef KERNEL_EXEC_EXEC_H
#define KERNEL_EXEC_EXEC_H

#include <kernel/types.h>

/* execve's arguments as kernel copies: strings_size counts every string's bytes with its NUL. */
struct exec_args {
	int argc, envc;
	char **argv, **envp;
	size_t strings_size;
};

/*
 * Replaces current's program with the static ELF executable filename.
 * Returns -errno while the old program is still intact; 0 once current
 * is set up for the new one: its registers are task_pt_regs(current),
 * ready for the return to ring 3.
 */
int do_execve(const char *filename, const struct exec_args *args);
/* do_execve's steps, for '#!' scripts (exec_script.c): see exec.c. */
#define EXEC_SCRIPT_LINE	256	/* a '#!' line's bytes read, as Linux's BINPRM_BUF_SIZE */
#define EXEC_MAX_INTERP		4	/* interpreters that are scripts themselves: ELOOP beyond */
int exec_file(const char *path, const char *shown, const struct exec_args *args, int depth);
int exec_script(char *line, const char *path, const char *shown, const struct exec_args *args,
		int depth);
/* The same from the kernel (the shell): argv and envp NULL-terminated. */
int kernel_execve(const char *filename, char *const argv[], char *const envp[]);
/* After a successful kernel_execve, a kernel thread leaves for ring 3 through here. */
__noreturn void kernel_enter_user(void);

#endif
