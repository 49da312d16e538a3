/*
 * echo [-neE] ARG...: the arguments, space-separated; -e interprets
 * backslash escapes. The line goes out in one write, as a tracefs file
 * needs to see a command whole.
 */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_escape.h>

int cmd_echo(int argc, char **argv, char **envp)
{
	bool newline = true, escapes = false, stop = false;
	struct sh_buf line = { 0 };
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
	for (int first = i; i < argc && !stop; i++) {
		if (i > first)
			sh_buf_putc(&line, ' ');
		if (escapes)
			stop = sh_unescape(&line, argv[i], false);
		else
			sh_buf_puts(&line, argv[i]);
	}
	if (newline && !stop)
		sh_buf_putc(&line, '\n');
	out_init(&o, 1);
	out_put_whole(&o, line.s, line.len);
	sh_buf_free(&line);
	return out_finish(&o, "echo", 0);
}
