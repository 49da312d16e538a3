/*
 * The lower half of a process's page tables. Every table above a page
 * table is created with _PAGE_USER | _PAGE_RW so that the last level
 * alone decides what ring 3 may do; the kernel half (the upper 256
 * top-level slots) is the kernel's own and never touched here.
 */
#include <kernel/types.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include <kernel/list.h>
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
			virt_to_page((void *)t)->flags |= PG_pgtable;
			*e = __pa(t) | USER_TABLE;
		}
		table = __va(*e & PTE_ADDR_MASK);
	}
	return &table[index_at(va, 0)];
}

/* The entries of one table at level under [start, end), recursing into present tables. */
static int walk_table(u64 *table, int level, unsigned long base, unsigned long start,
		      unsigned long end, pte_fn_t fn, void *arg)
{
	unsigned long span = 1UL << (PAGE_SHIFT + 9 * level);
	unsigned int i = start > base ? (unsigned int)((start - base) / span) : 0;

	for (; i < PTRS_PER_TABLE; i++) {
		unsigned long va = base + i * span;
		int r;

		if (va >= end)
			break;
		if (level == 0) {
			if (table[i] && (r = fn(&table[i], va, arg)))
				return r;
		} else if (table[i] & _PAGE_PRESENT) {
			r = walk_table(__va(table[i] & PTE_ADDR_MASK), level - 1, va, start, end, fn, arg);
			if (r)
				return r;
		}
	}
	return 0;
}

int walk_user_ptes(u64 *pgd, unsigned long start, unsigned long end, pte_fn_t fn, void *arg)
{
	if (end > (1UL << 47))
		end = 1UL << 47;
	return start < end ? walk_table(pgd, 3, 0, start, end, fn, arg) : 0;
}

static void free_table(u64 *table, int level, struct list_head *freed)
{
	for (unsigned int i = 0; i < PTRS_PER_TABLE && level > 0; i++)
		if (table[i] & _PAGE_PRESENT)
			free_table(__va(table[i] & PTE_ADDR_MASK), level - 1, freed);
	virt_to_page(table)->flags &= ~PG_pgtable;
	list_add_tail(&virt_to_page(table)->lru, freed);
	pgtable_account(-1);
}

void user_pgtables_free(u64 *pgd, struct list_head *freed)
{
	for (unsigned int i = 0; i < USER_SLOTS; i++) {
		if (pgd[i] & _PAGE_PRESENT)
			free_table(__va(pgd[i] & PTE_ADDR_MASK), 2, freed);
		pgd[i] = 0;
	}
}

void load_cr3(u64 *pgd)
{
	__asm__ __volatile__("mov %0, %%cr3" :: "r"(__pa(pgd)) : "memory");
}
