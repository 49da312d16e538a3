/*
 * The memory the slab unit tests run on: a host arena standing in for the
 * direct map, its struct pages, and kmalloc's caches set up on it, fresh
 * for every test (Criterion runs each in its own process).
 */
#ifndef TESTS_UNIT_SLAB_ARENA_H
#define TESTS_UNIT_SLAB_ARENA_H

#include <criterion/criterion.h>
#include <kernel/mm.h>
#include <kernel/mm/slab.h>
#include <stdlib.h>

#define NR_PFNS 2048UL

unsigned long page_offset_base;
static struct page map[NR_PFNS];
static u8 *arena;

static void setup(void)
{
	arena = aligned_alloc(PAGE_SIZE, NR_PFNS * PAGE_SIZE);
	cr_assert_not_null(arena);
	page_offset_base = (unsigned long)arena;
	free_area_init(map, NR_PFNS);
	free_boot_pages(0, NR_PFNS);
	kmem_cache_init();
}

static void teardown(void)
{
	free(arena);
}

#endif
