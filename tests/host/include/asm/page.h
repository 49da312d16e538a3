/*
 * Host twin of arch/x86_64/include/asm/page.h: page size and the
 * direct-map conversions, with the direct map's base a variable so a test
 * can put "physical memory" in an arena of its own (and define it).
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include <kernel/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

typedef u64 phys_addr_t;

/* Host address of "physical" address 0; set by the test. */
extern unsigned long page_offset_base;
#define PAGE_OFFSET	page_offset_base

#define __pa(x)		((phys_addr_t)((unsigned long)(x) - PAGE_OFFSET))
#define __va(x)		((void *)((unsigned long)(x) + PAGE_OFFSET))

#endif
