/* help: what there is to run. */
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_help(int argc, char **argv, char **envp)
{
	struct sh_out o;

	out_init(&o, 1);
	out_puts(&o, "Spoor shell: a Bourne shell subset (if/while/for/case, functions, pipes,\n"
		     "redirections, $(...), $((...))). The interactive shell starts in\n"
		     "/sys/kernel/tracing: echo 1 > events/sched/enable; cat trace.\n\n"
		     "Builtins: . : break cd command continue eval exit export local read\n"
		     "          return set shift source unset wait\n"
		     "Prefix:   nice [-n N] COMMAND\nCommands:\n");
	for (const struct sh_command *c = sh_commands; c->name; c++)
		out_printf(&o, "  %s\n", c->usage);
	for (const char *const *w = sh_os->workloads; w && *w; w++)
		out_printf(&o, "  %s (workload)\n", *w);
	return out_finish(&o, "help", 0);
}
