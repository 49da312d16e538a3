/*
 * FPU/SSE/AVX state of ring-3 tasks. With XSAVE (CR4.OSXSAVE, XCR0 = x87
 * | SSE | AVX where the CPU has AVX) a task's area is the XSAVE image;
 * without it, the 512-byte FXSAVE image. Eager: the switch saves the
 * outgoing task's registers and loads the incoming one's, so the
 * registers always hold the running task's state. Signal frames carry
 * the legacy FXSAVE part (x87 and SSE), as Linux's fpstate begins.
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
#define CR0_NE		BIT(5)	/* x87 errors as #MF, not the legacy FERR# pin */
#define CR4_OSFXSR	BIT(9)
#define CR4_OSXMMEXCPT	BIT(10)
#define MXCSR_DEFAULT	0x1f80
#define FCW_DEFAULT	0x037f
#define MXCSR_MASK	0x0000ffbf	/* bits fxrstor accepts (no DAZ on every CPU) */
#define CR4_OSXSAVE	BIT(18)
#define XFEATURE_X87	BIT(0)
#define XFEATURE_SSE	BIT(1)
#define XFEATURE_AVX	BIT(2)
#define XSAVE_MAX	1024		/* x87 + SSE + AVX need 832 */

/*
 * The reset state: MXCSR at its default, every register zero. In the
 * XSAVE format an all-zero header means "initial state" for each
 * component; MXCSR is still read from the image.
 */
static u8 fpu_init_image[XSAVE_MAX] __aligned(64);
static unsigned int fpu_size = FXSAVE_SIZE;
static bool use_xsave;

static void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

/* XCR0 and the area size, the same on every CPU. */
static void xsave_init_cpu(unsigned long *cr4)
{
	u64 xcr0 = XFEATURE_X87 | XFEATURE_SSE;
	u32 a, b, c, d;

	if (!cpu_has(X86_FEATURE_XSAVE))
		return;
	if (cpu_has(X86_FEATURE_AVX))
		xcr0 |= XFEATURE_AVX;
	*cr4 |= CR4_OSXSAVE;
	__asm__ __volatile__("mov %0, %%cr4" :: "r"(*cr4));
	__asm__ __volatile__("xsetbv" :: "c"(0), "a"((u32)xcr0), "d"((u32)(xcr0 >> 32)));
	cpuid_count(0xd, 0, &a, &b, &c, &d);
	if (b > XSAVE_MAX)
		return;			/* keep FXSAVE: the area would not fit */
	fpu_size = b;
	use_xsave = true;
}

void fpu_init_cpu(void)
{
	unsigned long cr0, cr4;

	__asm__ __volatile__("mov %%cr0, %0" : "=r"(cr0));
	cr0 = (cr0 & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE;
	__asm__ __volatile__("mov %0, %%cr0" :: "r"(cr0));
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm__ __volatile__("mov %0, %%cr4" :: "r"(cr4));
	xsave_init_cpu(&cr4);
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
	void *p = kmalloc(fpu_size, GFP_KERNEL);

	/* kmalloc's power-of-two classes hand out size-aligned objects: xsave needs 64. */
	if (p)
		memcpy(p, src, fpu_size);
	return p;
}

void fpu_free(void *fpu)
{
	kfree(fpu);
}

void fpu_save(void *fpu)
{
	if (use_xsave)
		__asm__ __volatile__("xsave64 (%0)" :: "r"(fpu), "a"(-1), "d"(-1) : "memory");
	else
		__asm__ __volatile__("fxsave64 (%0)" :: "r"(fpu) : "memory");
}

void fpu_restore(const void *fpu)
{
	if (use_xsave)
		__asm__ __volatile__("xrstor64 (%0)" :: "r"(fpu), "a"(-1), "d"(-1) : "memory");
	else
		__asm__ __volatile__("fxrstor64 (%0)" :: "r"(fpu) : "memory");
}

void fpu_save_legacy(void *fx512)
{
	__asm__ __volatile__("fxsave64 (%0)" :: "r"(fx512) : "memory");
}

void fpu_restore_user(const void *fx512)
{
	u8 buf[FXSAVE_SIZE] __aligned(16);

	/* A process may hand back any bytes: reserved MXCSR bits would fault fxrstor. */
	memcpy(buf, fx512, FXSAVE_SIZE);
	*(u32 *)&buf[24] &= MXCSR_MASK;
	__asm__ __volatile__("fxrstor64 (%0)" :: "r"(buf) : "memory");
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
