/* poweroff and reboot. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_poweroff(int argc, char **argv, char **envp)
{
	int err = sh_os->poweroff(!strcmp(argv[0], "reboot"));

	sh_eprintf("%s: %s\n", argv[0], errno_text(-err));
	return 1;
}
