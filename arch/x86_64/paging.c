/*
 * The kernel's page tables. paging_init replaces boot.S's tables (which
 * map the first GiB twice, writable and executable) with exact ones:
 *   - the direct map: every 2 MiB chunk that holds RAM (or the first
 *     1 MiB with its firmware tables), RW+NX, at PAGE_OFFSET + phys;
 *   - the kernel image in 4 KiB pages: text RX, rodata and the symbol
 *     table R+NX, data and bss RW+NX; the .boot section keeps a RW+NX
 *     mapping because the boot CPU still runs on the stack inside it;
 *   - nothing in the lower half, so a NULL dereference faults.
 * The upper half's top-level slots (direct map, kernel virtual area,
 * image) get their next-level tables here once and never change, so a
 * process's table that copies them shares every later kernel mapping.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/mm.h>
#include <kernel/memblock.h>
#include <kernel/bootinfo.h>
#include <asm/page.h>
#include <asm/tlbflush.h>
#include <kernel/smp.h>
#include <kernel/preempt.h>

extern char _text[], _srodata[], _sdata[], _end[], _boot_start[], _boot_end[];

/* boot.S maps physical [0, 1 GiB) at __START_KERNEL_map: early tables must live there. */
#define BOOT_MAP_LIMIT		(1UL << 30)
#define PTE_TABLE		(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED)
#define USER_HALF_SLOTS		256
#define FLUSH_ALL_THRESHOLD	32	/* pages; beyond this one CR3 reload is cheaper */

u64 *init_top_pgt;
static phys_addr_t init_top_pgt_phys;
/* Until the switch, tables come from memblock and are reached through the boot map. */
static bool early_tables = true;
static DEFINE_SPINLOCK(pgtable_lock);
/* Page-table pages, for PageTables in /proc/meminfo. */
static unsigned long nr_pgtable_pages;

static void *table_va(phys_addr_t phys)
{
	return early_tables ? (void *)(__START_KERNEL_map + phys) : __va(phys);
}

static phys_addr_t table_alloc(void)
{
	phys_addr_t phys;

	if (early_tables) {
		phys = memblock_phys_alloc(PAGE_SIZE, PAGE_SIZE, BOOT_MAP_LIMIT);
		if (phys)
			memset(table_va(phys), 0, PAGE_SIZE);
	} else {
		unsigned long va = get_zeroed_page(GFP_ATOMIC);

		phys = va ? __pa(va) : 0;
	}
	if (phys)
		nr_pgtable_pages++;
	return phys;
}

static unsigned int pt_index(unsigned long virt, int level)
{
	return (virt >> (PAGE_SHIFT + 9 * level)) & (PTRS_PER_TABLE - 1);
}

static bool is_kernel_half(unsigned long virt)
{
	return pt_index(virt, 3) >= USER_HALF_SLOTS;
}

/*
 * The entry for virt at level (0: page table, 1: page directory),
 * creating the tables above it. The upper half's top-level slots are
 * fixed after paging_init. Returns an ERR_PTR on failure.
 */
static u64 *entry_alloc(unsigned long virt, int level)
{
	u64 *table = table_va(init_top_pgt_phys);

	for (int l = 3; l > level; l--) {
		u64 *e = &table[pt_index(virt, l)];

		if (!(*e & _PAGE_PRESENT)) {
			phys_addr_t t;

			if (l == 3 && is_kernel_half(virt) && !early_tables)
				return ERR_PTR(-EINVAL);
			t = table_alloc();
			if (!t)
				return ERR_PTR(-ENOMEM);
			*e = t | PTE_TABLE;
		} else if (*e & _PAGE_PSE) {
			return ERR_PTR(-EINVAL);
		}
		table = table_va(*e & PTE_ADDR_MASK);
	}
	return &table[pt_index(virt, level)];
}

/* The lowest present entry on the way to virt and its level, or NULL. */
static u64 *entry_lookup(unsigned long virt, int *level)
{
	u64 *table = table_va(init_top_pgt_phys);

	for (int l = 3;; l--) {
		u64 *e = &table[pt_index(virt, l)];

		if (!(*e & _PAGE_PRESENT))
			return NULL;
		if (l == 0 || (*e & _PAGE_PSE)) {
			*level = l;
			return e;
		}
		table = table_va(*e & PTE_ADDR_MASK);
	}
}

