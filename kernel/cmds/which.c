/* which NAME...: where each command is: a kernel command's name, or the program file PATH finds. */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_path.h>

int cmd_which(int argc, char **argv, char **envp)
{
	const char *path_var = NULL;
	struct sh_out o;
	int status = 0;

	for (char **e = envp; e && *e; e++)
		if (!strncmp(*e, "PATH=", 5))
			path_var = *e + 5;
	out_init(&o, 1);
	for (int i = 1; i < argc; i++) {
		char path[256];

		if (!strchr(argv[i], '/') && sh_find_command(argv[i]))
			out_printf(&o, "%s\n", argv[i]);
		else if (sh_find_program(path_var, argv[i], path, sizeof(path)))
			out_printf(&o, "%s\n", path);
		else
			status = 1;
	}
	return out_finish(&o, "which", status);
}
