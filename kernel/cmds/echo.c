/* echo [-neE] ARG...: the arguments, space-separated; -e interprets backslash escapes. */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_escape.h>

int cmd_echo(int argc, char **argv, char **envp)
{
	bool newline = true, escapes = false, stop = false;
	struct sh_out o;
	int i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *p = argv[i] + 1;

		if (strspn(p, "neE") != strlen(p))
			break;	/* not an option cluster: an operand */
		for (; *p; p++) {
			if (*p == 'n')
				newline = false;
			else
				escapes = *p == 'e';
		}
	}
	out_init(&o, 1);
	for (int first = i; i < argc && !stop; i++) {
		if (i > first)
			out_putc(&o, ' ');
		if (escapes) {
			struct sh_buf b = { 0 };

			stop = sh_unescape(&b, argv[i], false);
			if (b.s)
				out_put(&o, b.s, b.len);
			sh_buf_free(&b);
		} else
			out_puts(&o, argv[i]);
	}
	if (newline && !stop)
		out_putc(&o, '\n');
	return out_finish(&o, "echo", 0);
}
