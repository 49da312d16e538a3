/* ps: every task, with parent, state, nice value, CPU and run time. */
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

static int ps_line(void *ctx, const struct sh_procinfo *p)
{
	struct sh_out *o = ctx;
	unsigned long ms = (unsigned long)(p->runtime_ns / 1000000);

	out_printf(o, "%5d %5d %c %4d %3d %6lu.%03lu %s\n", (int)p->pid, (int)p->ppid, p->state,
		   p->nice, p->cpu, ms / 1000, ms % 1000, p->comm);
	return o->err != 0;
}

int cmd_ps(int argc, char **argv, char **envp)
{
	struct sh_out o;

	out_init(&o, 1);
	out_puts(&o, "  PID  PPID S NICE CPU    TIME(s) COMMAND\n");
	sh_os->for_each_task(ps_line, &o);
	return out_finish(&o, "ps", 0);
}
