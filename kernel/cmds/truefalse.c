/* true and false: the statuses 0 and 1, and nothing else. */
#include <kernel/cmds/cmds.h>

int cmd_true(int argc, char **argv, char **envp)
{
	return 0;
}

int cmd_false(int argc, char **argv, char **envp)
{
	return 1;
}
