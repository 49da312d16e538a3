/* rmdir DIR...: remove empty directories. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_rmdir(int argc, char **argv, char **envp)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		int err = sh_os->rmdir(argv[i]);

		if (err) {
			sh_eprintf("rmdir: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}
