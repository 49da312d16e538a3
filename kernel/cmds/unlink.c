/* unlink FILE: remove one name, as the unlink(2) it is named after (no options, no directories). */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_os.h>

int cmd_unlink(int argc, char **argv, char **envp)
{
	int err;

	if (argc != 2) {
		sh_eprintf("unlink: usage: unlink FILE\n");
		return 1;
	}
	err = sh_os->unlink(argv[1]);
	if (err) {
		sh_eprintf("unlink: can't remove file '%s': %s\n", argv[1], errno_text(-err));
		return 1;
	}
	return 0;
}
