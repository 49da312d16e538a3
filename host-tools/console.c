/* Scanning the guest console for the exec protocol lines, stream marks and panics. */
#include <string.h>
#include "console.h"

#define START_LEN	(sizeof(CONSOLE_START_LINE) - 1)
#define MARK_LEN	(sizeof(CONSOLE_STATUS_MARK) - 1)
#define STATUS_DIGITS	3	/* an exit status is 0..255 */

void console_init(struct console *c, console_emit_fn *emit, void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->held = true;
	c->status = -1;
	c->stream = CONSOLE_STDOUT;
	c->emit = emit;
	c->ctx = ctx;
}

static void flush(struct console *c)
{
	if (c->nr_pending)
		c->emit(c->ctx, c->pending_stream, c->pending, c->nr_pending);
	c->nr_pending = 0;
}

/* Pass bytes on (batched: one emit per run of one stream). */
static void show(struct console *c, enum console_stream stream, const char *s, size_t n)
{
	if (c->quiet && !c->started)
		return;
	if (c->nr_pending && stream != c->pending_stream)
		flush(c);
	c->pending_stream = stream;
	while (n) {
		size_t room = sizeof(c->pending) - c->nr_pending, k = n < room ? n : room;

		memcpy(c->pending + c->nr_pending, s, k);
		c->nr_pending += k;
		s += k;
		n -= k;
		if (c->nr_pending == sizeof(c->pending))
			flush(c);
	}
}

/* Could line[0..len) still grow into the start line or "spoor-exec: status S"? */
static bool maybe_protocol(const struct console *c)
{
	if (c->len <= START_LEN && !memcmp(c->line, CONSOLE_START_LINE, c->len))
		return true;
	if (c->len <= MARK_LEN)
		return !memcmp(c->line, CONSOLE_STATUS_MARK, c->len);
	if (c->len > MARK_LEN + STATUS_DIGITS || memcmp(c->line, CONSOLE_STATUS_MARK, MARK_LEN))
		return false;
	for (size_t i = MARK_LEN; i < c->len; i++)
		if (c->line[i] < '0' || c->line[i] > '9')
			return false;
	return true;
}

/* The value of a complete status line, or -1 if the line is something else. */
static int status_value(const struct console *c)
{
	int v = 0;

	if (!c->held || c->len <= MARK_LEN)
		return -1;
	for (size_t i = MARK_LEN; i < c->len; i++)
		v = v * 10 + (c->line[i] - '0');
	return v <= 255 ? v : -1;
}

static void release(struct console *c)
{
	if (c->held)
		show(c, CONSOLE_STDOUT, c->line, c->len);
	c->held = false;
}

static void end_line(struct console *c)
{
	if (strstr(c->line, CONSOLE_PANIC_MARK))
		c->panic = true;
	c->line[0] = '\0';
	c->len = 0;
	c->held = true;
}

/* One data byte of stdout, through the protocol line scanner. */
static void stdout_byte(struct console *c, char ch)
{
	if (ch == '\n') {
		int v = status_value(c);

		if (v >= 0) {
			c->status = v;
		} else if (c->held && c->len == START_LEN &&
			   !memcmp(c->line, CONSOLE_START_LINE, START_LEN)) {
			c->started = true;
		} else {
			release(c);
			show(c, CONSOLE_STDOUT, "\n", 1);
		}
		end_line(c);
		return;
	}
	if (c->len < sizeof(c->line) - 1) {
		c->line[c->len] = ch;
		c->line[c->len + 1] = '\0';
	}
	c->len++;
	if (!c->held)
		show(c, CONSOLE_STDOUT, &ch, 1);
	else if (!maybe_protocol(c))
		release(c);
}

/* A data byte, after the framing: carriage returns dropped, stdout scanned. */
static void data_byte(struct console *c, char ch)
{
	if (ch == '\r')
		return;
	if (c->stream == CONSOLE_STDERR)
		show(c, CONSOLE_STDERR, &ch, 1);
	else
		stdout_byte(c, ch);
}

void console_feed(struct console *c, const char *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ch = in[i];

		if (c->escaped) {
			c->escaped = false;
			if (ch == CONSOLE_FRAME_STDOUT || ch == CONSOLE_FRAME_STDERR) {
				c->stream = ch == CONSOLE_FRAME_STDERR ? CONSOLE_STDERR : CONSOLE_STDOUT;
				continue;
			}
			/* ESC ESC is one ESC of data; a lone ESC (no framing) is data too. */
			data_byte(c, CONSOLE_FRAME_ESC);
			if (ch == CONSOLE_FRAME_ESC)
				continue;
		} else if (ch == CONSOLE_FRAME_ESC) {
			c->escaped = true;
			continue;
		}
		data_byte(c, ch);
	}
	flush(c);
}

void console_finish(struct console *c)
{
	if (c->escaped) {
		c->escaped = false;
		data_byte(c, CONSOLE_FRAME_ESC);
	}
	release(c);
	end_line(c);
	flush(c);
}
