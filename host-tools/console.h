/*
 * The guest console as `spoor exec` sees it: a byte stream from COM1 that
 * is copied to stdout as it arrives, minus the carriage returns and minus
 * the one line that carries the result (docs/DESIGN.md, "The guest/runner
 * protocol"). The scanner is pure so the unit tests can feed it arbitrary
 * splits of the stream.
 */
#ifndef HOST_TOOLS_CONSOLE_H
#define HOST_TOOLS_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The guest's init prints these alone on a line: the first before it runs
 * the first script (the shell is up), the second, with the last script's
 * exit status, before it powers off. Neither is copied to stdout.
 */
#define CONSOLE_START_LINE	"spoor-exec: start"
#define CONSOLE_STATUS_MARK	"spoor-exec: status "
/* What the kernel's panic() prints; anywhere in a line (after a timestamp). */
#define CONSOLE_PANIC_MARK	"Kernel panic - not syncing"

/*
 * Scanner state. Bytes of a line that may still turn out to be one of the
 * protocol lines are held back in line[] until the line proves otherwise; every
 * other byte is passed through at once, so prompts without a newline show
 * up immediately. line[] also keeps the start of every line for the panic
 * match.
 */
struct console {
	char line[128];		/* start of the current line (NUL-terminated) */
	size_t len;		/* bytes of the current line seen so far */
	bool held;		/* line[0..len) not passed through yet */
	bool started;		/* the start line was seen */
	int status;		/* last status line's value, or -1 */
	bool panic;		/* a panic line was seen */
	bool quiet;		/* drop what comes before the start line (the boot log) */
};

void console_init(struct console *c);

/*
 * Scan n bytes from the guest; the bytes to show are written to out, which
 * must have room for n + sizeof(c->line). Returns how many were written.
 */
size_t console_feed(struct console *c, const char *in, size_t n, char *out);

/* End of stream: releases a held partial line into out (room: sizeof(c->line)). */
size_t console_finish(struct console *c, char *out);

#endif
