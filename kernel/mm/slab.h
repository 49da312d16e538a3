/*
 * The kmalloc core (kernel/mm/slab.c), between the out-of-line kmalloc
 * entry points (kernel/mm/kmalloc.c) and the page allocator. Pure.
 *
 * Requests up to KMALLOC_MAX_CACHE_SIZE come from size classes: slabs of
 * 2^order pages carved into equal objects, whose head struct page records
 * the class, so kfree and ksize find everything from the pointer alone.
 * Bigger requests take whole page blocks straight from the buddy allocator.
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

/* A size class ("kmalloc-64"). */
struct kmem_cache {
	const char *name;
	unsigned int size;		/* object size; also the alignment */
	unsigned int order;		/* a slab is 2^order pages */
	unsigned int objects;		/* objects per slab */
	spinlock_t lock;		/* partial list and counters; irq-safe */
	struct list_head partial;	/* slabs with a free object (struct page.lru) */
	unsigned long nr_partial;
	unsigned long nr_slabs;
	unsigned long active_objs;	/* objects handed out */
};

/* Sets up the size classes; before the first kmalloc. */
void kmem_cache_init(void);

/* The class serving size bytes (1..KMALLOC_MAX_CACHE_SIZE), or NULL. */
struct kmem_cache *kmalloc_slab(size_t size);
/* The classes in size order, for /proc/slabinfo. */
extern struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];

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
