/* Model-specific registers the kernel programs, and access to them. */
#ifndef ASM_MSR_H
#define ASM_MSR_H

#include <kernel/types.h>

#define MSR_EFER		0xc0000080
#define EFER_SCE		BIT(0)		/* syscall/sysret enabled */
#define MSR_STAR		0xc0000081	/* segment bases for syscall (47:32) and sysret (63:48) */
#define MSR_LSTAR		0xc0000082	/* 64-bit syscall entry point */
#define MSR_SYSCALL_MASK	0xc0000084	/* rflags bits syscall clears */
#define MSR_FS_BASE		0xc0000100
#define MSR_GS_BASE		0xc0000101
#define MSR_KERNEL_GS_BASE	0xc0000102	/* what swapgs exchanges with GS_BASE */

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

#endif
