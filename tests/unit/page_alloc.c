/* Unit tests of the buddy allocator over a host arena standing in for RAM. */
/* uses: kernel/mm/page_alloc.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c tests/host/kmem_tracepoints.c */
#include <criterion/criterion.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <stdlib.h>
#include <pthread.h>

#define NR_PFNS 1024UL		/* one order-10 block */
#include "tests/unit/mm_arena.h"

/* Every test frees the pages it wants. */
static void setup(void)
{
	mm_arena_init(false);
}

TestSuite(page_alloc, .init = setup, .fini = teardown);

Test(page_alloc, starts_empty_then_takes_ranges)
{
	cr_assert_eq(nr_free_pages(), 0);
	cr_assert_null(alloc_pages(GFP_KERNEL, 0));
	free_boot_pages(0, NR_PFNS);
	cr_assert_eq(totalram_pages(), NR_PFNS);
	cr_assert_eq(nr_free_pages(), NR_PFNS);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		cr_assert_eq(nr_free_blocks(o), 0);
}

Test(page_alloc, split_and_merge)
{
	struct page *p;

	free_boot_pages(0, NR_PFNS);
	p = alloc_pages(GFP_KERNEL, 0);
	cr_assert_not_null(p);
	/* One block of each order 0..9 is left over from splitting the order-10 block. */
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		cr_assert_eq(nr_free_blocks(o), 1, "order %u", o);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 0);
	cr_assert_eq(nr_free_pages(), NR_PFNS - 1);
	__free_pages(p, 0);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		cr_assert_eq(nr_free_blocks(o), 0);
}

Test(page_alloc, blocks_are_naturally_aligned)
{
	struct page *p[4];

	free_boot_pages(0, NR_PFNS);
	for (unsigned int o = 0; o < 4; o++) {
		p[o] = alloc_pages(GFP_KERNEL, o + 1);
		cr_assert_not_null(p[o]);
		cr_assert_eq(page_to_pfn(p[o]) & ((1UL << (o + 1)) - 1), 0);
	}
	for (unsigned int o = 0; o < 4; o++)
		__free_pages(p[o], o + 1);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
	cr_assert_null(alloc_pages(GFP_KERNEL, MAX_ORDER + 1));
}

Test(page_alloc, exhaustion)
{
	static struct page *got[NR_PFNS];
	static bool seen[NR_PFNS];

	free_boot_pages(0, NR_PFNS);
	for (unsigned long i = 0; i < NR_PFNS; i++) {
		got[i] = alloc_pages(GFP_KERNEL, 0);
		cr_assert_not_null(got[i], "page %lu", i);
		cr_assert_not(seen[page_to_pfn(got[i])], "pfn handed out twice");
		seen[page_to_pfn(got[i])] = true;
	}
	cr_assert_eq(nr_free_pages(), 0);
	cr_assert_null(alloc_pages(GFP_KERNEL, 0));
	cr_assert_eq(__get_free_page(GFP_KERNEL), 0);
	for (unsigned long i = 0; i < NR_PFNS; i++)
		__free_pages(got[i], 0);
	cr_assert_eq(nr_free_pages(), NR_PFNS);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
}

Test(page_alloc, bad_frees_are_ignored)
{
	struct page *a, *b, *big;

	free_boot_pages(1, NR_PFNS);	/* pfn 0 stays reserved */
	a = alloc_pages(GFP_KERNEL, 0);
	big = alloc_pages(GFP_KERNEL, 2);
	__free_pages(a, 0);
	unsigned long free_before = nr_free_pages();

	__free_pages(a, 0);			/* double free */
	__free_pages(big, 1);			/* wrong order */
	__free_pages(big + 1, 0);		/* tail of an allocation */
	__free_pages(pfn_to_page(0), 0);	/* reserved */
	free_pages((unsigned long)arena + 5, 0);	/* not page aligned */
	free_pages((unsigned long)&map, 0);	/* outside the direct map */
	cr_assert_eq(nr_free_pages(), free_before);
	/* The lists are intact: a and its neighbours come back once each. */
	b = alloc_pages(GFP_KERNEL, 0);
	cr_assert_eq(b, a);
	cr_assert_neq(alloc_pages(GFP_KERNEL, 0), a);
	__free_pages(big, 2);
	cr_assert_eq(nr_free_pages(), free_before + 4 - 2);
}

