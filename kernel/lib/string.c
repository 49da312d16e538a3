/* The libc-named memory and string functions of the kernel (host builds use libc's). */
/* ftrace: notrace */
#include <kernel/types.h>
#define KERNEL_STRING_DEFINE	/* the functions themselves, not the macros */
#include <kernel/string.h>

/*
 * Bulk copies and fills move 8 bytes per iteration: under QEMU's -icount
 * each iteration of a rep prefix counts as one instruction, so a page
 * zeroed with stosb costs 4096, with stosq 512.
 */
void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;
	size_t q = n / 8, r = n % 8;

	__asm__ __volatile__("rep movsq" : "+D"(d), "+S"(src), "+c"(q) :: "memory");
	__asm__ __volatile__("rep movsb" : "+D"(d), "+S"(src), "+c"(r) :: "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	d += n - 1;
	s += n - 1;
	__asm__ __volatile__("std; rep movsb; cld" : "+D"(d), "+S"(s), "+c"(n) :: "memory");
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	size_t q = n / 8, r = n % 8;
	unsigned long v = (unsigned char)c * 0x0101010101010101UL;

	__asm__ __volatile__("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
	__asm__ __volatile__("rep stosb" : "+D"(d), "+c"(r) : "a"(v) : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? NULL : (char *)hay;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}
