/* The console line editor (sh_line.h). */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_line.h>

/* Escape-sequence states: after ESC, after ESC [ (CSI), after ESC O (SS3). */
enum { ESC_NONE, ESC_START, ESC_CSI, ESC_SS3 };

void sh_line_init(struct sh_line *l)
{
	memset(l, 0, sizeof(*l));
}

void sh_line_free(struct sh_line *l)
{
	for (int i = 0; i < l->nhistory; i++)
		kfree(l->history[i]);
	sh_buf_free(&l->echo);
	l->nhistory = 0;
}

void sh_line_clear(struct sh_line *l)
{
	l->len = 0;
	l->pos = 0;
	l->esc = ESC_NONE;
	l->browse = l->nhistory;
}

static void back(struct sh_line *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sh_buf_putc(&l->echo, '\b');
}

static void move_to(struct sh_line *l, size_t to)
{
	if (to < l->pos)
		back(l, l->pos - to);
	else
		sh_buf_put(&l->echo, l->buf + l->pos, to - l->pos);
	l->pos = to;
}

/* Re-print from the cursor to the end, blank `gone` stale cells, return. */
static void show_tail(struct sh_line *l, size_t gone)
{
	sh_buf_put(&l->echo, l->buf + l->pos, l->len - l->pos);
	for (size_t i = 0; i < gone; i++)
		sh_buf_putc(&l->echo, ' ');
	back(l, l->len - l->pos + gone);
}

void sh_line_insert(struct sh_line *l, const char *s, size_t n)
{
	n = min(n, sizeof(l->buf) - 1 - l->len);
	memmove(l->buf + l->pos + n, l->buf + l->pos, l->len - l->pos);
	memcpy(l->buf + l->pos, s, n);
	l->len += n;
	sh_buf_put(&l->echo, s, n);
	l->pos += n;
	show_tail(l, 0);
}

/* Remove buf[from..to) and leave the cursor at from. */
static void delete_range(struct sh_line *l, size_t from, size_t to)
{
	if (from >= to)
		return;
	move_to(l, from);
	memmove(l->buf + from, l->buf + to, l->len - to);
	l->len -= to - from;
	show_tail(l, to - from);
}

void sh_line_redraw(struct sh_line *l)
{
	size_t pos = l->pos;

	sh_buf_puts(&l->echo, l->prompt);
	l->pos = 0;
	sh_buf_put(&l->echo, l->buf, l->len);
	back(l, l->len - pos);
	l->pos = pos;
}

/* Show history entry i (nhistory: an empty line) in place of the line. */
static void recall(struct sh_line *l, int i)
{
	const char *s = i < l->nhistory ? l->history[i] : "";

	delete_range(l, 0, l->len);
	sh_line_insert(l, s, strlen(s));
	l->browse = i;
}

/* Ctrl-W: the word before the cursor, and the blanks after it. */
static void delete_word(struct sh_line *l)
{
	size_t from = l->pos;

	while (from && (l->buf[from - 1] == ' ' || l->buf[from - 1] == '\t'))
		from--;
	while (from && l->buf[from - 1] != ' ' && l->buf[from - 1] != '\t')
		from--;
	delete_range(l, from, l->pos);
}

/* The final byte of ESC [ ..., ESC O ...: arrows, Home, End, Delete. */
static void escape_key(struct sh_line *l, unsigned char u)
{
	unsigned int arg = l->esc_arg;

	l->esc = ESC_NONE;
	if (u == '~')
		u = arg == 1 || arg == 7 ? 'H' : arg == 4 || arg == 8 ? 'F' : arg == 3 ? 0x7f : 0;
	switch (u) {
	case 'A':
		if (l->browse > 0)
			recall(l, l->browse - 1);
		break;
	case 'B':
		if (l->browse < l->nhistory)
			recall(l, l->browse + 1);
		break;
	case 'C':
		if (l->pos < l->len)
			move_to(l, l->pos + 1);
		break;
	case 'D':
		if (l->pos)
			move_to(l, l->pos - 1);
		break;
	case 'H':
		move_to(l, 0);
		break;
	case 'F':
		move_to(l, l->len);
		break;
	case 0x7f:
		delete_range(l, l->pos, min(l->pos + 1, l->len));
		break;
	}
}

