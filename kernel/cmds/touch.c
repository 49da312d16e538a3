/* touch FILE...: create files that do not exist (times are not kept, so nothing else changes). */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_touch(int argc, char **argv, char **envp)
{
	int status = 0;

	if (argc < 2) {
		sh_eprintf("touch: missing file operand\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		int fd = sh_os->open(argv[i], SH_O_WRONLY | SH_O_CREAT, 0644);

		if (fd < 0) {
			sh_eprintf("touch: %s: %s\n", argv[i], errno_text(-fd));
			status = 1;
			continue;
		}
		sh_os->close(fd);
	}
	return status;
}
