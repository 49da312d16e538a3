/* Scanning the guest console for the exec protocol lines and panics. */
#include <string.h>
#include "console.h"

#define START_LEN	(sizeof(CONSOLE_START_LINE) - 1)
#define MARK_LEN	(sizeof(CONSOLE_STATUS_MARK) - 1)
#define STATUS_DIGITS	3	/* an exit status is 0..255 */

void console_init(struct console *c)
{
	c->line[0] = '\0';
	c->len = 0;
	c->held = true;
	c->started = false;
	c->status = -1;
	c->panic = false;
	c->quiet = false;
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

static size_t release(struct console *c, char *out)
{
	size_t n = c->held ? c->len : 0;

	memcpy(out, c->line, n);
	c->held = false;
	return n;
}

static void end_line(struct console *c)
{
	if (strstr(c->line, CONSOLE_PANIC_MARK))
		c->panic = true;
	c->line[0] = '\0';
	c->len = 0;
	c->held = true;
}

size_t console_feed(struct console *c, const char *in, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char ch = in[i];

		if (ch == '\r')
			continue;
		if (ch == '\n') {
			int v = status_value(c);

			if (v >= 0) {
				c->status = v;
			} else if (c->held && c->len == START_LEN &&
				   !memcmp(c->line, CONSOLE_START_LINE, START_LEN)) {
				c->started = true;
				if (c->quiet)
					o = 0;	/* the boot log so far */
			} else {
				o += release(c, out + o);
				out[o++] = '\n';
			}
			end_line(c);
			continue;
		}
		if (c->len < sizeof(c->line) - 1) {
			c->line[c->len] = ch;
			c->line[c->len + 1] = '\0';
		}
		c->len++;
		if (!c->held)
			out[o++] = ch;
		else if (!maybe_protocol(c))
			o += release(c, out + o);
	}
	return c->quiet && !c->started ? 0 : o;
}

size_t console_finish(struct console *c, char *out)
{
	size_t o = release(c, out);

	end_line(c);
	return o;
}