/* Feed one byte of an escape sequence; false when c starts none. */
static bool escape_feed(struct sh_line *l, unsigned char u)
{
	switch (l->esc) {
	case ESC_START:
		l->esc = u == '[' ? ESC_CSI : u == 'O' ? ESC_SS3 : ESC_NONE;
		l->esc_arg = 0;
		return true;
	case ESC_CSI:
		if (u >= '0' && u <= '9') {
			l->esc_arg = l->esc_arg * 10 + (u - '0');
			if (l->esc_arg > 1000)
				l->esc = ESC_NONE;	/* no key has such a number */
			return true;
		}
		escape_key(l, u);
		return true;
	case ESC_SS3:
		escape_key(l, u);
		return true;
	}
	return false;
}

int sh_line_feed(struct sh_line *l, char c)
{
	unsigned char u = (unsigned char)c;

	if (escape_feed(l, u))
		return SH_LINE_MORE;
	switch (u) {
	case '\r':
	case '\n':
		l->buf[l->len] = '\0';
		move_to(l, l->len);
		sh_buf_puts(&l->echo, "\r\n");
		return SH_LINE_DONE;
	case 0x7f:
	case '\b':
		delete_range(l, l->pos ? l->pos - 1 : 0, l->pos);
		return SH_LINE_MORE;
	case 0x03:	/* Ctrl-C */
		move_to(l, l->len);
		sh_buf_puts(&l->echo, "^C\r\n");
		sh_line_clear(l);
		return SH_LINE_INTR;
	case 0x04:	/* Ctrl-D */
		if (!l->len)
			return SH_LINE_EOF;
		delete_range(l, l->pos, min(l->pos + 1, l->len));
		return SH_LINE_MORE;
	case 0x01:	/* Ctrl-A */
		move_to(l, 0);
		return SH_LINE_MORE;
	case 0x05:	/* Ctrl-E */
		move_to(l, l->len);
		return SH_LINE_MORE;
	case 0x02:	/* Ctrl-B */
		escape_key(l, 'D');
		return SH_LINE_MORE;
	case 0x06:	/* Ctrl-F */
		escape_key(l, 'C');
		return SH_LINE_MORE;
	case 0x0b:	/* Ctrl-K */
		delete_range(l, l->pos, l->len);
		return SH_LINE_MORE;
	case 0x15:	/* Ctrl-U */
		delete_range(l, 0, l->pos);
		return SH_LINE_MORE;
	case 0x17:	/* Ctrl-W */
		delete_word(l);
		return SH_LINE_MORE;
	case 0x0c:	/* Ctrl-L: clear the screen (ANSI), the line again on top */
		sh_buf_puts(&l->echo, "\x1b[H\x1b[2J");
		sh_line_redraw(l);
		return SH_LINE_MORE;
	case '\t':
		sh_line_complete(l);
		return SH_LINE_MORE;
	case 0x1b:
		l->esc = ESC_START;
		return SH_LINE_MORE;
	}
	if (u < 0x20 || l->len + 1 >= sizeof(l->buf))
		return SH_LINE_MORE;	/* other control bytes, or full */
	sh_line_insert(l, &c, 1);
	return SH_LINE_MORE;
}

void sh_line_add_history(struct sh_line *l, const char *line)
{
	char *copy;

	if (!*line || strspn(line, " \t") == strlen(line) ||
	    (l->nhistory && !strcmp(l->history[l->nhistory - 1], line)))
		goto out;
	copy = kstrdup(line, GFP_KERNEL);
	if (!copy)
		goto out;
	if (l->nhistory == SH_HISTORY) {
		kfree(l->history[0]);
		memmove(l->history, l->history + 1, sizeof(l->history[0]) * (SH_HISTORY - 1));
		l->nhistory--;
	}
	l->history[l->nhistory++] = copy;
out:
	l->browse = l->nhistory;
}
