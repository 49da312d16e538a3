/*
 * The slab core: kmalloc's size classes and the named caches, one kind of
 * cache. A free object holds the address of the next free object of its
 * slab in its first word (past the object when a constructor owns it all),
 * XORed with its own address and a constant. Live data rarely decodes to another object of the same
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

#define KMALLOC_CACHE(sz) { .name = "kmalloc-" #sz, .object_size = (sz), .lock = SPINLOCK_INIT }
struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES] = {
	KMALLOC_CACHE(8), KMALLOC_CACHE(16), KMALLOC_CACHE(32), KMALLOC_CACHE(64),
	KMALLOC_CACHE(96), KMALLOC_CACHE(128), KMALLOC_CACHE(192), KMALLOC_CACHE(256),
	KMALLOC_CACHE(512), KMALLOC_CACHE(1024), KMALLOC_CACHE(2048), KMALLOC_CACHE(4096),
	KMALLOC_CACHE(8192),
};

/* The cache the struct kmem_cache of kmem_cache_create come from, as Linux's. */
static struct kmem_cache kmem_cache_boot = { .name = "kmem_cache", .lock = SPINLOCK_INIT };

LIST_HEAD(slab_caches);
spinlock_t slab_caches_lock = SPINLOCK_INIT;

static unsigned long large_pages;

/* Slabs grow to at most 2^SLAB_MAX_ORDER pages looking for little waste. */
#define SLAB_MAX_ORDER	3
#define CACHE_LINE	64

/*
 * Lays out s's objects: the stride is the object rounded up to the
 * alignment, plus a word for the free pointer when a constructor owns
 * the whole object (without one, a free object's first word holds it).
 * The slab is the smallest that holds an object and wastes at most an
 * eighth of itself, up to 2^SLAB_MAX_ORDER pages. For kmalloc's classes
 * (powers of two, 96, 192) that is the class's size on as many pages as
 * one object needs.
 */
static void cache_layout(struct kmem_cache *s, unsigned int align)
{
	unsigned int size = ALIGN_UP(s->object_size, sizeof(void *));

	if (align < sizeof(void *))
		align = sizeof(void *);
	if (s->flags & SLAB_HWCACHE_ALIGN) {
		unsigned int line = CACHE_LINE;

		while (s->object_size <= line / 2)	/* small objects share lines */
			line /= 2;
		if (align < line)
			align = line;
	}
	s->offset = 0;
	if (s->ctor) {
		s->offset = size;
		size += sizeof(void *);
	}
	s->size = ALIGN_UP(size, align);
	for (s->order = get_order(s->size); s->order < SLAB_MAX_ORDER; s->order++)
		if ((PAGE_SIZE << s->order) % s->size * 8 <= PAGE_SIZE << s->order)
			break;
	s->objects = (unsigned int)((PAGE_SIZE << s->order) / s->size);
}

/* Sets s up (name, object_size, flags, ctor filled in) and lists it. */
static void cache_open(struct kmem_cache *s, unsigned int align)
{
	unsigned long irqflags;

	cache_layout(s, align);
	INIT_LIST_HEAD(&s->partial);
	s->nr_partial = s->nr_slabs = s->active_objs = 0;
	spin_lock_irqsave(&slab_caches_lock, irqflags);
	list_add(&s->list, &slab_caches);
	spin_unlock_irqrestore(&slab_caches_lock, irqflags);
}

void kmem_cache_init(void)
{
	INIT_LIST_HEAD(&slab_caches);
	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		cache_open(&kmalloc_caches[i], 0);
	kmem_cache_boot.object_size = sizeof(struct kmem_cache);
	cache_open(&kmem_cache_boot, 0);
	large_pages = 0;
}

struct kmem_cache *kmalloc_slab(size_t size)
{
	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		if (size <= kmalloc_caches[i].object_size)
			return size ? &kmalloc_caches[i] : NULL;
	return NULL;
}

/*
 * The head page of the slab holding p, or NULL when p is in no slab. A
 * slab is a buddy block, aligned to its own size, so its head is p's page
 * rounded down to the slab's order: the first page that heads a block,
 * rounding down order by order, heads the one holding p. Larger slabs
 * than 2^SLAB_MAX_ORDER pages hold one object, at their head.
 */
