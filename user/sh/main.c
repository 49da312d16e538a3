/*
 * /bin/sh: Spoor's shell as a ring-3 program, built from the same sources
 * as the kernel's console shell (kernel/shell, kernel/cmds) on the system
 * calls of sh_os_user.c. `sh [-ex] [-c TEXT | FILE] [ARG]...` as there;
 * with no operand and a terminal on stdin, the interactive shell.
 */
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <unistd.h>

#include "sh_user.h"

int main(int argc, char **argv, char **envp)
{
	char top;
	struct sh *sh;
	int status;

	sh_user_os_init(&top);
	if (argc > 1 || !isatty(0))
		return cmd_sh(argc, argv, envp) & 255;
	sh = sh_new("sh", 0, NULL);
	if (!sh)
		return 2;
	sh_setvar(sh, "HOME", "/", true);
	status = sh_interactive(sh);
	sh_free(sh);
	return status & 255;
}

/*
 * trace-dump (trace/tracedat_dump.c) drives the dump port's I/O ports from
 * the kernel; the command table names it, and ring 3 cannot reach them.
 */
int cmd_trace_dump(int argc, char **argv, char **envp)
{
	static const char msg[] = "trace-dump: the dump port is the kernel's: run it in the console shell\n";

	sh_write_all(2, msg, sizeof(msg) - 1);
	return 1;
}
