/*
 * Growable byte strings for the shell and its commands. Running out of
 * memory is sticky (oom) instead of reported by every append, so callers
 * check once when they are done.
 */
#ifndef KERNEL_SHELL_SH_BUF_H
#define KERNEL_SHELL_SH_BUF_H

#include <kernel/types.h>

struct sh_buf {
	char *s;		/* always NUL-terminated once anything was added */
	size_t len, cap;
	bool oom;
};

void sh_buf_putc(struct sh_buf *b, char c);
void sh_buf_put(struct sh_buf *b, const void *s, size_t n);
void sh_buf_puts(struct sh_buf *b, const char *s);
void sh_buf_printf(struct sh_buf *b, const char *fmt, ...) __printf(2, 3);
/* The string (never NULL unless out of memory); b is empty again. */
char *sh_buf_take(struct sh_buf *b);
void sh_buf_free(struct sh_buf *b);

#endif
