/*
 * The output buffer of spoor report. Lines are built with these calls and
 * written in 64 KiB pieces, only between lines (ob_end_line), so code
 * building a line may measure what it appended: printf per field and a
 * write per line are what make a decoder slow.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

#define OB_FLUSH_AT	(64 * 1024)

void ob_init(struct obuf *o, FILE *f)
{
	o->cap = 2 * OB_FLUSH_AT;
	o->buf = malloc(o->cap);
	o->len = 0;
	o->f = f;
	if (!o->buf)
		abort();
}

void ob_free(struct obuf *o)
{
	ob_flush(o);
	free(o->buf);
	o->buf = NULL;
}

void ob_flush(struct obuf *o)
{
	if (!o->f || !o->len)
		return;
	fwrite(o->buf, 1, o->len, o->f);
	o->len = 0;
}

void ob_end_line(struct obuf *o)
{
	if (o->f && o->len >= OB_FLUSH_AT)
		ob_flush(o);
}

void ob_reserve(struct obuf *o, size_t n)
{
	if (o->len + n <= o->cap)
		return;
	while (o->len + n > o->cap)
		o->cap *= 2;
	o->buf = realloc(o->buf, o->cap);
	if (!o->buf)
		abort();
}

void ob_write(struct obuf *o, const void *p, size_t n)
{
	ob_reserve(o, n);
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void ob_pad(struct obuf *o, char c, size_t n)
{
	ob_reserve(o, n);
	memset(o->buf + o->len, c, n);
	o->len += n;
}

void ob_printf(struct obuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	ob_reserve(o, 256);
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->cap - o->len) {
		ob_reserve(o, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
	}
	o->len += (size_t)n;
}

void ob_u64(struct obuf *o, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ob_reserve(o, (size_t)n);
	while (n)
		o->buf[o->len++] = tmp[--n];
}

void ob_s64(struct obuf *o, int64_t v)
{
	if (v < 0) {
		ob_putc(o, '-');
		ob_u64(o, -(uint64_t)v);
	} else {
		ob_u64(o, (uint64_t)v);
	}
}

void ob_hex(struct obuf *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	ob_reserve(o, (size_t)n);
	while (n)
		o->buf[o->len++] = tmp[--n];
}

void ob_u64_width(struct obuf *o, uint64_t v, unsigned int width, char pad)
{
	char tmp[20];
	unsigned int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (width > n)
		ob_pad(o, pad, width - n);
	ob_reserve(o, n);
	while (n)
		o->buf[o->len++] = tmp[--n];
}