static __always_inline struct page *virt_to_slab(const void *p)
{
	unsigned long pfn = __pa(p) >> PAGE_SHIFT;

	if (!virt_addr_valid(p))
		return NULL;
	for (unsigned int order = 0; order <= SLAB_MAX_ORDER; order++) {
		u32 flags = READ_ONCE(pfn_to_page(pfn & ~((1UL << order) - 1))->flags);

		if (flags & PG_slab)
			return pfn_to_page(pfn & ~((1UL << order) - 1));
		if (flags & (PG_head | PG_buddy))
			return NULL;
	}
	return NULL;
}

static void *get_freeptr(const struct kmem_cache *s, const void *obj)
{
	const unsigned long *w = (const void *)((const char *)obj + s->offset);

	return (void *)(*w ^ (unsigned long)obj ^ FREEPTR_SALT);
}

static void set_freeptr(const struct kmem_cache *s, void *obj, const void *next)
{
	unsigned long *w = (void *)((char *)obj + s->offset);

	*w = (unsigned long)next ^ (unsigned long)obj ^ FREEPTR_SALT;
}

/* p is the start of one of slab's objects. */
static bool is_object(const struct kmem_cache *s, const struct page *slab, const void *p)
{
	unsigned long off = (unsigned long)p - (unsigned long)page_address(slab);

	return off < (unsigned long)s->objects * s->size && off % s->size == 0;
}

/* obj's free-pointer word decodes to a link: the end, or an object of slab. */
static bool holds_freeptr(const struct kmem_cache *s, const struct page *slab, const void *obj)
{
	const void *next = get_freeptr(s, obj);

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
		p = get_freeptr(s, p);
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
	for (unsigned int i = 0; i < s->objects; i++) {
		if (s->ctor)
			s->ctor(base + i * s->size);
		set_freeptr(s, base + i * s->size,
			    i + 1 < s->objects ? base + (i + 1) * s->size : NULL);
	}
	slab->freelist = base;
	slab->inuse = 0;
	slab->slab_cache = s;
	slab->flags |= PG_slab;
	return slab;
}

/*
 * The allocation and free paths are inlined into each entry (kmalloc,
 * kmem_cache_alloc, their frees): a fork makes some twenty objects.
 */