int map_page(unsigned long virt, phys_addr_t phys, u64 prot)
{
	unsigned long flags;
	u64 *e;

	if ((virt | phys) & ~PAGE_MASK)
		return -EINVAL;
	spin_lock_irqsave(&pgtable_lock, flags);
	e = entry_alloc(virt, 0);
	if (!IS_ERR(e))
		*e = phys | prot;
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (IS_ERR(e))
		return (int)PTR_ERR(e);
	__flush_tlb_one(virt);
	return 0;
}

void unmap_page(unsigned long virt)
{
	unsigned long flags;
	int level;
	u64 *e;

	spin_lock_irqsave(&pgtable_lock, flags);
	e = entry_lookup(virt, &level);
	if (e && level == 0)
		*e = 0;
	spin_unlock_irqrestore(&pgtable_lock, flags);
	__flush_tlb_one(virt);
}

phys_addr_t lookup_phys(unsigned long virt)
{
	unsigned long flags;
	phys_addr_t phys = (phys_addr_t)-1;
	int level;
	u64 *e;

	spin_lock_irqsave(&pgtable_lock, flags);
	e = entry_lookup(virt, &level);
	if (e) {
		unsigned long span = 1UL << (PAGE_SHIFT + 9 * level);

		phys = (*e & PTE_ADDR_MASK & ~(span - 1)) | (virt & (span - 1));
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return phys;
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	if (num_online_cpus() > 1 && !irqs_disabled() && !in_interrupt()) {
		smp_flush_tlb_kernel_range(start, end);
		return;
	}
	if ((end - start) >> PAGE_SHIFT > FLUSH_ALL_THRESHOLD) {
		__flush_tlb_all();
		return;
	}
	for (unsigned long a = start & PAGE_MASK; a < end; a += PAGE_SIZE)
		__flush_tlb_one(a);
}

int paging_map_identity(phys_addr_t phys, size_t len)
{
	phys_addr_t end = ALIGN_UP(phys + len, PAGE_SIZE);

	if (end > (1UL << 47))
		return -EINVAL;
	for (phys_addr_t p = phys & PAGE_MASK; p < end; p += PAGE_SIZE) {
		int err = map_page(p, p, PAGE_KERNEL_EXEC);

		if (err) {
			paging_unmap_identity(phys, p - phys);
			return err;
		}
	}
	return 0;
}

/* Frees the tables under table (at level) that map nothing; true if table is empty. */
static bool prune(u64 *table, int level, unsigned int nr)
{
	bool empty = true;

	for (unsigned int i = 0; i < nr; i++) {
		u64 e = table[i];

		if (!(e & _PAGE_PRESENT))
			continue;
		if (level > 0 && !(e & _PAGE_PSE) && prune(__va(e & PTE_ADDR_MASK), level - 1, PTRS_PER_TABLE)) {
			free_page((unsigned long)__va(e & PTE_ADDR_MASK));
			nr_pgtable_pages--;
			table[i] = 0;
			continue;
		}
		empty = false;
	}
	return empty;
}

static bool table_empty(const u64 *table)
{
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
		if (table[i] & _PAGE_PRESENT)
			return false;
	return true;
}

/* The entry at level on the way to virt; NULL where a table above it is missing. */
static u64 *entry_at(unsigned long virt, int level)
{
	u64 *table = table_va(init_top_pgt_phys);

	for (int l = 3; l > level; l--) {
		u64 e = table[pt_index(virt, l)];

		if (!(e & _PAGE_PRESENT) || (e & _PAGE_PSE))
			return NULL;
		table = table_va(e & PTE_ADDR_MASK);
	}
	return &table[pt_index(virt, level)];
}

void free_empty_page_tables(unsigned long start, unsigned long end, unsigned long keep)
{
	LIST_HEAD(freed);
	struct page *page, *n;
	unsigned long flags;

	if (start < VMALLOC_START || end > VMALLOC_END || start >= end)
		return;
	/* Without a shootdown another CPU could keep walking a freed table. */
	if (num_online_cpus() > 1 && (irqs_disabled() || in_interrupt()))
		return;
	spin_lock_irqsave(&pgtable_lock, flags);
	/* Page tables (named by level-1 entries) first: freeing them may empty a directory. */
	for (int level = 1; level <= 2; level++) {
		unsigned long span = 1UL << (PAGE_SHIFT + 9 * level);

		for (unsigned long a = ALIGN_DOWN(start, span); a < end; a += span) {
			u64 *e = entry_at(a, level);
			u64 *table;

			if (!e || !(*e & _PAGE_PRESENT) || (*e & _PAGE_PSE) || keep - a < span)
				continue;
			table = table_va(*e & PTE_ADDR_MASK);
			if (!table_empty(table))
				continue;
			*e = 0;
			nr_pgtable_pages--;
			list_add(&virt_to_page(table)->lru, &freed);
		}
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (list_empty(&freed))
		return;
	/* Paging-structure caches may still hold the cleared entries: a full flush everywhere. */
	flush_tlb_kernel_range(VMALLOC_START, VMALLOC_END);
	list_for_each_entry_safe(page, n, &freed, lru)
		free_page((unsigned long)page_address(page));
}

void paging_unmap_identity(phys_addr_t phys, size_t len)
{
	phys_addr_t end = ALIGN_UP(phys + len, PAGE_SIZE);
	unsigned long flags;

	for (phys_addr_t p = phys & PAGE_MASK; p < end; p += PAGE_SIZE)
		unmap_page(p);
	/* Only the identity map ever lives in the kernel's lower half: drop its tables. */
	spin_lock_irqsave(&pgtable_lock, flags);
	prune(init_top_pgt, 3, USER_HALF_SLOTS);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	__flush_tlb_all();
}

u64 *pgd_alloc(void)
{
	u64 *pgd = (u64 *)get_zeroed_page(GFP_KERNEL);

	if (pgd)
		memcpy(pgd + USER_HALF_SLOTS, init_top_pgt + USER_HALF_SLOTS,
		       USER_HALF_SLOTS * sizeof(*pgd));
	return pgd;
}

void pgd_free(u64 *pgd)
{
	free_page((unsigned long)pgd);
}

/* --- paging_init ------------------------------------------------------------- */

static void early_map(unsigned long virt, phys_addr_t phys, u64 prot, int level)
{
	u64 *e = entry_alloc(virt, level);

	if (IS_ERR(e))
		panic("paging_init: no memory for page tables at %#lx", virt);
	*e = phys | prot | (level ? _PAGE_PSE : 0);
}

static bool in_direct_map(const struct boot_mem_region *r)
{
	return r->type == BOOT_MEM_USABLE || r->type == BOOT_MEM_ACPI || r->type == BOOT_MEM_NVS;
}

static void map_direct(void)
{
	/* The first 1 MiB holds the BIOS data area, EBDA and RSDP the ACPI code scans. */
	early_map(PAGE_OFFSET, 0, PAGE_KERNEL, 1);
	for (unsigned int i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *r = &boot_info.mem[i];

		if (!in_direct_map(r))
			continue;
		for (phys_addr_t p = ALIGN_DOWN(r->start, PMD_SIZE); p < r->end; p += PMD_SIZE)
			early_map(PAGE_OFFSET + p, p, PAGE_KERNEL, 1);
	}
}

static void map_kernel_image(void)
{
	for (unsigned long v = (unsigned long)_text; v < (unsigned long)_end; v += PAGE_SIZE) {
		u64 prot = v < (unsigned long)_srodata ? PAGE_KERNEL_RX :
			   v < (unsigned long)_sdata ? PAGE_KERNEL_RO : PAGE_KERNEL;

		early_map(v, kernel_virt_to_phys(v), prot, 0);
	}
	/* .boot is linked at its physical address; the boot stack in it is reached at the alias. */
	for (unsigned long p = (unsigned long)_boot_start; p < (unsigned long)_boot_end; p += PAGE_SIZE)
		early_map(__START_KERNEL_map + p, p, PAGE_KERNEL, 0);
}

void paging_init(void)
{
	init_top_pgt_phys = table_alloc();
	if (!init_top_pgt_phys)
		panic("paging_init: no memory below 1 GiB for page tables");
	map_direct();
	map_kernel_image();
	/* Fix the kernel virtual area's top-level slot now, so every process shares it. */
	if (IS_ERR(entry_alloc(VMALLOC_START, 2)))
		panic("paging_init: no memory for the kernel virtual area");
	__asm__ __volatile__("mov %0, %%cr3" :: "r"(init_top_pgt_phys) : "memory");
	early_tables = false;
	init_top_pgt = __va(init_top_pgt_phys);
}

void pgtable_account(long delta)
{
	__atomic_add_fetch(&nr_pgtable_pages, delta, __ATOMIC_RELAXED);
}

unsigned long nr_page_table_pages(void)
{
	return READ_ONCE(nr_pgtable_pages);
}
