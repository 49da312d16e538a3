/*
 * FPU/SSE state of ring-3 tasks, kept in the 512-byte FXSAVE format.
 * Eager: the switch saves the outgoing task's registers and loads the
 * incoming one's (two instructions), so the registers always hold the
 * running task's state and signal frames can save them directly. AVX is
 * not enabled (CR4.OSXSAVE stays clear), so programs see no AVX and use
 * SSE: every register they can use is in the FXSAVE image.
 */
#include <kernel/types.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <asm/cpu.h>
#include <asm/msr.h>

#define FXSAVE_SIZE	512
#define CR0_MP		BIT(1)
#define CR0_EM		BIT(2)
#define CR0_TS		BIT(3)
#define CR4_OSFXSR	BIT(9)
#define CR4_OSXMMEXCPT	BIT(10)
#define MXCSR_DEFAULT	0x1f80
#define FCW_DEFAULT	0x037f
#define MXCSR_MASK	0x0000ffbf	/* bits fxrstor accepts (no DAZ on every CPU) */

/* The reset state: x87 control word and MXCSR at their defaults, every register zero. */
static u8 fpu_init_image[FXSAVE_SIZE] __aligned(16);

void fpu_init_cpu(void)
{
	unsigned long cr0, cr4;

	__asm__ __volatile__("mov %%cr0, %0" : "=r"(cr0));
	cr0 = (cr0 & ~(CR0_EM | CR0_TS)) | CR0_MP;
	__asm__ __volatile__("mov %0, %%cr0" :: "r"(cr0));
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm__ __volatile__("mov %0, %%cr4" :: "r"(cr4));
	*(u16 *)&fpu_init_image[0] = FCW_DEFAULT;
	*(u32 *)&fpu_init_image[24] = MXCSR_DEFAULT;
	*(u32 *)&fpu_init_image[28] = MXCSR_MASK;
}

void *fpu_alloc(void)
{
	return fpu_dup(fpu_init_image);
}

void *fpu_dup(const void *src)
{
	void *p = kmalloc(FXSAVE_SIZE, GFP_KERNEL);

	/* kmalloc's 512-byte class hands out 512-aligned objects: fxsave needs 16. */
	if (p)
		memcpy(p, src, FXSAVE_SIZE);
	return p;
}

void fpu_free(void *fpu)
{
	kfree(fpu);
}

void fpu_save(void *fpu)
{
	__asm__ __volatile__("fxsave64 (%0)" :: "r"(fpu) : "memory");
}

void fpu_restore(const void *fpu)
{
	__asm__ __volatile__("fxrstor64 (%0)" :: "r"(fpu) : "memory");
}

void fpu_restore_user(const void *fx512)
{
	u8 buf[FXSAVE_SIZE] __aligned(16);

	/* A process may hand back any bytes: reserved MXCSR bits would fault fxrstor. */
	memcpy(buf, fx512, FXSAVE_SIZE);
	*(u32 *)&buf[24] &= MXCSR_MASK;
	fpu_restore(buf);
}

void fpu_reset_live(void)
{
	fpu_restore(fpu_init_image);
}

void load_fsgs_base(unsigned long fs, unsigned long gs)
{
	wrmsr(MSR_FS_BASE, fs);
	/* The user's GS base lives in KERNEL_GS_BASE while in the kernel: swapgs exchanges them. */
	wrmsr(MSR_KERNEL_GS_BASE, gs);
}
