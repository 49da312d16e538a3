/*
 * String and memory functions. Pure code includes this and gets libc's on
 * the host and kernel/lib/string.c's in the kernel, with the same names.
 */
#ifndef KERNEL_STRING_H
#define KERNEL_STRING_H

#include <kernel/types.h>

#ifdef SPOOR_HOST
#include <string.h>
#include <stdio.h>
#else
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) __printf(3, 0);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
/*
 * -ffreestanding makes every memcpy and memset a call, even a record's
 * 16-byte comm: GCC inlines the constant-size ones this way and calls the
 * functions for the rest. kernel/lib/string.c, defining them, opts out.
 */
#ifndef KERNEL_STRING_DEFINE
#define memcpy(dst, src, n)	__builtin_memcpy(dst, src, n)
#define memset(dst, c, n)	__builtin_memset(dst, c, n)
#endif
#endif

/* Both builds: kernel/lib/kstring.c. */
size_t strscpy(char *dst, const char *src, size_t size);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
/* Like snprintf, but returns the bytes actually written (never more than size-1). */
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
