/* pwd: the working directory. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_pwd(int argc, char **argv, char **envp)
{
	char cwd[256];
	struct sh_out o;
	int err = sh_os->getcwd(cwd, sizeof(cwd));

	if (err < 0) {
		sh_eprintf("pwd: %s\n", errno_text(-err));
		return 1;
	}
	out_init(&o, 1);
	out_printf(&o, "%s\n", cwd);
	return out_finish(&o, "pwd", 0);
}
