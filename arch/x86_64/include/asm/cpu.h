/* CPU features and the per-CPU set-up ring 3 needs (arch/x86_64/syscall.c, fpu.c). */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include <kernel/types.h>

enum cpu_feature {
	X86_FEATURE_XSAVE,
	X86_FEATURE_AVX,
	X86_FEATURE_SMEP,
	X86_FEATURE_SMAP,
	X86_FEATURE_RDRAND,
};
bool cpu_has(enum cpu_feature f);

/* syscall MSRs, SMEP/SMAP, the FPU: on every CPU, after gdt_init_cpu. */
void syscall_init_cpu(void);

/*
 * The FPU/SSE(/AVX) state of ring-3 tasks (fpu.c). The kernel never uses
 * these registers (-mgeneral-regs-only), so the CPU holds the running
 * task's state and the context switch saves and loads it eagerly.
 */
void fpu_init_cpu(void);
/* A fresh area in the reset state (exec, a new thread gets a copy); NULL when out of memory. */
void *fpu_alloc(void);
void *fpu_dup(const void *src);
void fpu_free(void *fpu);
void fpu_save(void *fpu);
void fpu_restore(const void *fpu);
/* The legacy 512-byte FXSAVE image of the live x87/SSE registers (signal frames). */
void fpu_save_legacy(void *fx512);
/* Loads such an image a process handed back (sigreturn), with reserved bits cleared first. */
void fpu_restore_user(const void *fx512);
/* Puts the live registers in the reset state (execve). */
void fpu_reset_live(void);

/* The thread's FS/GS base: written at the switch and by arch_prctl. */
void load_fsgs_base(unsigned long fs, unsigned long gs);

#endif
