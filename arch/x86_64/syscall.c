/*
 * Per-CPU set-up for ring 3: the syscall instruction's MSRs, and the
 * CR4 protections (SMEP: the kernel never executes user pages; SMAP: it
 * touches them only inside uaccess.S's stac/clac windows) where the CPU
 * has them.
 */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <asm/msr.h>
#include <asm/segment.h>
#include <asm/cpu.h>

#define CR4_SMEP	BIT(20)
#define CR4_SMAP	BIT(21)
#define RFLAGS_TF	BIT(8)
#define RFLAGS_IF	BIT(9)
#define RFLAGS_DF	BIT(10)
#define RFLAGS_NT	BIT(14)
#define RFLAGS_AC	BIT(18)

/* entry_SYSCALL_64's scratch slot and the stack it switches to (tss_set_rsp0 keeps it). */
DEFINE_PER_CPU(unsigned long, cpu_user_rsp);
DEFINE_PER_CPU(unsigned long, cpu_kernel_rsp);
/* Read by uaccess.S: the CPU has stac/clac and CR4.SMAP is on. */
u8 smap_enabled;

void entry_SYSCALL_64(void);

static void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

bool cpu_has(enum cpu_feature f)
{
	u32 a, b, c, d;

	switch (f) {
	case X86_FEATURE_XSAVE:
		cpuid(1, 0, &a, &b, &c, &d);
		return c & BIT(26);
	case X86_FEATURE_AVX:
		cpuid(1, 0, &a, &b, &c, &d);
		return c & BIT(28);
	case X86_FEATURE_SMEP:
	case X86_FEATURE_SMAP:
		cpuid(0, 0, &a, &b, &c, &d);
		if (a < 7)
			return false;
		cpuid(7, 0, &a, &b, &c, &d);
		return b & (f == X86_FEATURE_SMEP ? BIT(7) : BIT(20));
	case X86_FEATURE_RDRAND:
		cpuid(1, 0, &a, &b, &c, &d);
		return c & BIT(30);
	}
	return false;
}

static unsigned long read_cr4(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr4, %0" : "=r"(v));
	return v;
}

static void write_cr4(unsigned long v)
{
	__asm__ __volatile__("mov %0, %%cr4" :: "r"(v) : "memory");
}

void syscall_init_cpu(void)
{
	unsigned long cr4 = read_cr4();

	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* syscall: CS = KERNEL_CS, SS = +8; sysret: SS = USER_DS (base + 8), CS = USER_CS (base + 16). */
	wrmsr(MSR_STAR, ((u64)(GDT_USER_DS - 8) << 48) | ((u64)GDT_KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)entry_SYSCALL_64);
	wrmsr(MSR_SYSCALL_MASK, RFLAGS_TF | RFLAGS_IF | RFLAGS_DF | RFLAGS_NT | RFLAGS_AC);
	if (cpu_has(X86_FEATURE_SMEP))
		cr4 |= CR4_SMEP;
	if (cpu_has(X86_FEATURE_SMAP)) {
		cr4 |= CR4_SMAP;
		smap_enabled = 1;
	}
	write_cr4(cr4);
	fpu_init_cpu();
}
