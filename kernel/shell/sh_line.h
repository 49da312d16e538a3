/*
 * The console line editor: bytes in, an edited line out, with the echo
 * to send back to the terminal. The keys of a readline-style shell:
 * Left/Right (Ctrl-B/F), Home/End (Ctrl-A/E), Backspace, Delete, Ctrl-W
 * (the word before the cursor), Ctrl-K (to the end), Ctrl-U (to the
 * start), Ctrl-L (clear the screen), Ctrl-C, Ctrl-D (EOF on an empty line,
 * else Delete), Up/Down through the history, Tab to complete a file name
 * (sh_complete.c). The echo only uses backspace to move left and
 * re-printed text to move right, so any terminal follows it. Pure.
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
	size_t len;			/* bytes in buf */
	size_t pos;			/* the cursor: 0..len */
	char *history[SH_HISTORY];	/* oldest first */
	int nhistory;
	int browse;			/* history entry shown, nhistory: none */
	int esc;			/* escape-sequence state (sh_line.c) */
	unsigned int esc_arg;		/* the number in ESC [ N ~ */
	char prompt[256];		/* redrawn after Ctrl-L or a completion list */
	struct sh_buf echo;		/* bytes for the terminal; the caller drains it */
};

void sh_line_init(struct sh_line *l);
void sh_line_free(struct sh_line *l);
int sh_line_feed(struct sh_line *l, char c);
/* Start a new line (after DONE or INTR). */
void sh_line_clear(struct sh_line *l);
/* Remember a line for the up arrow (blank lines and repeats are not kept). */
void sh_line_add_history(struct sh_line *l, const char *line);

/* Editing primitives, shared with completion: insert at the cursor, redraw. */
void sh_line_insert(struct sh_line *l, const char *s, size_t n);
void sh_line_redraw(struct sh_line *l);
/* Tab: complete the file name before the cursor (sh_complete.c). */
void sh_line_complete(struct sh_line *l);

#endif
