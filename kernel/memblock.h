/*
 * Boot-time physical memory bookkeeping, before the buddy allocator
 * exists: the RAM ranges from the loader's memory map, the ranges that
 * must never be handed out (firmware, kernel image, boot modules, loader
 * info, early allocations), a bump allocator for the early page tables
 * and mem_map, and the hand-over of everything else to the buddy
 * allocator. Pure. Ranges are [base, end) physical byte addresses.
 */
#ifndef KERNEL_MEMBLOCK_H
#define KERNEL_MEMBLOCK_H

#include <kernel/types.h>

#define MEMBLOCK_MAX_REGIONS	128

/* A sorted set of disjoint ranges. */
struct memblock_type {
	struct { u64 base, end; } regions[MEMBLOCK_MAX_REGIONS];
	unsigned int cnt;
};

struct memblock {
	struct memblock_type memory;	/* RAM */
	struct memblock_type reserved;	/* not to be handed out */
};

extern struct memblock memblock;

/* Forget everything (boot, and tests). */
void memblock_reset(void);
/* Adding overlapping or adjacent ranges merges them. -ENOSPC when the table is full. */
int memblock_add(u64 base, u64 size);
int memblock_reserve(u64 base, u64 size);

/*
 * Reserves and returns size bytes of free RAM at an align-aligned address
 * below limit, the lowest such; 0 when there is none.
 */
u64 memblock_phys_alloc(u64 size, u64 align, u64 limit);

/* The end of the highest RAM range. */
u64 memblock_end_of_ram(void);
/* Bytes of RAM, and of RAM not reserved. */
u64 memblock_phys_mem_size(void);
u64 memblock_free_bytes(void);

/*
 * Hands every whole page of RAM that is not reserved to the buddy
 * allocator (free_area_init must have run). Returns the pages handed over.
 */
unsigned long memblock_free_all(void);

#endif
