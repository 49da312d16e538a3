/*
 * The lower half of a process's page tables. Every table above a page
 * table is created with _PAGE_USER | _PAGE_RW so that the last level
 * alone decides what ring 3 may do; the kernel half (the upper 256
 * top-level slots) is the kernel's own and never touched here.
 */
#include <kernel/types.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include <asm/page.h>

#define USER_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED)
#define USER_SLOTS	256

static unsigned int index_at(unsigned long va, int level)
{
	return (va >> (PAGE_SHIFT + 9 * level)) & (PTRS_PER_TABLE - 1);
}

u64 *user_pte(u64 *pgd, unsigned long va, bool alloc)
{
	u64 *table = pgd;

	if (va >= (1UL << 47))
		return NULL;
	for (int level = 3; level > 0; level--) {
		u64 *e = &table[index_at(va, level)];

		if (!(*e & _PAGE_PRESENT)) {
			unsigned long t;

			if (!alloc)
				return NULL;
			t = get_zeroed_page(GFP_KERNEL);
			if (!t)
				return NULL;
			pgtable_account(1);
			*e = __pa(t) | USER_TABLE;
		}
		table = __va(*e & PTE_ADDR_MASK);
	}
	return &table[index_at(va, 0)];
}

unsigned long user_pte_next(u64 *pgd, unsigned long va, unsigned long end)
{
	while (va < end) {
		u64 *table = pgd;
		int level;

		for (level = 3; level > 0; level--) {
			u64 e = table[index_at(va, level)];

			if (!(e & _PAGE_PRESENT))
				break;
			table = __va(e & PTE_ADDR_MASK);
		}
		if (level == 0)
			return va;
		/* No table at this level: skip everything it would have covered. */
		va = (va | ((1UL << (PAGE_SHIFT + 9 * level)) - 1)) + 1;
	}
	return end;
}

static void free_table(u64 *table, int level)
{
	for (unsigned int i = 0; i < PTRS_PER_TABLE && level > 0; i++)
		if (table[i] & _PAGE_PRESENT)
			free_table(__va(table[i] & PTE_ADDR_MASK), level - 1);
	free_page((unsigned long)table);
	pgtable_account(-1);
}

void user_pgtables_free(u64 *pgd)
{
	for (unsigned int i = 0; i < USER_SLOTS; i++) {
		if (pgd[i] & _PAGE_PRESENT)
			free_table(__va(pgd[i] & PTE_ADDR_MASK), 2);
		pgd[i] = 0;
	}
}

void load_cr3(u64 *pgd)
{
	__asm__ __volatile__("mov %0, %%cr3" :: "r"(__pa(pgd)) : "memory");
}
