/* Growable byte strings (sh_buf.h). */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_buf.h>

static bool sh_buf_grow(struct sh_buf *b, size_t need)
{
	size_t cap;
	char *s;

	if (b->oom)
		return false;
	if (b->len + need + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 32;
	while (cap < b->len + need + 1)
		cap *= 2;
	if (b->borrowed) {
		s = kmalloc(cap, GFP_KERNEL);
		if (s)
			memcpy(s, b->s, b->len + 1);
	} else {
		s = krealloc(b->s, cap, GFP_KERNEL);
	}
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	b->borrowed = false;
	return true;
}

void sh_buf_put(struct sh_buf *b, const void *s, size_t n)
{
	if (!sh_buf_grow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sh_buf_fill(struct sh_buf *b, char c, size_t n)
{
	if (!sh_buf_grow(b, n))
		return;
	memset(b->s + b->len, c, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sh_buf_puts(struct sh_buf *b, const char *s)
{
	sh_buf_put(b, s, strlen(s));
}

void sh_buf_printf(struct sh_buf *b, const char *fmt, ...)
{
	char small[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		sh_buf_put(b, small, (size_t)n);
		return;
	}
	if (!sh_buf_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *sh_buf_take(struct sh_buf *b)
{
	char *s;

	if (b->borrowed && !b->oom) {
		s = kmalloc(b->len + 1, GFP_KERNEL);
		if (s)
			memcpy(s, b->s, b->len + 1);
		sh_buf_free(b);
		return s;
	}
	if (!b->s && !b->oom)
		sh_buf_grow(b, 0);
	if (b->oom) {
		sh_buf_free(b);
		return NULL;
	}
	s = b->s;
	s[b->len] = '\0';
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void sh_buf_free(struct sh_buf *b)
{
	if (!b->borrowed)
		kfree(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = false;
	b->borrowed = false;
}
