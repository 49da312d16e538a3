/*
 * Arenas for syntax trees: a parsed command is freed all at once when the
 * last user (the run, or a function defined in it) drops its reference.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>

/* A block of arena memory; big requests get a block of their own. */
struct sh_arena_chunk {
	struct sh_arena_chunk *next;
	size_t used, size;
	char data[];
};

#define SH_CHUNK_SIZE	2048

struct sh_arena *sh_arena_new(void)
{
	struct sh_arena *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (a)
		atomic_set(&a->ref, 1);
	return a;
}

void *sh_arena_alloc(struct sh_arena *a, size_t size)
{
	struct sh_arena_chunk *c = a->chunks;
	void *p;

	size = ALIGN_UP(size ? size : 1, 16);
	if (!c || c->size - c->used < size) {
		size_t csize = size > SH_CHUNK_SIZE ? size : SH_CHUNK_SIZE;

		c = kmalloc(sizeof(*c) + csize, GFP_KERNEL);
		if (!c)
			return NULL;
		c->used = 0;
		c->size = csize;
		c->next = a->chunks;
		a->chunks = c;
	}
	p = c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

char *sh_arena_strdup(struct sh_arena *a, const char *s, size_t len)
{
	char *d = sh_arena_alloc(a, len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

void sh_arena_get(struct sh_arena *a)
{
	atomic_inc(&a->ref);
}

void sh_arena_put(struct sh_arena *a)
{
	if (!a || !atomic_dec_and_test(&a->ref))
		return;
	while (a->chunks) {
		struct sh_arena_chunk *c = a->chunks;

		a->chunks = c->next;
		kfree(c);
	}
	kfree(a);
}