static __always_inline void *slab_alloc(struct kmem_cache *s, gfp_t flags, unsigned long caller)
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
	next = get_freeptr(s, obj);
	if (next && !is_object(s, slab, next)) {
		pr_err("slab: %s free list corrupted at %p (written after free?); allocating for %pS\n",
		       s->name, obj, (void *)caller);
		next = NULL;
	}
	slab->freelist = next;
	/*
	 * A live object must not look like a free one: with its link word
	 * left as it was, the double-free check at kfree walks the whole
	 * free list for every object whose caller never wrote that word.
	 */
	*(unsigned long *)((char *)obj + s->offset) = 0;
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
static __always_inline const char *slab_free(struct page *slab, void *p)
{
	struct kmem_cache *s = READ_ONCE(slab->slab_cache);
	bool was_full, release = false;
	const char *bad = NULL;
	unsigned long irqflags;

	if (!s)
		return "not a slab object";
	spin_lock_irqsave(&s->lock, irqflags);
	/* The slab may have been released since the caller looked at its flags. */
	if (!(slab->flags & PG_slab) || slab->slab_cache != s)
		bad = "not a slab object";
	else if (!is_object(s, slab, p))
		bad = "pointer into the middle of an object";
	else if (holds_freeptr(s, slab, p) && on_freelist(s, slab, p))
		bad = "double free";
	if (bad) {
		spin_unlock_irqrestore(&s->lock, irqflags);
		return bad;
	}
	was_full = !slab->freelist;
	set_freeptr(s, p, slab->freelist);
	slab->freelist = p;
	slab->inuse--;
	s->active_objs--;
	if (was_full) {
		list_add(&slab->lru, &s->partial);
		s->nr_partial++;
	}
	/* Keep one empty slab per cache, so alloc/free pairs do not churn pages. */
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
		bytes_alloc = s->object_size;
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
	if ((page = virt_to_slab(p))) {
		bad = slab_free(page, (void *)p);
	} else if (virt_addr_valid(p)) {
		page = virt_to_page(p);
		pflags = READ_ONCE(page->flags);
		if ((pflags & PG_large_kmalloc) && p == page_address(page)) {
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
	if ((page = virt_to_slab(p)))
		return page->slab_cache->object_size;
	if (virt_addr_valid(p)) {
		page = virt_to_page(p);
		if ((page->flags & PG_large_kmalloc) && p == page_address(page))
			return PAGE_SIZE << page->order;
	}
	pr_err("ksize: %p from %pS was not allocated by kmalloc\n", p, (void *)caller);
	return 0;
}

unsigned long nr_slab_pages(void)
{
	struct kmem_cache *s;
	unsigned long n = 0, irqflags;

	spin_lock_irqsave(&slab_caches_lock, irqflags);
	list_for_each_entry(s, &slab_caches, list)
		n += READ_ONCE(s->nr_slabs) << s->order;
	spin_unlock_irqrestore(&slab_caches_lock, irqflags);
	return n;
}

struct kmem_cache *__kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				       slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s;

	/* A name, and an object up to half the largest block: its padding always fits. */
	if (!name || !size || size > (PAGE_SIZE << (MAX_ORDER - 1)) || (align & (align - 1)))
		return NULL;
	s = slab_alloc(&kmem_cache_boot, GFP_KERNEL, _RET_IP_);
	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->name = kstrdup(name, GFP_KERNEL);
	if (!s->name) {
		slab_free(virt_to_slab(s), s);
		return NULL;
	}
	s->object_size = size;
	s->flags = flags;
	s->ctor = ctor;
	s->lock = (spinlock_t)SPINLOCK_INIT;
	cache_open(s, align);
	return s;
}

bool __kmem_cache_destroy(struct kmem_cache *s)
{
	unsigned long irqflags;
	struct page *slab, *next;

	spin_lock_irqsave(&s->lock, irqflags);
	if (s->active_objs) {
		spin_unlock_irqrestore(&s->lock, irqflags);
		return false;
	}
	spin_unlock_irqrestore(&s->lock, irqflags);
	spin_lock_irqsave(&slab_caches_lock, irqflags);
	list_del(&s->list);
	spin_unlock_irqrestore(&slab_caches_lock, irqflags);
	/* No live object: every slab is an empty one on the partial list. */
	list_for_each_entry_safe(slab, next, &s->partial, lru) {
		list_del(&slab->lru);
		slab->flags &= ~PG_slab;
		slab->slab_cache = NULL;
		__free_pages(slab, s->order);
	}
	kfree(s->name);
	slab_free(virt_to_slab(s), s);
	return true;
}

void *__do_kmem_cache_alloc(struct kmem_cache *s, gfp_t flags, unsigned long caller)
{
	void *ret = slab_alloc(s, flags, caller);

	if (ret && (flags & __GFP_ZERO))
		memset(ret, 0, s->object_size);
	/* Never accounted: no memcg, as Linux without CONFIG_MEMCG. */
	trace_kmem_cache_alloc(caller, ret, s->object_size, s->size, kmem_gfp_linux(flags), -1,
			       false);
	return ret;
}

void __do_kmem_cache_free(struct kmem_cache *s, void *p, unsigned long caller)
{
	const char *bad = "not a slab object";
	struct page *page;

	if (!p)
		return;
	trace_kmem_cache_free(caller, p, s->name);
	if ((page = virt_to_slab(p))) {
		struct kmem_cache *owner = READ_ONCE(page->slab_cache);

		/* Linux warns, then frees to the cache the object is from. */
		if (owner && owner != s)
			pr_err("kmem_cache_free: %p from %pS is from %s, not %s\n",
			       p, (void *)caller, owner->name, s->name);
		bad = slab_free(page, p);
	}
	if (bad)
		pr_err("kmem_cache_free: bad free of %p from %pS: %s\n", p, (void *)caller, bad);
}

unsigned long nr_kmalloc_large_pages(void)
{
	return READ_ONCE(large_pages);
}
