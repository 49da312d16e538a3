/*
 * The kmem_cache API (kernel/slab.h). Each allocation entry point is out
 * of line and passes its own return address down, so the kmem events
 * name the real call site, as kernel/mm/kmalloc.c does for kmalloc.
 */
#include <kernel/slab.h>
#include <kernel/printk.h>
#include <kernel/mm/slab.h>

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s = __kmem_cache_create(name, size, align, flags, ctor);

	if (!s) {
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: Failed to create slab '%s'", name ? name : "(null)");
		pr_warn("kmem_cache_create(%s) failed\n", name ? name : "(null)");
	}
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	if (s && !__kmem_cache_destroy(s))
		pr_err("kmem_cache_destroy %s: Slab cache still has objects when called from %pS\n",
		       s->name, (void *)_RET_IP_);
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	return __do_kmem_cache_alloc(s, flags, _RET_IP_);
}

void kmem_cache_free(struct kmem_cache *s, void *p)
{
	__do_kmem_cache_free(s, p, _RET_IP_);
}
