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
	bool borrowed;		/* s is the caller's storage (sh_buf_init_on): never freed */
};

/*
 * Start b in the caller's storage (a stack array): strings that fit cost
 * no allocation; a longer one moves to the heap as it grows.
 */
static inline void sh_buf_init_on(struct sh_buf *b, char *storage, size_t size)
{
	*b = (struct sh_buf){ .s = storage, .cap = size, .borrowed = true };
	storage[0] = '\0';
}

void sh_buf_put(struct sh_buf *b, const void *s, size_t n);
/* Inline: the shell's expansion appends byte by byte. */
static inline void sh_buf_putc(struct sh_buf *b, char c)
{
	if (likely(b->len + 2 <= b->cap && !b->oom)) {
		b->s[b->len++] = c;
		b->s[b->len] = '\0';
	} else {
		sh_buf_put(b, &c, 1);
	}
}
void sh_buf_puts(struct sh_buf *b, const char *s);
/* n copies of c. */
void sh_buf_fill(struct sh_buf *b, char c, size_t n);
void sh_buf_printf(struct sh_buf *b, const char *fmt, ...) __printf(2, 3);
/*
 * The string (never NULL unless out of memory), on the heap even when b
 * was in borrowed storage; b is empty again (and on the heap from then on).
 */
char *sh_buf_take(struct sh_buf *b);
void sh_buf_free(struct sh_buf *b);

#endif
