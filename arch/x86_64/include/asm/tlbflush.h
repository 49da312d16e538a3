/* TLB maintenance for kernel mappings. */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

#include <kernel/types.h>

static inline void __flush_tlb_one(unsigned long addr)
{
	__asm__ __volatile__("invlpg (%0)" :: "r"(addr) : "memory");
}

static inline void __flush_tlb_all(void)
{
	unsigned long cr3;

	__asm__ __volatile__("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3) :: "memory");
}

/*
 * Flushes [start, end) of the kernel half on every CPU. Kernel mappings
 * are shared by all CPUs, so a mapping that is removed or weakened must
 * leave every TLB before its page is reused: this is where the SMP code's
 * shootdown IPI belongs. Today it flushes only this CPU (arch/x86_64/paging.c).
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);

#endif
