/*
 * kmalloc's size classes. A free object holds the address of the next
 * free object of its slab in its first word, XORed with its own address
 * and a constant. Live data rarely decodes to another object of the same
 * slab, so a kfree of an object that does is suspect and checked against
 * the slab's free list: double frees are caught without per-object
 * metadata. A free list word that decodes to garbage on allocation means
 * someone wrote to a freed object: the rest of that list is dropped
 * (leaked until the slab empties) instead of handing out wild pointers.
 */
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/mm/slab.h>
#include <trace/events/kmem.h>

#define FREEPTR_SALT	0x5a17c0ffee5eed00UL

#define KMALLOC_CACHE(sz) { .name = "kmalloc-" #sz, .size = (sz), .lock = SPINLOCK_INIT }
struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES] = {
	KMALLOC_CACHE(8), KMALLOC_CACHE(16), KMALLOC_CACHE(32), KMALLOC_CACHE(64),
	KMALLOC_CACHE(96), KMALLOC_CACHE(128), KMALLOC_CACHE(192), KMALLOC_CACHE(256),
	KMALLOC_CACHE(512), KMALLOC_CACHE(1024), KMALLOC_CACHE(2048), KMALLOC_CACHE(4096),
	KMALLOC_CACHE(8192),
};

static unsigned long large_pages;

void kmem_cache_init(void)
{
	for (int i = 0; i < NR_KMALLOC_CACHES; i++) {
		struct kmem_cache *s = &kmalloc_caches[i];

		/* One page per slab; the 8 KiB class needs two, one object each. */
		s->order = get_order(s->size);
		s->objects = (unsigned int)((PAGE_SIZE << s->order) / s->size);
		INIT_LIST_HEAD(&s->partial);
		s->nr_partial = s->nr_slabs = s->active_objs = 0;
	}
	large_pages = 0;
}

struct kmem_cache *kmalloc_slab(size_t size)
{
	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		if (size <= kmalloc_caches[i].size)
			return size ? &kmalloc_caches[i] : NULL;
	return NULL;
}

static void *get_freeptr(const void *obj)
{
	return (void *)(*(const unsigned long *)obj ^ (unsigned long)obj ^ FREEPTR_SALT);
}

static void set_freeptr(void *obj, const void *next)
{
	*(unsigned long *)obj = (unsigned long)next ^ (unsigned long)obj ^ FREEPTR_SALT;
}

/* p is the start of one of slab's objects. */
static bool is_object(const struct kmem_cache *s, const struct page *slab, const void *p)
{
	unsigned long off = (unsigned long)p - (unsigned long)page_address(slab);

	return off < (unsigned long)s->objects * s->size && off % s->size == 0;
}

/* The first word of obj decodes to a free-list link: the end, or an object of slab. */
static bool holds_freeptr(const struct kmem_cache *s, const struct page *slab, const void *obj)
{
	const void *next = get_freeptr(obj);

	return !next || is_object(s, slab, next);
}

/* obj is on slab's free list (a walk that stops at a corrupted link). */
static bool on_freelist(const struct kmem_cache *s, const struct page *slab, const void *obj)
{
	const void *p = slab->freelist;

	for (unsigned int n = 0; p && n < s->objects; n++) {
		if (p == obj)
			return true;
		if (!holds_freeptr(s, slab, p))
			break;
		p = get_freeptr(p);
	}
	return false;
}

static struct page *new_slab(struct kmem_cache *s, gfp_t flags)
{
	struct page *slab = alloc_pages(flags & ~__GFP_ZERO, s->order);
	char *base;

	if (!slab)
		return NULL;
	base = page_address(slab);
	for (unsigned int i = 0; i < s->objects; i++)
		set_freeptr(base + i * s->size, i + 1 < s->objects ? base + (i + 1) * s->size : NULL);
	slab->freelist = base;
	slab->inuse = 0;
	slab->slab_cache = s;
	slab->flags |= PG_slab;
	return slab;
}

static void *slab_alloc(struct kmem_cache *s, gfp_t flags, unsigned long caller)
{
	unsigned long irqflags;
	struct page *slab;
	void *obj, *next;

	spin_lock_irqsave(&s->lock, irqflags);
	slab = list_first_entry_or_null(&s->partial, struct page, lru);
	if (!slab) {
		/* The page allocator has its own lock; do not nest it inside ours. */
		spin_unlock_irqrestore(&s->lock, irqflags);
		slab = new_slab(s, flags);
		if (!slab)
			return NULL;
		spin_lock_irqsave(&s->lock, irqflags);
		list_add(&slab->lru, &s->partial);
		s->nr_partial++;
		s->nr_slabs++;
	}
	obj = slab->freelist;
	next = get_freeptr(obj);
	if (next && !is_object(s, slab, next)) {
		pr_err("kmalloc: %s free list corrupted at %p (written after free?); allocating for %pS\n",
		       s->name, obj, (void *)caller);
		next = NULL;
	}
	slab->freelist = next;
	/*
	 * A live object must not look like a free one: with its link word
	 * left as it was, the double-free check at kfree walks the whole
	 * free list for every object whose caller never wrote that word.
	 */
	*(unsigned long *)obj = 0;
	slab->inuse++;
	s->active_objs++;
	if (!next) {
		list_del(&slab->lru);
		s->nr_partial--;
	}
	spin_unlock_irqrestore(&s->lock, irqflags);
	return obj;
}

