/*
 * Named slab caches on the slab core (kernel/mm/slab.c): layouts, alignment,
 * constructors, counters, the list /proc/slabinfo shows, kfree and ksize of
 * their objects (in every page of a multi-page slab), bad frees, destroy,
 * and the kmem_cache_alloc/kmem_cache_free tracepoints with their caller.
 */
/* uses: kernel/mm/slab.c kernel/mm/page_alloc.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c tests/host/kmem_tracepoints.c */
#include <criterion/criterion.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/mm/slab.h>
#include "tests/unit/mm_arena.h"
#include <trace/events/kmem.h>
#include <stdio.h>
#include <stdlib.h>

#define CALLER	0x5678UL

static void setup(void)
{
	mm_arena_init(true);
}

TestSuite(slab_cache, .init = setup, .fini = teardown);

#define alloc(s)	__do_kmem_cache_alloc((s), GFP_KERNEL, CALLER)
#define zalloc(s)	__do_kmem_cache_alloc((s), GFP_KERNEL | __GFP_ZERO, CALLER)
#define release(s, p)	__do_kmem_cache_free((s), (p), CALLER)

Test(slab_cache, layouts)
{
	static const struct {
		unsigned int size, align;
		slab_flags_t flags;
		unsigned int stride, order, objects;
	} cases[] = {
		{ 88, 0, 0, 88, 0, 46 },		/* 8-byte aligned, one page */
		{ 1, 0, 0, 8, 0, 512 },			/* room for the free pointer */
		{ 100, 0, SLAB_HWCACHE_ALIGN, 128, 0, 32 },
		{ 20, 0, SLAB_HWCACHE_ALIGN, 32, 0, 128 },	/* small objects share lines */
		{ 100, 256, 0, 256, 0, 16 },
		{ 2936, 0, 0, 2936, 2, 5 },		/* an eighth wasted at most: 4 pages */
		{ 2112, 0, SLAB_HWCACHE_ALIGN, 2112, 2, 7 },
		{ 3504, 0, 0, 3504, 3, 9 },		/* 8 pages before waste is small */
		{ 4096, 0, 0, 4096, 0, 1 },
		{ 20000, 0, 0, 20000, 3, 1 },		/* larger than a slab: its own block */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kmem_cache *s = __kmem_cache_create("t", cases[i].size, cases[i].align,
							   cases[i].flags, NULL);

		cr_assert_not_null(s);
		cr_expect_eq(s->object_size, cases[i].size);
		cr_expect_eq(s->size, cases[i].stride, "%u: stride %u", cases[i].size, s->size);
		cr_expect_eq(s->order, cases[i].order, "%u: order %u", cases[i].size, s->order);
		cr_expect_eq(s->objects, cases[i].objects, "%u: %u objects", cases[i].size, s->objects);
		cr_assert(__kmem_cache_destroy(s));
	}
}

Test(slab_cache, refuses_what_linux_refuses)
{
	cr_assert_null(__kmem_cache_create(NULL, 64, 0, 0, NULL));
	cr_assert_null(__kmem_cache_create("zero", 0, 0, 0, NULL));
	cr_assert_null(__kmem_cache_create("align", 64, 24, 0, NULL), "not a power of two");
	cr_assert_null(__kmem_cache_create("huge", 1U << 31, 0, 0, NULL));
}

/* Objects fill slabs at their stride and alignment, and count in the cache and its list. */
Test(slab_cache, objects_counters_and_list)
{
	struct kmem_cache *s = __kmem_cache_create("widget", 100, 64, 0, NULL);
	unsigned long free0 = nr_free_pages();
	static void *p[100];

	cr_assert_str_eq(s->name, "widget");
	cr_assert_eq(list_first_entry(&slab_caches, struct kmem_cache, list), s, "newest first");
	for (int i = 0; i < 100; i++) {
		p[i] = alloc(s);
		cr_assert_not_null(p[i]);
		cr_assert_eq((unsigned long)p[i] % 64, 0);
		memset(p[i], i, 100);
	}
	for (int i = 0; i < 100; i++)
		for (int j = 0; j < 100; j++)
			cr_assert_eq(((u8 *)p[i])[j], i, "object %d overlapped", i);
	cr_assert_eq(s->active_objs, 100);
	cr_assert_eq(s->nr_slabs, DIV_ROUND_UP(100, PAGE_SIZE / 128));
	cr_assert_eq(nr_free_pages(), free0 - s->nr_slabs);
	cr_assert_eq(__ksize(p[3], 0), 100, "ksize is the object size");
	cr_assert_not(__kmem_cache_destroy(s), "live objects: refused");
	for (int i = 0; i < 100; i++)
		release(s, p[i]);
	cr_assert_eq(s->active_objs, 0);
	cr_assert_eq(s->nr_slabs, 1, "one empty slab kept");
	cr_assert(__kmem_cache_destroy(s));
	cr_assert_eq(nr_free_pages(), free0);
	cr_assert_str_eq(list_first_entry(&slab_caches, struct kmem_cache, list)->name,
			 "kmem_cache", "the cache of caches, made last at init");
}

