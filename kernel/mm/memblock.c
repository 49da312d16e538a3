/* Boot-time range bookkeeping: two sorted, merged range sets and their difference. */
#include <kernel/memblock.h>
#include <kernel/mm.h>
#include <kernel/errno.h>
#include <kernel/string.h>

struct memblock memblock;

void memblock_reset(void)
{
	memblock.memory.cnt = 0;
	memblock.reserved.cnt = 0;
}

/* Inserts [base, end) into t, merging it with every range it touches. */
static int range_add(struct memblock_type *t, u64 base, u64 end)
{
	unsigned int i = 0, j;

	if (end <= base)
		return 0;
	while (i < t->cnt && t->regions[i].end < base)
		i++;
	/* Ranges i..j-1 overlap or touch [base, end): fold them in. */
	for (j = i; j < t->cnt && t->regions[j].base <= end; j++) {
		base = min(base, t->regions[j].base);
		end = max(end, t->regions[j].end);
	}
	if (j == i && t->cnt == MEMBLOCK_MAX_REGIONS)
		return -ENOSPC;
	if (j == i) {
		memmove(&t->regions[i + 1], &t->regions[i], (t->cnt - i) * sizeof(t->regions[0]));
		t->cnt++;
	} else {
		memmove(&t->regions[i + 1], &t->regions[j], (t->cnt - j) * sizeof(t->regions[0]));
		t->cnt -= j - i - 1;
	}
	t->regions[i].base = base;
	t->regions[i].end = end;
	return 0;
}

int memblock_add(u64 base, u64 size)
{
	return range_add(&memblock.memory, base, base + size < base ? ~0UL : base + size);
}

int memblock_reserve(u64 base, u64 size)
{
	return range_add(&memblock.reserved, base, base + size < base ? ~0UL : base + size);
}

/*
 * The lowest free range (RAM, not reserved) that ends above from, cut to
 * start at from or later. Returns false when there is none.
 */
static bool next_free_range(u64 from, u64 *start, u64 *end)
{
	const struct memblock_type *mem = &memblock.memory, *res = &memblock.reserved;
	unsigned int r = 0;

	for (unsigned int m = 0; m < mem->cnt; m++) {
		u64 s = max(mem->regions[m].base, from);

		while (s < mem->regions[m].end) {
			while (r < res->cnt && res->regions[r].end <= s)
				r++;
			if (r < res->cnt && res->regions[r].base <= s) {
				s = res->regions[r].end;	/* inside a reservation: skip it */
				continue;
			}
			*start = s;
			*end = r < res->cnt ? min(mem->regions[m].end, res->regions[r].base)
					    : mem->regions[m].end;
			return true;
		}
	}
	return false;
}

u64 memblock_phys_alloc(u64 size, u64 align, u64 limit)
{
	u64 start, end, from = 0;

	if (!size || !align || (align & (align - 1)))
		return 0;
	while (next_free_range(from, &start, &end)) {
		u64 base = ALIGN_UP(start, align);

		/* Address 0 doubles as the failure value: never hand it out. */
		if (!base)
			base = align;
		if (base >= start && base < end && size <= end - base && base + size <= limit) {
			if (memblock_reserve(base, size))
				return 0;
			return base;
		}
		if (end >= limit)
			break;
		from = end;
	}
	return 0;
}

u64 memblock_end_of_ram(void)
{
	const struct memblock_type *mem = &memblock.memory;

	return mem->cnt ? mem->regions[mem->cnt - 1].end : 0;
}

u64 memblock_phys_mem_size(void)
{
	u64 sum = 0;

	for (unsigned int i = 0; i < memblock.memory.cnt; i++)
		sum += memblock.memory.regions[i].end - memblock.memory.regions[i].base;
	return sum;
}

u64 memblock_free_bytes(void)
{
	u64 start, end, from = 0, sum = 0;

	while (next_free_range(from, &start, &end)) {
		sum += end - start;
		from = end;
	}
	return sum;
}

unsigned long memblock_free_all(void)
{
	u64 start, end, from = 0;
	unsigned long pages = 0;

	while (next_free_range(from, &start, &end)) {
		/* Only whole pages: a partial page at either end stays out. */
		unsigned long spfn = ALIGN_UP(start, PAGE_SIZE) >> PAGE_SHIFT;
		unsigned long epfn = min(end >> PAGE_SHIFT, max_pfn);

		if (spfn < epfn) {
			free_boot_pages(spfn, epfn);
			pages += epfn - spfn;
		}
		from = end;
	}
	return pages;
}
