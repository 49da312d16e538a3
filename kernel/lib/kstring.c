/* String helpers the kernel and the host both take from here (pure). */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>

/* Copy with truncation; returns the length copied or -E2BIG when truncated. */
size_t strscpy(char *dst, const char *src, size_t size)
{
	size_t n;

	if (!size)
		return (size_t)-E2BIG;
	n = strnlen(src, size);
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return (size_t)-E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/*
 * Linux's kstrtoull: the whole string must be a number (one trailing
 * newline allowed); base 0 takes 0x and 0 prefixes. -EINVAL or -ERANGE.
 */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	int any = 0;

	if (base == 0) {
		base = 10;
		if (s[0] == '0') {
			base = 8;
			if ((s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
				base = 16;
				s += 2;
			}
		}
	} else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	}
	for (; *s; s++) {
		int d = digit_value(*s);

		if (d >= (int)base)
			break;
		if (v > (~0ULL - (unsigned)d) / base)
			return -ERANGE;
		v = v * base + (unsigned)d;
		any = 1;
	}
	if (*s == '\n')
		s++;
	if (!any || *s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int neg = (*s == '-');
	int err = kstrtoull(s + neg, base, &v);

	if (err)
		return err;
	if (neg ? v > (1ULL << 63) : v > (unsigned long long)INT64_MAX)
		return -ERANGE;
	*res = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}
