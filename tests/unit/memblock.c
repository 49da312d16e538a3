/* Unit tests of boot-time memory ranges and their hand-over to the buddy allocator. */
/* uses: kernel/mm/memblock.c kernel/mm/page_alloc.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c tests/host/kmem_tracepoints.c */
#include <criterion/criterion.h>
#include <kernel/memblock.h>
#include <kernel/mm.h>
#include <kernel/errno.h>
#include <stdlib.h>

unsigned long page_offset_base;

static void setup(void) { memblock_reset(); }
TestSuite(memblock, .init = setup);

#define R(t, i)	memblock.t.regions[i]

Test(memblock, add_merges_overlapping_and_adjacent)
{
	cr_assert_eq(memblock_add(0x100000, 0x100000), 0);
	cr_assert_eq(memblock_add(0x0, 0x9f000), 0);
	cr_assert_eq(memblock_add(0x300000, 0x1000), 0);
	cr_assert_eq(memblock.memory.cnt, 3);
	cr_assert_eq(memblock_add(0x180000, 0x100000), 0);	/* overlaps the 2nd, touches nothing else */
	cr_assert_eq(memblock.memory.cnt, 3);
	cr_assert_eq(R(memory, 1).base, 0x100000);
	cr_assert_eq(R(memory, 1).end, 0x280000);
	cr_assert_eq(memblock_add(0x280000, 0x80000), 0);	/* adjacent on both sides */
	cr_assert_eq(memblock.memory.cnt, 2);
	cr_assert_eq(R(memory, 1).end, 0x301000);
	cr_assert_eq(memblock_add(0x0, 0x1000000), 0);		/* swallows all */
	cr_assert_eq(memblock.memory.cnt, 1);
	cr_assert_eq(memblock_end_of_ram(), 0x1000000);
	cr_assert_eq(memblock_add(5, 0), 0);
	cr_assert_eq(memblock.memory.cnt, 1);
}

Test(memblock, table_full)
{
	for (unsigned int i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		cr_assert_eq(memblock_reserve(i * 0x2000, 0x1000), 0);
	cr_assert_eq(memblock_reserve(0x10000000, 0x1000), -ENOSPC);
	cr_assert_eq(memblock_reserve(0x1000, 0x1000), 0, "a merge needs no new slot");
	cr_assert_eq(memblock.reserved.cnt, MEMBLOCK_MAX_REGIONS - 1);
}

Test(memblock, alloc_skips_reservations_and_respects_align_and_limit)
{
	memblock_add(0, 0x9fc00);
	memblock_add(0x100000, 0x7f00000);
	memblock_reserve(0, 0x100000);
	memblock_reserve(0x100000, 0x234000);	/* the kernel image */
	memblock_reserve(0x400000, 0x10000);	/* a module */

	u64 a = memblock_phys_alloc(0x1000, 0x1000, ~0UL);
	cr_assert_eq(a, 0x334000);
	u64 b = memblock_phys_alloc(0x10000, 0x10000, ~0UL);
	cr_assert_eq(b, 0x340000);
	u64 c = memblock_phys_alloc(0x100000, 0x1000, ~0UL);	/* does not fit below the module */
	cr_assert_eq(c, 0x410000);
	cr_assert_eq(memblock_phys_alloc(0x1000, 0x1000, 0x300000), 0, "nothing free below the limit");
	cr_assert_eq(memblock_phys_alloc(0x10000000, 0x1000, ~0UL), 0, "too big");
	cr_assert_eq(memblock_phys_alloc(0x1000, 3, ~0UL), 0, "alignment not a power of two");
	/* Low memory is all reserved; b's alignment gap stays free. */
	cr_assert_eq(memblock_free_bytes(), 0x7f00000 - 0x234000 - 0x10000 - 0x1000 - 0x10000 - 0x100000);
	cr_assert_eq(memblock_phys_mem_size(), 0x9fc00 + 0x7f00000);
}

Test(memblock, never_returns_address_zero)
{
	memblock_add(0, 0x10000);
	cr_assert_eq(memblock_phys_alloc(0x1000, 0x1000, ~0UL), 0x1000);
}

Test(memblock, free_all_hands_over_whole_free_pages_only)
{
	static struct page map[512];
	u8 *arena = aligned_alloc(PAGE_SIZE, 512 * PAGE_SIZE);
	struct page *p;

	page_offset_base = (unsigned long)arena;
	memblock_add(0x800, 0x9f000);		/* partial first page */
	memblock_add(0x100000, 0x100000 - 0x10);	/* partial last page */
	memblock_reserve(0x0, 0x10000);
	memblock_reserve(0x120000, 0x3000);
	memblock_reserve(0x150800, 0x10);	/* a few bytes pin a whole page */
	free_area_init(map, memblock_end_of_ram() >> PAGE_SHIFT);
	cr_assert_eq(max_pfn, 0x1ff, "the partial last page has no struct page");

	unsigned long n = memblock_free_all();
	unsigned long want = (0x9f - 0x10) + (0x1ff - 0x100) - 3 - 1;

	cr_assert_eq(n, want);
	cr_assert_eq(nr_free_pages(), want);
	while ((p = alloc_pages(GFP_KERNEL, 0))) {
		unsigned long pfn = page_to_pfn(p);

		cr_assert((pfn >= 0x10 && pfn < 0x9f) || (pfn >= 0x100 && pfn < 0x1ff), "pfn %#lx", pfn);
		cr_assert(pfn < 0x120 || pfn >= 0x123, "reserved pfn %#lx", pfn);
		cr_assert_neq(pfn, 0x150);
	}
	free(arena);
}
