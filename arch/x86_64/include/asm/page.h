/*
 * x86_64 4-level paging: the address-space layout, conversions between
 * physical and kernel virtual addresses, page-table entry bits, and the
 * kernel page-table API (arch/x86_64/paging.c). The host build has a twin
 * in tests/host/include/asm/page.h with the conversions only.
 *
 *   0x0000000000000000 - 0x00007fffffffffff  user space (per process)
 *   0xffff888000000000 + phys                direct map of RAM, RW+NX
 *   0xffffc90000000000 - +512 GiB            kernel virtual area (vmalloc, stacks, ioremap)
 *   0xffffffff80000000 + phys                kernel image
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include <kernel/types.h>

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PMD_SHIFT		21
#define PMD_SIZE		(1UL << PMD_SHIFT)	/* a large page */
#define PUD_SHIFT		30
#define PGDIR_SHIFT		39
#define PTRS_PER_TABLE		512

#define PAGE_OFFSET		0xffff888000000000UL
#define VMALLOC_START		0xffffc90000000000UL
#define VMALLOC_END		(VMALLOC_START + (1UL << PGDIR_SHIFT))
#define __START_KERNEL_map	0xffffffff80000000UL

typedef u64 phys_addr_t;

/* Physical address of a direct-map or kernel-image address. */
static inline phys_addr_t __phys_addr(unsigned long x)
{
	return x >= __START_KERNEL_map ? x - __START_KERNEL_map : x - PAGE_OFFSET;
}
#define __pa(x)			__phys_addr((unsigned long)(x))
#define __va(x)			((void *)((unsigned long)(x) + PAGE_OFFSET))

static inline void *phys_to_virt(phys_addr_t p) { return __va(p); }
static inline phys_addr_t virt_to_phys(const void *v) { return __pa(v); }
static inline phys_addr_t kernel_virt_to_phys(unsigned long v) { return v - __START_KERNEL_map; }

/* Page-table entry bits. */
#define _PAGE_PRESENT		BIT(0)
#define _PAGE_RW		BIT(1)
#define _PAGE_USER		BIT(2)
#define _PAGE_PWT		BIT(3)
#define _PAGE_PCD		BIT(4)
#define _PAGE_ACCESSED		BIT(5)
#define _PAGE_DIRTY		BIT(6)
#define _PAGE_PSE		BIT(7)		/* a 2 MiB/1 GiB page in a PD/PDPT entry */
#define _PAGE_GLOBAL		BIT(8)
#define _PAGE_NX		BIT(63)
#define PTE_ADDR_MASK		0x000ffffffffff000UL

/* Protections for map_page and friends. */
#define PAGE_KERNEL		(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_NX)
#define PAGE_KERNEL_RO		(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_NX)
#define PAGE_KERNEL_RX		(_PAGE_PRESENT | _PAGE_ACCESSED)
#define PAGE_KERNEL_EXEC	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY)
#define PAGE_KERNEL_NOCACHE	(PAGE_KERNEL | _PAGE_PCD | _PAGE_PWT)

/* The kernel's top-level table; every address space shares its upper half. */
extern u64 *init_top_pgt;

/*
 * Builds the final kernel page tables from boot_info and switches CR3 to
 * them (arch/x86_64/setup.c calls it once, on the boot CPU).
 */
void paging_init(void);

/*
 * Maps one 4 KiB page at virt in the kernel's tables (the upper half, or
 * the lower half for identity mappings), replacing any mapping there, and
 * flushes this CPU's TLB entry. Returns 0 or -ENOMEM (no page-table page),
 * -EINVAL (unaligned, or virt inside a large page). Any context but NMI.
 */
int map_page(unsigned long virt, phys_addr_t phys, u64 prot);
/* Unmaps the page at virt (no-op if none) and flushes this CPU's TLB entry. */
void unmap_page(unsigned long virt);
/* The physical address virt maps to, or -1 when unmapped. */
phys_addr_t lookup_phys(unsigned long virt);

/*
 * Identity-maps [phys, phys + len) executable and writable in the lower
 * half, for code that runs there with paging on (the AP trampoline).
 * paging_unmap_identity removes it and frees the tables it needed, so the
 * lower half is empty again. Both return 0 or a negative errno.
 */
int paging_map_identity(phys_addr_t phys, size_t len);
void paging_unmap_identity(phys_addr_t phys, size_t len);

/*
 * A new top-level table for a process: an empty lower half and the
 * kernel's upper half. NULL when out of memory. pgd_free releases it
 * (the caller has freed the user half's tables).
 */
u64 *pgd_alloc(void);
void pgd_free(u64 *pgd);

/*
 * Frees the page tables under [start, end) of the kernel virtual area that
 * map nothing any more, except those on the way to keep, where the next
 * mapping goes. The area's next-fit allocator keeps moving to addresses
 * never mapped before, so without this every range it ever handed out
 * would keep its tables. Call after unmapping and flushing the range.
 */
void free_empty_page_tables(unsigned long start, unsigned long end, unsigned long keep);

/* Pages holding page tables (PageTables in /proc/meminfo), kernel and user. */
unsigned long nr_page_table_pages(void);
void pgtable_account(long delta);

/*
 * User page tables (arch/x86_64/pgtable_user.c), under the owning mm's
 * lock. user_pte: the last-level entry for va in pgd's lower half,
 * creating the tables on the way when alloc (NULL when missing or out of
 * memory). user_pgtables_free: unhooks every table of the lower half (not
 * the pages they map) and puts their pages on freed (struct page lru), for
 * the caller to free after the TLB flush: a CPU still holding the mm may
 * walk them until then. load_cr3: switch this CPU to pgd.
 */
struct list_head;
#define _PAGE_COW		BIT(9)		/* software bit: a private page shared since fork */
#define PAGE_USER_BASE		(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED)
u64 *user_pte(u64 *pgd, unsigned long va, bool alloc);
void user_pgtables_free(u64 *pgd, struct list_head *freed);
void load_cr3(u64 *pgd);
/*
 * Calls fn for every non-empty last-level entry of [start, end) in pgd's
 * lower half (tables that are not there are skipped whole); a nonzero
 * return from fn stops the walk and is returned.
 */
typedef int (*pte_fn_t)(u64 *pte, unsigned long va, void *arg);
int walk_user_ptes(u64 *pgd, unsigned long start, unsigned long end, pte_fn_t fn, void *arg);

/* Uncached mapping of device memory in the kernel virtual area; NULL on failure. */
void *ioremap(phys_addr_t phys, size_t size);
void iounmap(void *addr);

#endif
