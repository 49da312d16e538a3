/* Finding and running program files (kernel/shell/sh_path.c). */
#ifndef KERNEL_SHELL_SH_PATH_H
#define KERNEL_SHELL_SH_PATH_H

#include <kernel/types.h>

/* The file name would run: true with its path in buf. path_var is $PATH (NULL: /bin:/usr/bin). */
bool sh_find_program(const char *path_var, const char *name, char *buf, size_t size);
/* The task body of a program: execve it (in the kernel, the task becomes the program). */
int cmd_program_main(int argc, char **argv, char **envp);

#endif
