/* The console line editor (sh_line.h). */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_line.h>

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
	l->esc = 0;
	l->browse = l->nhistory;
}

static void erase(struct sh_line *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sh_buf_puts(&l->echo, "\b \b");
}

/* Show history entry i (nhistory: an empty line) in place of the line. */
static void recall(struct sh_line *l, int i)
{
	const char *s = i < l->nhistory ? l->history[i] : "";

	erase(l, l->len);
	l->len = min(strlen(s), sizeof(l->buf) - 1);
	memcpy(l->buf, s, l->len);
	sh_buf_put(&l->echo, l->buf, l->len);
	l->browse = i;
}

int sh_line_feed(struct sh_line *l, char c)
{
	unsigned char u = (unsigned char)c;

	if (l->esc == 1) {
		l->esc = u == '[' ? 2 : 0;
		return SH_LINE_MORE;
	}
	if (l->esc == 2) {
		l->esc = 0;
		if (u == 'A' && l->browse > 0)
			recall(l, l->browse - 1);
		else if (u == 'B' && l->browse < l->nhistory)
			recall(l, l->browse + 1);
		return SH_LINE_MORE;
	}
	switch (u) {
	case '\r':
	case '\n':
		l->buf[l->len] = '\0';
		sh_buf_puts(&l->echo, "\r\n");
		return SH_LINE_DONE;
	case 0x7f:
	case '\b':
		if (l->len) {
			l->len--;
			erase(l, 1);
		}
		return SH_LINE_MORE;
	case 0x03:
		sh_buf_puts(&l->echo, "^C\r\n");
		sh_line_clear(l);
		return SH_LINE_INTR;
	case 0x15:
		erase(l, l->len);
		l->len = 0;
		return SH_LINE_MORE;
	case 0x04:
		return l->len ? SH_LINE_MORE : SH_LINE_EOF;
	case 0x1b:
		l->esc = 1;
		return SH_LINE_MORE;
	}
	if ((u < 0x20 && u != '\t') || l->len + 1 >= sizeof(l->buf))
		return SH_LINE_MORE;	/* other control bytes, or full */
	l->buf[l->len++] = c;
	sh_buf_putc(&l->echo, c);
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
