/*
 * Per-CPU GDT and TSS. The TSS's interrupt stack table gives NMI, double
 * fault and machine check their own stacks, so they run even when the
 * interrupted stack is broken (a stack overflow into the guard page).
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <asm/segment.h>

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

/* Per CPU, so each CPU's copy of the per-CPU area carries its own IST stacks. */
struct cpu_tables {
	u64 gdt[GDT_ENTRIES];
	struct tss tss;
	char ist_stacks[3][IST_STACK_SIZE] __aligned(16);
};

static DEFINE_PER_CPU(struct cpu_tables, cpu_tables);

void gdt_init_cpu(void)
{
	struct cpu_tables *t = this_cpu_ptr(&cpu_tables);
	u64 base = (u64)&t->tss;
	u64 limit = sizeof(t->tss) - 1;
	struct {
		u16 limit;
		u64 base;
	} __packed gdtr = { sizeof(t->gdt) - 1, (u64)t->gdt };

	memset(&t->tss, 0, sizeof(t->tss));
	for (int i = 0; i < 3; i++)
		t->tss.ist[i] = (u64)t->ist_stacks[i] + IST_STACK_SIZE;
	t->tss.iomap_base = sizeof(t->tss);

	t->gdt[0] = 0;
	t->gdt[GDT_KERNEL_CS / 8] = 0x00af9a000000ffffULL;
	t->gdt[GDT_KERNEL_DS / 8] = 0x00cf92000000ffffULL;
	t->gdt[GDT_USER_DS / 8] = 0x00cff2000000ffffULL;
	t->gdt[GDT_USER_CS / 8] = 0x00affa000000ffffULL;
	t->gdt[GDT_TSS / 8] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
			      (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
			      (((base >> 24) & 0xff) << 56);
	t->gdt[GDT_TSS / 8 + 1] = base >> 32;

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"ltr %w3"
		:: "m"(gdtr), "i"(GDT_KERNEL_CS), "i"(GDT_KERNEL_DS), "r"(GDT_TSS)
		: "rax", "memory");
}

void tss_set_rsp0(unsigned long rsp0)
{
	this_cpu_ptr(&cpu_tables)->tss.rsp[0] = rsp0;
}

void ist_stack_range(int ist, unsigned long *lo, unsigned long *hi)
{
	struct cpu_tables *t = this_cpu_ptr(&cpu_tables);

	*lo = (unsigned long)t->ist_stacks[ist - 1];
	*hi = *lo + IST_STACK_SIZE;
}
