/* id [-u|-g|-G] [-n]: who is running. Spoor has one user, root (uid and gid 0). */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

int cmd_id(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	bool names = false;
	char what = 0;
	struct sh_out o;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "ugGnr")) != -1) {
		if (c == '?')
			return 1;
		if (c == 'n')
			names = true;
		else if (c != 'r')
			what = (char)c;
	}
	if (g.ind < argc && strcmp(argv[g.ind], "root") && strcmp(argv[g.ind], "0")) {
		sh_eprintf("id: %s: no such user\n", argv[g.ind]);
		return 1;
	}
	out_init(&o, 1);
	if (what)
		out_printf(&o, "%s\n", names ? "root" : "0");
	else
		out_printf(&o, "uid=0(root) gid=0(root) groups=0(root)\n");
	return out_finish(&o, "id", 0);
}
