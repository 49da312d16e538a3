/*
 * Physical memory: one struct page per page frame, in mem_map[pfn], and
 * the buddy allocator over them (kernel/mm/page_alloc.c). Pure: on the
 * host, tests put "physical memory" in an arena (see asm/page.h's twin).
 *
 * Free memory is kept in blocks of 2^order pages (order 0..MAX_ORDER),
 * each naturally aligned; a freed block merges with its buddy (the block
 * whose pfn differs only in bit `order`) while that buddy is free too.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/slab.h>
#include <asm/page.h>

#define MAX_ORDER		10
#define NR_PAGE_ORDERS		(MAX_ORDER + 1)

/* struct page flags. */
#define PG_reserved		BIT(0)	/* never in the allocator: firmware, kernel, boot data, holes */
#define PG_buddy		BIT(1)	/* heads a free block of 2^order pages */
#define PG_head			BIT(2)	/* heads an allocated block of 2^order pages */
#define PG_slab			BIT(3)	/* a kmalloc slab (with PG_head) */
#define PG_large_kmalloc	BIT(4)	/* a kmalloc block too big for a slab (with PG_head) */
#define PG_pgtable		BIT(5)	/* a process's page table (with PG_head): freed with its mm only */
/*
 * Was mapped executable in user space, so a CPU may have run code from it.
 * QEMU's TCG keeps its translations of such a page until each translated
 * byte is written, and until then every store anywhere in the page takes
 * its slow path: a kernel stack or slab page reusing it ran awk 30x slower
 * (ftrace_stress). __free_pages clears it whole first, paying that once.
 */
#define PG_text			BIT(6)

struct kmem_cache;

/*
 * A page frame. Pages inside a block other than its first have no flags:
 * only the head says what the block is.
 */
struct page {
	u32 flags;			/* PG_* */
	u16 inuse;			/* PG_slab: objects handed out */
	u8 order;			/* PG_buddy/PG_head: the block is 2^order pages */
	u32 _refcount;			/* user pages: mappings (copy-on-write sharers) + pins */
	struct list_head lru;		/* PG_buddy: free list; PG_slab: the cache's partial list */
	struct kmem_cache *slab_cache;	/* PG_slab: the size class */
	void *freelist;			/* PG_slab: first free object (encoded, see slab.c) */
};

extern struct page *mem_map;		/* indexed by pfn */
extern unsigned long max_pfn;		/* pfns [0, max_pfn) have a struct page */

static inline unsigned long page_to_pfn(const struct page *page) { return (unsigned long)(page - mem_map); }
static inline struct page *pfn_to_page(unsigned long pfn) { return &mem_map[pfn]; }
static inline void *page_address(const struct page *page)
{
	return __va((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT);
}
/* addr is in the direct map, over a page frame that has a struct page. */
static inline bool virt_addr_valid(const void *addr)
{
	return (unsigned long)addr - PAGE_OFFSET < (max_pfn << PAGE_SHIFT);
}
static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(__pa(addr) >> PAGE_SHIFT);
}
/* The order of the smallest block holding size bytes. */
static inline unsigned int get_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/*
 * Takes the mem_map array for pfns [0, nr_pfns), every page reserved and
 * the allocator empty. free_boot_pages then hands the free ranges over.
 */
void free_area_init(struct page *map, unsigned long nr_pfns);
/* Gives reserved pages [start_pfn, end_pfn) to the allocator (boot only). */
void free_boot_pages(unsigned long start_pfn, unsigned long end_pfn);

/*
 * 2^order contiguous pages, or NULL. __GFP_ZERO zeroes them. Any context
 * but NMI. A bad free (not allocated, already free, wrong order) is
 * reported and ignored.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
/* The same by direct-map address; 0 when out of memory. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
#define __get_free_page(gfp)	__get_free_pages((gfp), 0)
#define get_zeroed_page(gfp)	__get_free_pages((gfp) | __GFP_ZERO, 0)
#define free_page(addr)		free_pages((addr), 0)

/*
 * References to an order-0 page mapped into user space: each mapping and
 * each pin holds one; the last put_page frees it. A page shared
 * copy-on-write by a fork has more than one.
 */
static inline void get_page(struct page *page)
{
	__atomic_add_fetch(&page->_refcount, 1, __ATOMIC_RELAXED);
}
static inline u32 page_count(const struct page *page)
{
	return __atomic_load_n(&page->_refcount, __ATOMIC_ACQUIRE);
}
/* A fresh page for user space with one reference; NULL when out of memory. */
struct page *alloc_user_page(bool zero);
void put_page(struct page *page);

/* Counters (in pages) for /proc/meminfo and /proc/buddyinfo. */
unsigned long totalram_pages(void);	/* given to the allocator: MemTotal */
unsigned long nr_free_pages(void);	/* MemFree */
unsigned long nr_free_blocks(unsigned int order);
unsigned long nr_pages_zeroed(void);	/* zeroed for __GFP_ZERO since boot */

#endif