/* Returns the reason a free of p is refused, or NULL after freeing it. */
static const char *slab_free(struct page *slab, void *p)
{
	struct kmem_cache *s = READ_ONCE(slab->slab_cache);
	bool was_full, release = false;
	const char *bad = NULL;
	unsigned long irqflags;

	if (!s)
		return "not allocated by kmalloc";
	spin_lock_irqsave(&s->lock, irqflags);
	/* The slab may have been released since the caller looked at its flags. */
	if (!(slab->flags & PG_slab) || slab->slab_cache != s)
		bad = "not allocated by kmalloc";
	else if (!is_object(s, slab, p))
		bad = "pointer into the middle of an object";
	else if (holds_freeptr(s, slab, p) && on_freelist(s, slab, p))
		bad = "double free";
	if (bad) {
		spin_unlock_irqrestore(&s->lock, irqflags);
		return bad;
	}
	was_full = !slab->freelist;
	set_freeptr(p, slab->freelist);
	slab->freelist = p;
	slab->inuse--;
	s->active_objs--;
	if (was_full) {
		list_add(&slab->lru, &s->partial);
		s->nr_partial++;
	}
	/* Keep one empty slab per class, so alloc/free pairs do not churn pages. */
	if (!slab->inuse && s->nr_partial > 1) {
		list_del(&slab->lru);
		s->nr_partial--;
		s->nr_slabs--;
		slab->flags &= ~PG_slab;
		slab->slab_cache = NULL;
		release = true;
	}
	spin_unlock_irqrestore(&s->lock, irqflags);
	if (release)
		__free_pages(slab, s->order);
	return NULL;
}

static void *kmalloc_large(size_t size, gfp_t flags)
{
	unsigned int order = get_order(size);
	struct page *page;

	if (order > MAX_ORDER)
		return NULL;
	page = alloc_pages(flags & ~__GFP_ZERO, order);
	if (!page)
		return NULL;
	__atomic_fetch_or(&page->flags, PG_large_kmalloc, __ATOMIC_RELAXED);
	__atomic_fetch_add(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	return page_address(page);
}

void *__do_kmalloc(size_t size, gfp_t flags, unsigned long caller)
{
	struct kmem_cache *s;
	size_t bytes_alloc = 0;
	void *ret;

	if (!size)
		return ZERO_SIZE_PTR;	/* untraced, as in Linux */
	if ((s = kmalloc_slab(size))) {
		ret = slab_alloc(s, flags, caller);
		bytes_alloc = s->size;
	} else {
		ret = kmalloc_large(size, flags);
		bytes_alloc = PAGE_SIZE << get_order(size);
	}
	if (!ret)
		bytes_alloc = 0;
	else if (flags & __GFP_ZERO)
		memset(ret, 0, bytes_alloc);
	/* A failed allocation is an event too (ptr 0, bytes_alloc 0); NUMA_NO_NODE. */
	trace_kmalloc(caller, ret, size, bytes_alloc, kmem_gfp_linux(flags), -1);
	return ret;
}

void __do_kfree(const void *p, unsigned long caller)
{
	const char *bad = "not allocated by kmalloc";
	struct page *page;
	u32 pflags;

	trace_kfree(caller, p);	/* kfree(NULL) too, as Linux traces it */
	if (ZERO_OR_NULL_PTR(p))
		return;
	if (virt_addr_valid(p)) {
		page = virt_to_page(p);
		pflags = READ_ONCE(page->flags);
		if (pflags & PG_slab) {
			bad = slab_free(page, (void *)p);
		} else if ((pflags & PG_large_kmalloc) && p == page_address(page)) {
			/* Clearing the flag atomically lets only one of two racing frees through. */
			pflags = __atomic_fetch_and(&page->flags, ~PG_large_kmalloc, __ATOMIC_RELAXED);
			if (pflags & PG_large_kmalloc) {
				__atomic_fetch_sub(&large_pages, 1UL << page->order, __ATOMIC_RELAXED);
				__free_pages(page, page->order);
				bad = NULL;
			}
		} else if (pflags & PG_large_kmalloc) {
			bad = "pointer into the middle of an allocation";
		}
	}
	if (bad)
		pr_err("kfree: bad free of %p from %pS: %s\n", p, (void *)caller, bad);
}

size_t __ksize(const void *p, unsigned long caller)
{
	struct page *page;

	if (ZERO_OR_NULL_PTR(p))
		return 0;
	if (virt_addr_valid(p)) {
		page = virt_to_page(p);
		if (page->flags & PG_slab)
			return page->slab_cache->size;
		if ((page->flags & PG_large_kmalloc) && p == page_address(page))
			return PAGE_SIZE << page->order;
	}
	pr_err("ksize: %p from %pS was not allocated by kmalloc\n", p, (void *)caller);
	return 0;
}

unsigned long nr_slab_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		n += READ_ONCE(kmalloc_caches[i].nr_slabs) << kmalloc_caches[i].order;
	return n;
}

unsigned long nr_kmalloc_large_pages(void)
{
	return READ_ONCE(large_pages);
}
