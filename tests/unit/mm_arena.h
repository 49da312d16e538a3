/*
 * The memory the mm unit tests run on: a host arena standing in for the
 * direct map and its struct pages, fresh for every test (Criterion runs
 * each in its own process). A test may define NR_PFNS first.
 */
#ifndef TESTS_UNIT_MM_ARENA_H
#define TESTS_UNIT_MM_ARENA_H

#include <criterion/criterion.h>
#include <kernel/mm.h>
#include <kernel/mm/slab.h>
#include <stdlib.h>

#ifndef NR_PFNS
#define NR_PFNS 2048UL
#endif

unsigned long page_offset_base;
static struct page map[NR_PFNS];
static u8 *arena;

/* The arena's pages, all reserved; with slab, all free and kmalloc's caches set up on them. */
static void mm_arena_init(bool slab)
{
	arena = aligned_alloc(PAGE_SIZE, NR_PFNS * PAGE_SIZE);
	cr_assert_not_null(arena);
	page_offset_base = (unsigned long)arena;
	free_area_init(map, NR_PFNS);
	if (slab) {
		free_boot_pages(0, NR_PFNS);
		kmem_cache_init();
	}
}

static void teardown(void)
{
	free(arena);
}

#endif
