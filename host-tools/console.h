/*
 * The guest console as `spoor exec` sees it: a byte stream from COM1 that
 * is copied out as it arrives, minus the carriage returns and minus the
 * lines that carry the protocol (docs/DESIGN.md, "The guest/runner
 * protocol"). The guest frames its stderr apart from its stdout
 * (kernel/console_frame.h); the scanner undoes the framing and hands each
 * byte over with its stream, in the guest's order. It is pure so the unit
 * tests can feed it arbitrary splits of the stream.
 */
#ifndef HOST_TOOLS_CONSOLE_H
#define HOST_TOOLS_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include "kernel/console_frame.h"

/*
 * The guest's init prints these alone on a line: the first before it runs
 * the first script (the shell is up), the second, with the last script's
 * exit status, before it powers off. Neither is shown.
 */
#define CONSOLE_START_LINE	"spoor-exec: start"
#define CONSOLE_STATUS_MARK	"spoor-exec: status "
/* What the kernel's panic() prints; anywhere in a line (after a timestamp). */
#define CONSOLE_PANIC_MARK	"Kernel panic - not syncing"

/* Where shown bytes go: stdout's or stderr's, in the order the guest wrote them. */
typedef void console_emit_fn(void *ctx, enum console_stream stream, const char *s, size_t n);

/*
 * Scanner state. Bytes of a stdout line that may still turn out to be one
 * of the protocol lines are held back in line[] until the line proves
 * otherwise; every other byte is passed on at once, so prompts without a
 * newline show up immediately. line[] also keeps the start of every
 * stdout line for the panic match. stderr bytes are only ever data.
 */
struct console {
	char line[128];		/* start of the current stdout line (NUL-terminated) */
	size_t len;		/* bytes of the current line seen so far */
	bool held;		/* line[0..len) not passed on yet */
	bool started;		/* the start line was seen */
	int status;		/* last status line's value, or -1 */
	bool panic;		/* a panic line was seen */
	bool quiet;		/* drop what comes before the start line (the boot log) */
	enum console_stream stream;	/* what the bytes coming now belong to */
	bool escaped;		/* the last byte was CONSOLE_FRAME_ESC */
	console_emit_fn *emit;
	void *ctx;
	char pending[4096];	/* bytes to emit, all of pending_stream */
	size_t nr_pending;
	enum console_stream pending_stream;
};

void console_init(struct console *c, console_emit_fn *emit, void *ctx);
/* Scan n bytes from the guest; what is shown is emitted before this returns. */
void console_feed(struct console *c, const char *in, size_t n);
/* End of stream: releases a held partial line. */
void console_finish(struct console *c);

#endif
