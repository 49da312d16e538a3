/* yes [STRING]...: the line ("y" by default) over and over until the reader goes away. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_buf.h>

int cmd_yes(int argc, char **argv, char **envp)
{
	struct sh_buf one = { 0 }, many = { 0 };
	int err = 0;

	for (int i = 1; i < argc; i++)
		sh_buf_printf(&one, "%s%s", i > 1 ? " " : "", argv[i]);
	if (argc < 2)
		sh_buf_putc(&one, 'y');
	sh_buf_putc(&one, '\n');
	/* Whole copies of the line per write, so a pipe is not fed two bytes at a time. */
	while (!one.oom && !many.oom && many.len + one.len <= 1024)
		sh_buf_put(&many, one.s, one.len);
	if (one.oom || many.oom) {
		sh_buf_free(&one);
		sh_buf_free(&many);
		sh_eprintf("yes: %s\n", errno_text(ENOMEM));
		return 1;
	}
	/* A closed pipe (yes | head -n 2) ends it quietly, as SIGPIPE would. */
	while (!err && !sh_os->interrupted())
		err = sh_write_all(1, many.s, many.len);
	sh_buf_free(&one);
	sh_buf_free(&many);
	if (err && err != -EPIPE) {
		sh_eprintf("yes: write error: %s\n", errno_text(-err));
		return 1;
	}
	return err ? 141 : 130;
}
