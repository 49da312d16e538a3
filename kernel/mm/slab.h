/*
 * The slab core (kernel/mm/slab.c), between the out-of-line kmalloc and
 * kmem_cache entry points (kernel/mm/kmalloc.c, kernel/mm/slab_common.c)
 * and the page allocator. Pure.
 *
 * Caches carve slabs of 2^order pages into equal objects; a slab's head
 * struct page records its cache, so kfree and ksize find everything from
 * the pointer alone. kmalloc requests up to KMALLOC_MAX_CACHE_SIZE come
 * from its size classes, caches named "kmalloc-N"; bigger requests take
 * whole page blocks straight from the buddy allocator.
 */
#ifndef KERNEL_MM_SLAB_H
#define KERNEL_MM_SLAB_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/slab.h>

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_MAX_CACHE_SIZE	8192
#define NR_KMALLOC_CACHES	13

/* What kmalloc(0) returns, as in Linux: not NULL, but faults when used. */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(p)	((unsigned long)(p) <= (unsigned long)ZERO_SIZE_PTR)

/*
 * A slab cache: objects of one size carved from slabs of 2^order pages.
 * The kmalloc size classes ("kmalloc-64") are caches like the named ones
 * kmem_cache_create makes ("task_struct"); all are on slab_caches.
 */
struct kmem_cache {
	const char *name;
	unsigned int object_size;	/* what the creator asked for (bytes_req) */
	unsigned int size;		/* stride between objects (bytes_alloc) */
	unsigned int offset;		/* of the free pointer in a free object */
	slab_flags_t flags;
	void (*ctor)(void *);		/* run on each object of a new slab */
	unsigned int order;		/* a slab is 2^order pages */
	unsigned int objects;		/* objects per slab */
	spinlock_t lock;		/* partial list and counters; irq-safe */
	struct list_head partial;	/* slabs with a free object (struct page.lru) */
	unsigned long nr_partial;
	unsigned long nr_slabs;
	unsigned long active_objs;	/* objects handed out */
	struct list_head list;		/* on slab_caches, newest first */
};

/* Sets up the size classes and the cache of caches; before the first kmalloc. */
void kmem_cache_init(void);

/* The class serving size bytes (1..KMALLOC_MAX_CACHE_SIZE), or NULL. */
struct kmem_cache *kmalloc_slab(size_t size);
extern struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];

/* Every cache, newest first (/proc/slabinfo's order); slab_caches_lock guards it. */
extern struct list_head slab_caches;
extern spinlock_t slab_caches_lock;

/*
 * The work of kmem_cache_create/destroy/alloc/free (kernel/mm/slab_common.c
 * holds the entry points); caller is the call site the kmem events report.
 * __kmem_cache_destroy refuses (false) while objects are live.
 */
struct kmem_cache *__kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				       slab_flags_t flags, void (*ctor)(void *));
bool __kmem_cache_destroy(struct kmem_cache *s);
void *__do_kmem_cache_alloc(struct kmem_cache *s, gfp_t flags, unsigned long caller);
void __do_kmem_cache_free(struct kmem_cache *s, void *p, unsigned long caller);

/*
 * The work of kmalloc/kfree/ksize; caller is the call site the kmem
 * events report. Bad frees (double, interior, foreign pointers) are
 * reported with the caller and ignored.
 */
void *__do_kmalloc(size_t size, gfp_t flags, unsigned long caller);
void __do_kfree(const void *p, unsigned long caller);
size_t __ksize(const void *p, unsigned long caller);

/* Pages held by slabs and by large kmallocs: Slab in /proc/meminfo. */
unsigned long nr_slab_pages(void);
unsigned long nr_kmalloc_large_pages(void);

#endif
