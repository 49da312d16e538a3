/* Unit tests of the kmalloc core: size classes, ksize, slabs, bad frees. */
/* uses: kernel/mm/slab.c kernel/mm/page_alloc.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c tests/host/kmem_tracepoints.c */
#include <criterion/criterion.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/mm/slab.h>
#include "tests/unit/mm_arena.h"
#include <stdlib.h>
#include <pthread.h>

static void setup(void)
{
	mm_arena_init(true);
}

TestSuite(slab, .init = setup, .fini = teardown);

#define km(size)	__do_kmalloc((size), GFP_KERNEL, 0x1234)
#define kf(p)		__do_kfree((p), 0x1234)

Test(slab, size_class_selection)
{
	static const struct { size_t req, cls; } cases[] = {
		{ 1, 8 }, { 8, 8 }, { 9, 16 }, { 33, 64 }, { 65, 96 }, { 96, 96 }, { 97, 128 },
		{ 129, 192 }, { 193, 256 }, { 257, 512 }, { 1000, 1024 }, { 2048, 2048 },
		{ 2049, 4096 }, { 4097, 8192 }, { 8192, 8192 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kmem_cache *s = kmalloc_slab(cases[i].req);

		cr_assert_not_null(s);
		cr_assert_eq(s->size, cases[i].cls, "%zu -> %u", cases[i].req, s->size);
	}
	cr_assert_null(kmalloc_slab(0));
	cr_assert_null(kmalloc_slab(8193));
	cr_assert_str_eq(kmalloc_slab(100)->name, "kmalloc-128");
}

Test(slab, ksize_is_the_class_size)
{
	for (size_t req = 1; req <= KMALLOC_MAX_CACHE_SIZE; req += 37) {
		void *p = km(req);

		cr_assert_not_null(p);
		cr_assert_eq(__ksize(p, 0), kmalloc_slab(req)->size);
		cr_assert_eq(((unsigned long)p & (PAGE_SIZE - 1)) % min(__ksize(p, 0), PAGE_SIZE), 0,
			     "objects sit at multiples of their size in the slab");
		memset(p, 0xab, __ksize(p, 0));
		kf(p);
	}
	void *big = km(3 * PAGE_SIZE);

	cr_assert_eq(__ksize(big, 0), 4 * PAGE_SIZE);
	cr_assert_eq(nr_kmalloc_large_pages(), 4);
	kf(big);
	cr_assert_eq(nr_kmalloc_large_pages(), 0);
}

Test(slab, zero_size_and_null)
{
	void *z = km(0);

	cr_assert_eq(z, ZERO_SIZE_PTR);
	cr_assert_eq(__ksize(z, 0), 0);
	kf(z);
	kf(NULL);
	cr_assert_null(km((size_t)1 << 40), "bigger than the largest block");
}

Test(slab, objects_are_distinct_and_reused)
{
	static void *p[2000];
	unsigned long free0 = nr_free_pages();

	for (int i = 0; i < 2000; i++) {
		p[i] = km(64);
		memset(p[i], i & 0xff, 64);
	}
	for (int i = 0; i < 2000; i++)
		for (int j = 0; j < 64; j++)
			cr_assert_eq(((u8 *)p[i])[j], i & 0xff, "object %d overlapped", i);
	cr_assert_eq(kmalloc_slab(64)->active_objs, 2000);
	cr_assert_eq(nr_slab_pages(), DIV_ROUND_UP(2000, PAGE_SIZE / 64));
	for (int i = 0; i < 2000; i++)
		kf(p[i]);
	cr_assert_eq(kmalloc_slab(64)->active_objs, 0);
	/* Empty slabs go back to the page allocator, bar one kept per class. */
	cr_assert_eq(nr_slab_pages(), 1);
	cr_assert_eq(nr_free_pages(), free0 - 1);
	void *again = km(64);
	cr_assert_not_null(again);
	cr_assert_eq(nr_slab_pages(), 1);
}

Test(slab, zeroing)
{
	u8 *p = km(200);

	memset(p, 0xff, 256);
	kf(p);
	p = __do_kmalloc(200, GFP_KERNEL | __GFP_ZERO, 0);
	for (int i = 0; i < 256; i++)
		cr_assert_eq(p[i], 0);
	u8 *big = __do_kmalloc(20000, GFP_KERNEL | __GFP_ZERO, 0);
	for (int i = 0; i < 20000; i++)
		cr_assert_eq(big[i], 0);
}

Test(slab, double_free_is_detected)
{
	void *a = km(32), *b = km(32), *c = km(32);

	kf(b);
	kf(b);		/* reported, ignored */
	cr_assert_eq(kmalloc_slab(32)->active_objs, 2);
	/* The free list still has b exactly once. */
	void *x = km(32), *y = km(32);

	cr_assert_eq(x, b);
	cr_assert_neq(y, b);
	cr_assert_neq(y, a);
	cr_assert_neq(y, c);
	/* The last free object of a slab has an end-of-list link; still caught. */
	kf(y);
	kf(y);
	cr_assert_eq(kmalloc_slab(32)->active_objs, 3);
	/* An 8-byte object whose only word is its free-list link. */
	void *e = km(8);
	kf(e);
	kf(e);
	cr_assert_eq(kmalloc_slab(8)->active_objs, 0);
}

Test(slab, live_data_that_looks_like_a_link_is_not_a_double_free)
{
	unsigned long *a = km(16), *b = km(16);

	/* Make a hold exactly what a free-list link to b would be. */
	*a = (unsigned long)b ^ (unsigned long)a ^ 0x5a17c0ffee5eed00UL;
	kf(a);
	cr_assert_eq(kmalloc_slab(16)->active_objs, 1, "the free went through");
}

Test(slab, foreign_and_interior_pointers_are_refused)
{
	static char not_heap[64];
	char *p = km(128);
	char *big = km(5 * PAGE_SIZE);
	unsigned long active = kmalloc_slab(128)->active_objs;
	unsigned long free0 = nr_free_pages();

	kf(not_heap);		/* outside the direct map */
	kf(p + 8);		/* inside an object */
	kf(big + PAGE_SIZE);	/* inside a large block */
	kf(big + 16);
	kf(__va(1000UL * PAGE_SIZE + 64));	/* a free page */
	cr_assert_eq(__ksize(not_heap, 0), 0);
	cr_assert_eq(kmalloc_slab(128)->active_objs, active);
	cr_assert_eq(nr_free_pages(), free0);
	kf(big);
	kf(big);		/* double free of a large block */
	cr_assert_eq(nr_free_pages(), free0 + 8);
	/* Page-allocator frees of kmalloc memory are refused too. */
	__free_pages(virt_to_page(p), 0);
	cr_assert_eq(nr_free_pages(), free0 + 8);
}

Test(slab, use_after_free_write_does_not_hand_out_wild_pointers)
{
	unsigned long *a = km(64), *b = km(64);

	kf(b);
	kf(a);			/* free list: a -> b -> ... */
	*a = 0x4141414141414141UL;	/* scribble on a freed object */
	cr_assert_eq(km(64), a);
	void *next = km(64);	/* the corrupted rest was dropped: a fresh slab */
	cr_assert_not_null(next);
	cr_assert(virt_addr_valid(next));
	cr_assert_neq(next, (void *)0x4141414141414141UL);
}

Test(slab, the_8k_class_uses_two_page_slabs)
{
	void *p = km(8000), *q = km(8000);

	cr_assert_eq(__ksize(p, 0), 8192);
	cr_assert_eq(virt_to_page(p)->order, 1);
	cr_assert_neq(p, q);
	kf(p);
	kf(q);
}

static void *churn(void *arg)
{
	void *p[32];

	host_cpu_id = (int)(long)arg;
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < 32; i++) {
			p[i] = km((size_t)(8 + (i * 97 + round) % 3000));
			memset(p[i], i, 8);
		}
		for (int i = 0; i < 32; i++) {
			cr_assert_eq(*(u8 *)p[i], i);
			kf(p[i]);
		}
	}
	return NULL;
}

Test(slab, concurrent_churn)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, churn, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		cr_assert_eq(kmalloc_caches[i].active_objs, 0, "%s", kmalloc_caches[i].name);
}