Test(slab_cache, zalloc_zeroes_the_object)
{
	struct kmem_cache *s = __kmem_cache_create("z", 200, 0, 0, NULL);
	u8 *p = alloc(s);

	memset(p, 0xff, 200);
	release(s, p);
	p = zalloc(s);
	for (int i = 0; i < 200; i++)
		cr_assert_eq(p[i], 0);
	release(s, p);
	cr_assert(__kmem_cache_destroy(s));
}

static int ctor_calls;

static void ctor(void *obj)
{
	ctor_calls++;
	memset(obj, 0x5a, 40);
}

/* A constructed object comes back as it was freed: the free pointer is outside it. */
Test(slab_cache, ctor_runs_once_per_object)
{
	struct kmem_cache *s = __kmem_cache_create("c", 40, 0, 0, ctor);
	u8 *p, *q;

	cr_assert_eq(s->size, 48);
	cr_assert_eq(s->offset, 40);
	p = alloc(s);
	cr_assert_eq(ctor_calls, (int)s->objects, "the whole slab at once");
	for (int i = 0; i < 40; i++)
		cr_assert_eq(p[i], 0x5a);
	p[0] = 1;
	release(s, p);
	q = alloc(s);
	cr_assert_eq(q, p);
	cr_assert_eq(q[0], 1);
	for (int i = 1; i < 40; i++)
		cr_assert_eq(q[i], 0x5a, "byte %d clobbered", i);
	cr_assert_eq(ctor_calls, (int)s->objects);
	release(s, q);
	cr_assert(__kmem_cache_destroy(s));
}

/* Objects past the first page of a 4-page slab: kfree, ksize and frees find the head. */
Test(slab_cache, multi_page_slabs)
{
	struct kmem_cache *s = __kmem_cache_create("task_struct", 2936, 0, 0, NULL);
	void *p[5];

	for (int i = 0; i < 5; i++)
		p[i] = alloc(s);
	cr_assert_eq(virt_to_page(p[4]) - virt_to_page(p[0]), 2, "the last one is on the 3rd page");
	cr_assert_eq(__ksize(p[4], 0), 2936);
	__do_kfree(p[4], CALLER);		/* kfree takes a cache's objects */
	release(s, p[2]);
	cr_assert_eq(s->active_objs, 3);
	release(s, p[2]);			/* double free: reported, ignored */
	release(s, (char *)p[3] + 8);		/* interior: refused */
	cr_assert_eq(s->active_objs, 3);
	release(s, p[0]);
	release(s, p[1]);
	release(s, p[3]);
	cr_assert(__kmem_cache_destroy(s));
}

/* Linux frees an object handed to the wrong cache into its own, with a warning. */
Test(slab_cache, wrong_cache_frees_into_the_right_one)
{
	struct kmem_cache *a = __kmem_cache_create("a", 64, 0, 0, NULL);
	struct kmem_cache *b = __kmem_cache_create("b", 64, 0, 0, NULL);
	void *p = alloc(a);

	release(b, p);
	cr_assert_eq(a->active_objs, 0);
	cr_assert_eq(b->active_objs, 0);
	release(a, NULL);			/* nothing */
	cr_assert(__kmem_cache_destroy(a));
	cr_assert(__kmem_cache_destroy(b));
}

static struct {
	unsigned long call_site;
	const void *ptr;
	size_t bytes_req, bytes_alloc;
	bool accounted;
	char name[32];
	int allocs, frees;
} seen;

static void probe_alloc(void *data, unsigned long call_site, const void *ptr, size_t bytes_req,
			size_t bytes_alloc, gfp_t gfp_flags, int node, bool accounted)
{
	seen.call_site = call_site;
	seen.ptr = ptr;
	seen.bytes_req = bytes_req;
	seen.bytes_alloc = bytes_alloc;
	seen.accounted = accounted;
	seen.allocs++;
}

static void probe_free(void *data, unsigned long call_site, const void *ptr, const char *name)
{
	seen.call_site = call_site;
	seen.ptr = ptr;
	snprintf(seen.name, sizeof(seen.name), "%s", name);
	seen.frees++;
}

Test(slab_cache, tracepoints_report_the_caller)
{
	struct kmem_cache *s = __kmem_cache_create("filp", 176, 0, SLAB_HWCACHE_ALIGN, NULL);
	void *p;

	cr_assert_eq(register_trace_kmem_cache_alloc(probe_alloc, NULL), 0);
	cr_assert_eq(register_trace_kmem_cache_free(probe_free, NULL), 0);
	p = alloc(s);
	cr_assert_eq(seen.allocs, 1);
	cr_assert_eq(seen.call_site, CALLER);
	cr_assert_eq(seen.ptr, p);
	cr_assert_eq(seen.bytes_req, 176);
	cr_assert_eq(seen.bytes_alloc, 192);
	cr_assert_not(seen.accounted);
	seen.call_site = 0;
	release(s, p);
	cr_assert_eq(seen.frees, 1);
	cr_assert_eq(seen.call_site, CALLER);
	cr_assert_eq(seen.ptr, p);
	cr_assert_str_eq(seen.name, "filp");
	release(s, NULL);
	cr_assert_eq(seen.frees, 1, "no event for NULL");
	unregister_trace_kmem_cache_alloc(probe_alloc, NULL);
	unregister_trace_kmem_cache_free(probe_free, NULL);
	cr_assert(__kmem_cache_destroy(s));
}
