/*
 * The console line editor: bytes in, an edited line out, with the echo
 * to send back to the terminal. Backspace, Ctrl-C, Ctrl-U, Ctrl-D on an
 * empty line, and up/down arrows through the history. Pure.
 */
#ifndef KERNEL_SHELL_SH_LINE_H
#define KERNEL_SHELL_SH_LINE_H

#include <kernel/types.h>
#include <kernel/shell/sh_buf.h>

#define SH_LINE_MAX	1024
#define SH_HISTORY	32

enum sh_line_result {
	SH_LINE_MORE,		/* keep feeding */
	SH_LINE_DONE,		/* Enter: the line is in buf[0..len) */
	SH_LINE_INTR,		/* Ctrl-C: the line was dropped */
	SH_LINE_EOF,		/* Ctrl-D on an empty line */
};

struct sh_line {
	char buf[SH_LINE_MAX];
	size_t len;
	char *history[SH_HISTORY];	/* oldest first */
	int nhistory;
	int browse;			/* history entry shown, nhistory: none */
	int esc;			/* 0, 1 after ESC, 2 after ESC [ */
	struct sh_buf echo;		/* bytes for the terminal; the caller drains it */
};

void sh_line_init(struct sh_line *l);
void sh_line_free(struct sh_line *l);
int sh_line_feed(struct sh_line *l, char c);
/* Start a new line (after DONE or INTR). */
void sh_line_clear(struct sh_line *l);
/* Remember a line for the up arrow (blank lines and repeats are not kept). */
void sh_line_add_history(struct sh_line *l, const char *line);

#endif
