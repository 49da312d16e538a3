/* nproc and uptime: what the machine is and how long it has been up. */
#include <kernel/cmds/cmds.h>
#include <kernel/time.h>
#include <kernel/shell/sh_io.h>

int cmd_nproc(int argc, char **argv, char **envp)
{
	struct sh_out o;

	out_init(&o, 1);
	out_printf(&o, "%d\n", sh_os->nproc());
	return out_finish(&o, "nproc", 0);
}

int cmd_uptime(int argc, char **argv, char **envp)
{
	u64 ns = sh_os->now_ns();
	unsigned long s = (unsigned long)(ns / NSEC_PER_SEC);
	struct sh_out o;

	out_init(&o, 1);
	out_printf(&o, "up %lu:%02lu:%02lu.%02lu\n", s / 3600, s / 60 % 60, s % 60,
		   (unsigned long)(ns % NSEC_PER_SEC / 10000000));
	return out_finish(&o, "uptime", 0);
}
