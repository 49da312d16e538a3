/*
 * kmalloc and kmem_cache: the general-purpose allocators. Implemented in
 * kernel/mm/slab.c; on the host, tests/host/kshim.c maps them to malloc.
 * The entry points are out-of-line so the kmem events see their caller
 * as call_site.
 */
#ifndef KERNEL_SLAB_H
#define KERNEL_SLAB_H

#include <kernel/types.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL	0x0u	/* may sleep (Spoor's kmalloc never does) */
#define GFP_ATOMIC	0x1u	/* any context, irq and NMI-free paths */
#define __GFP_ZERO	0x100u

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void *krealloc(const void *p, size_t size, gfp_t flags);
void kfree(const void *p);
char *kstrdup(const char *s, gfp_t flags);
char *kstrndup(const char *s, size_t max, gfp_t flags);
/* Usable size of a kmalloc'd block (bytes_alloc of the kmalloc event). */
size_t ksize(const void *p);

/*
 * Named caches of fixed-size objects, Linux's API: a cache per kind of
 * object the kernel makes often (task_struct, filp, ...), listed in
 * /proc/slabinfo, its allocations and frees the kmem_cache_alloc and
 * kmem_cache_free events. Objects are aligned to at least 8 bytes and
 * to align; ctor runs once on each object when its slab is made, so an
 * object comes back from kmem_cache_alloc as the last kmem_cache_free
 * left it. kfree takes a cache's objects too.
 */
typedef unsigned int slab_flags_t;
#define SLAB_HWCACHE_ALIGN	0x00002000u	/* align objects to cache lines */
#define SLAB_PANIC		0x00040000u	/* panic if the cache cannot be made */

struct kmem_cache;

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *));
/* Frees the cache; refused (and reported) while it has live objects. NULL is a no-op. */
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags);
void kmem_cache_free(struct kmem_cache *s, void *p);

static inline void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t flags)
{
	return kmem_cache_alloc(s, flags | __GFP_ZERO);
}

/* A cache for struct NAME, named NAME, aligned as the struct. */
#define KMEM_CACHE(name, flags) \
	kmem_cache_create(#name, sizeof(struct name), __alignof__(struct name), (flags), NULL)

#endif
