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

void ob_grow(struct obuf *o, size_t n)
{
	while (o->len + n > o->cap)
		o->cap *= 2;
	o->buf = realloc(o->buf, o->cap);
	if (!o->buf)
		abort();
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

/*
 * Numbers are written backwards into a local buffer through a local
 * pointer, then copied whole: writing through o->buf[o->len++] made the
 * compiler reload both for every digit.
 */
static char *dec_digits(char *end, uint64_t v)
{
	/* Two digits a step: a timestamp's six take three. */
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";

	for (; v >= 100; v /= 100) {
		*--end = pairs[2 * (v % 100) + 1];
		*--end = pairs[2 * (v % 100)];
	}
	if (v >= 10) {
		*--end = pairs[2 * v + 1];
		*--end = pairs[2 * v];
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

void ob_u64(struct obuf *o, uint64_t v)
{
	char tmp[20], *p = dec_digits(tmp + sizeof(tmp), v);

	ob_write(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void ob_s64(struct obuf *o, int64_t v)
{
	char tmp[21], *p = dec_digits(tmp + sizeof(tmp), v < 0 ? -(uint64_t)v : (uint64_t)v);

	if (v < 0)
		*--p = '-';
	ob_write(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void ob_hex(struct obuf *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16], *p = tmp + sizeof(tmp);

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	ob_write(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void ob_u64_width(struct obuf *o, uint64_t v, unsigned int width, char pad)
{
	char tmp[20], *p = dec_digits(tmp + sizeof(tmp), v);
	size_t n = (size_t)(tmp + sizeof(tmp) - p);

	if (width > n)
		ob_pad(o, pad, width - n);
	ob_write(o, p, n);
}

void ob_time(struct obuf *o, uint64_t ts, bool ns)
{
	if (ns) {
		ob_u64_width(o, ts / 1000000000ull, 5, ' ');
		ob_putc(o, '.');
		ob_u64_width(o, ts % 1000000000ull, 9, '0');
	} else {
		uint64_t us = (ts + 500) / 1000;

		ob_u64_width(o, us / 1000000, 5, ' ');
		ob_putc(o, '.');
		ob_u64_width(o, us % 1000000, 6, '0');
	}
}
