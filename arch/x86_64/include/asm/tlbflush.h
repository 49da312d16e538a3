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
 * leave every TLB before its page is reused. With more than one CPU up
 * this is a shootdown IPI that waits for every CPU; it needs interrupts
 * on (a CPU waiting with them off could deadlock against another), so a
 * caller with them off gets a local flush only and must not let the range
 * be reused at once (the vmalloc area's next-fit allocation guarantees
 * that for its ranges).
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
/* The shootdown itself (arch/x86_64/smp.c): every online CPU, waits. */
void smp_flush_tlb_kernel_range(unsigned long start, unsigned long end);

#endif
