/* Constants shared by the AP trampoline (trampoline.S) and arch/x86_64/smp.c. */
#ifndef ASM_SMP_BOOT_H
#define ASM_SMP_BOOT_H

#define TRAMPOLINE_PHYS		0x8000		/* page-aligned, below 1 MiB: a SIPI vector */
#define NR_CPUS_ASM		64		/* = NR_CPUS of asm/percpu.h */
#ifdef __ASSEMBLER__
#define NR_CPUS			NR_CPUS_ASM
#endif

#endif
