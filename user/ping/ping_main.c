/*
 * /bin/ping: the shell's ping command (kernel/cmds/ping.c: loopback only,
 * each reply a timer wake-up) as a program of its own, as ping is on Linux,
 * so `ping 127.0.0.1 -c 3` from /bin/sh is a fork and an exec a tracer
 * sees (sched_process_exec of ping), and the rest as the command's.
 */
/* uses: kernel/cmds/ping.c user/sh/sh_os_user.c kernel/shell/sh_io.c kernel/shell/sh_util.c kernel/shell/sh_buf.c kernel/lib/kstring.c kernel/lib/errno.c tests/host/kshim.c */
#include <kernel/cmds/cmds.h>

#include "../sh/sh_user.h"

int main(int argc, char **argv, char **envp)
{
	char top;

	sh_user_os_init(&top);
	return cmd_ping(argc, argv, envp);
}
