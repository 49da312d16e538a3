/*
 * The kernel virtual area (VMALLOC_START..VMALLOC_END): virtually
 * contiguous mappings of scattered pages, kernel stacks, and device
 * memory (ioremap). Every area has an unmapped guard page right below
 * it, so running off either end of an area faults instead of silently
 * corrupting a neighbour; a stack overflowing downwards hits its guard.
 */
#ifndef KERNEL_VMALLOC_H
#define KERNEL_VMALLOC_H

#include <kernel/types.h>

#define KERNEL_STACK_SIZE	16384

/* size bytes (rounded up to pages) of fresh, unzeroed pages; NULL on failure. */
void *vmalloc(unsigned long size);
void *vzalloc(unsigned long size);
/* Frees a vmalloc area (NULL is ignored; anything else is reported). */
void vfree(const void *addr);

/* A KERNEL_STACK_SIZE stack; returns its lowest address (the top is + KERNEL_STACK_SIZE). */
void *alloc_kernel_stack(void);
void free_kernel_stack(void *stack);

/* addr lies inside a guard page of the area (for the page-fault report). */
bool is_vmalloc_guard(unsigned long addr);

/* Pages mapped by vmalloc (VmallocUsed in /proc/meminfo). */
unsigned long nr_vmalloc_pages(void);

#endif