Test(page_alloc, fragmentation)
{
	static struct page *got[NR_PFNS];

	free_boot_pages(0, NR_PFNS);
	for (unsigned long i = 0; i < NR_PFNS; i++)
		got[i] = alloc_pages(GFP_KERNEL, 0);
	/* Free every other page: half the memory is free, but no two free pages are buddies. */
	for (unsigned long i = 0; i < NR_PFNS; i++)
		if (page_to_pfn(got[i]) % 2 == 0)
			__free_pages(got[i], 0);
	cr_assert_eq(nr_free_pages(), NR_PFNS / 2);
	cr_assert_eq(nr_free_blocks(0), NR_PFNS / 2);
	cr_assert_null(alloc_pages(GFP_KERNEL, 1));
	for (unsigned long i = 0; i < NR_PFNS; i++)
		if (page_to_pfn(got[i]) % 2 == 1)
			__free_pages(got[i], 0);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
	cr_assert_not_null(alloc_pages(GFP_KERNEL, MAX_ORDER));
}

Test(page_alloc, holes_stay_out)
{
	struct page *p;

	/* Usable [3, 100) and [200, 1000): holes must never be handed out. */
	free_boot_pages(3, 100);
	free_boot_pages(200, 1000);
	cr_assert_eq(totalram_pages(), 97 + 800);
	while ((p = alloc_pages(GFP_KERNEL, 0))) {
		unsigned long pfn = page_to_pfn(p);

		cr_assert((pfn >= 3 && pfn < 100) || (pfn >= 200 && pfn < 1000), "pfn %lu", pfn);
	}
	cr_assert_eq(nr_free_pages(), 0);
}

Test(page_alloc, zeroing_and_addresses)
{
	unsigned long a;

	free_boot_pages(0, NR_PFNS);
	a = __get_free_pages(GFP_KERNEL, 1);
	cr_assert_neq(a, 0);
	memset((void *)a, 0xaa, 2 * PAGE_SIZE);
	free_pages(a, 1);
	cr_assert_eq(nr_pages_zeroed(), 0);
	a = __get_free_pages(GFP_KERNEL | __GFP_ZERO, 1);
	cr_assert_eq(nr_pages_zeroed(), 2);
	for (size_t i = 0; i < 2 * PAGE_SIZE; i++)
		cr_assert_eq(((u8 *)a)[i], 0);
	cr_assert_eq(virt_to_page((void *)a), pfn_to_page((a - (unsigned long)arena) / PAGE_SIZE));
	cr_assert(virt_addr_valid((void *)(a + 100)));
	cr_assert_not(virt_addr_valid(arena + NR_PFNS * PAGE_SIZE));
	cr_assert_not(virt_addr_valid(arena - 1));
	free_pages(a, 1);
	cr_assert_eq(get_order(1), 0);
	cr_assert_eq(get_order(PAGE_SIZE), 0);
	cr_assert_eq(get_order(PAGE_SIZE + 1), 1);
	cr_assert_eq(get_order(5 * PAGE_SIZE), 3);
}

Test(page_alloc, random_churn_keeps_blocks_disjoint)
{
	static u8 owner[NR_PFNS];	/* 0: free, else 1 + slot */
	struct { struct page *p; unsigned int order; } live[64] = { 0 };

	free_boot_pages(0, NR_PFNS);
	srand(1);
	for (int step = 0; step < 20000; step++) {
		int s = rand() % 64;

		if (live[s].p) {
			unsigned long pfn = page_to_pfn(live[s].p);

			for (unsigned long i = 0; i < (1UL << live[s].order); i++)
				owner[pfn + i] = 0;
			__free_pages(live[s].p, live[s].order);
			live[s].p = NULL;
		} else {
			unsigned int order = (unsigned int)(rand() % 5);
			struct page *p = alloc_pages(GFP_KERNEL, order);

			if (!p)
				continue;
			for (unsigned long i = 0; i < (1UL << order); i++) {
				cr_assert_eq(owner[page_to_pfn(p) + i], 0, "overlapping blocks");
				owner[page_to_pfn(p) + i] = (u8)(1 + s);
			}
			live[s].p = p;
			live[s].order = order;
		}
	}
	for (int s = 0; s < 64; s++)
		if (live[s].p)
			__free_pages(live[s].p, live[s].order);
	cr_assert_eq(nr_free_pages(), NR_PFNS);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
}

static void *churn_thread(void *arg)
{
	host_cpu_id = (int)(long)arg;
	for (int i = 0; i < 2000; i++) {
		struct page *p = alloc_pages(GFP_KERNEL, (unsigned int)(i % 3));

		if (p)
			__free_pages(p, (unsigned int)(i % 3));
	}
	return NULL;
}

Test(page_alloc, concurrent_alloc_free)
{
	pthread_t t[2];

	free_boot_pages(0, NR_PFNS);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, churn_thread, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	cr_assert_eq(nr_free_pages(), NR_PFNS);
	cr_assert_eq(nr_free_blocks(MAX_ORDER), 1);
}
