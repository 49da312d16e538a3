/*
 * The interactive shell on the console: a prompt with the working
 * directory, the line editor, continuation lines ("> ") while a command
 * is incomplete, and Ctrl-C that drops the line or stops what runs.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_line.h>

/* Does text end in the middle of a command (an open quote, if, ...)? */
static bool incomplete(const char *text, size_t len)
{
	struct sh_parser p;
	struct sh_node *n;
	struct sh_arena *a;
	int r;

	sh_parser_init(&p, text, len);
	while ((r = sh_parse_next(&p, &n, &a)) == SH_PARSE_OK)
		sh_arena_put(a);
	return r == SH_PARSE_ERROR && p.incomplete;
}

/* Print the prompt; the editor keeps it to redraw the line (Ctrl-L, Tab). */
static void prompt(struct sh_line *ed, bool continuation)
{
	char cwd[200];

	if (continuation) {
		strscpy(ed->prompt, "> ", sizeof(ed->prompt));
	} else {
		if (sh_os->getcwd(cwd, sizeof(cwd)) < 0)
			strscpy(cwd, "?", sizeof(cwd));
		snprintf(ed->prompt, sizeof(ed->prompt), "%s # ", cwd);
	}
	sh_eprintf("%s", ed->prompt);
}

static void drain_echo(struct sh_line *ed)
{
	if (ed->echo.len)
		sh_write_all(1, ed->echo.s, ed->echo.len);
	ed->echo.len = 0;
}

int sh_interactive(struct sh *sh)
{
	struct sh_line *ed = kmalloc(sizeof(*ed), GFP_KERNEL);
	struct sh_buf text = { 0 };
	bool done = false;

	if (!ed)
		return 1;
	sh_line_init(ed);
	sh->interactive = true;
	prompt(ed, false);
	while (!done) {
		char in[64];
		ssize_t n = sh_os->console_read(in, sizeof(in));

		if (n <= 0) {
			sh_os->take_signals();	/* a Ctrl-C with nothing running */
			continue;
		}
		for (ssize_t i = 0; i < n && !done; i++) {
			int r = sh_line_feed(ed, in[i]);

			drain_echo(ed);
			if (r == SH_LINE_EOF) {
				done = true;
			} else if (r == SH_LINE_INTR) {
				sh_buf_free(&text);
				prompt(ed, false);
			} else if (r == SH_LINE_DONE) {
				sh_buf_put(&text, ed->buf, ed->len);
				sh_buf_putc(&text, '\n');
				sh_line_add_history(ed, ed->buf);
				sh_line_clear(ed);
				if (text.s && incomplete(text.s, text.len)) {
					prompt(ed, true);
					continue;
				}
				/* While it runs, Ctrl-C interrupts the shell itself. */
				sh_os->set_foreground(sh_os->getpid());
				if (text.s)
					sh_run_string(sh, text.s, text.len);
				sh_os->set_foreground(0);
				sh_os->take_signals();
				/* The console echoed ^C; the prompt goes on a line of its own, as in sh. */
				if (sh->interrupted && sh->status == 130)
					sh_write_all(1, "\n", 1);
				sh_buf_free(&text);
				if (sh->flow == SH_FLOW_EXIT && !sh->interrupted)
					done = true;
				sh->flow = SH_FLOW_NONE;
				sh->interrupted = false;
				if (!done)
					prompt(ed, false);
			}
		}
	}
	sh_run_exit_trap(sh);
	sh_buf_free(&text);
	sh_line_free(ed);
	kfree(ed);
	return sh->status;
}
