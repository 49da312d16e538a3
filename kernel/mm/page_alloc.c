/*
 * The buddy allocator. One zone covers all of mem_map; one lock, taken
 * with interrupts off, guards the free lists and counters, so alloc and
 * free work from irq context (never from NMI context: NMIs take no locks).
 */
#include <kernel/mm.h>
#include <kernel/stacktrace.h>
#include <kernel/spinlock.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <trace/events/kmem.h>

struct page *mem_map;
unsigned long max_pfn;

/* Free blocks of one order. */
struct free_area {
	struct list_head free_list;	/* heads of free blocks (PG_buddy) */
	unsigned long nr_free;		/* blocks on the list */
};

static struct {
	spinlock_t lock;
	struct free_area free_area[NR_PAGE_ORDERS];
	unsigned long managed_pages;	/* ever given to the allocator */
	unsigned long free_pages;
	unsigned long zeroed_pages;
} zone = { .lock = SPINLOCK_INIT };

void free_area_init(struct page *map, unsigned long nr_pfns)
{
	mem_map = map;
	max_pfn = nr_pfns;
	for (unsigned long pfn = 0; pfn < nr_pfns; pfn++) {
		map[pfn] = (struct page){ .flags = PG_reserved };
		INIT_LIST_HEAD(&map[pfn].lru);
	}
	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		INIT_LIST_HEAD(&zone.free_area[o].free_list);
		zone.free_area[o].nr_free = 0;
	}
	zone.managed_pages = zone.free_pages = zone.zeroed_pages = 0;
}

static void add_to_free_area(struct page *page, unsigned int order)
{
	page->flags = PG_buddy;
	page->order = (u8)order;
	list_add(&page->lru, &zone.free_area[order].free_list);
	zone.free_area[order].nr_free++;
}

static void del_from_free_area(struct page *page, unsigned int order)
{
	list_del(&page->lru);
	page->flags = 0;
	zone.free_area[order].nr_free--;
}

/* Frees the block at pfn and merges it upwards while its buddy is free. */
static void __free_one_page(unsigned long pfn, unsigned int order)
{
	zone.free_pages += 1UL << order;
	while (order < MAX_ORDER) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (buddy_pfn >= max_pfn)
			break;
		buddy = pfn_to_page(buddy_pfn);
		if (!(buddy->flags & PG_buddy) || buddy->order != order)
			break;
		del_from_free_area(buddy, order);
		pfn &= ~(1UL << order);
		order++;
	}
	add_to_free_area(pfn_to_page(pfn), order);
}

void free_boot_pages(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long flags;

	end_pfn = min(end_pfn, max_pfn);
	spin_lock_irqsave(&zone.lock, flags);
	/* Largest naturally aligned blocks that fit: a few hundred steps for all of RAM. */
	while (start_pfn < end_pfn) {
		unsigned int order = MAX_ORDER;

		while (order && ((start_pfn & ((1UL << order) - 1)) || start_pfn + (1UL << order) > end_pfn))
			order--;
		for (unsigned long i = 0; i < (1UL << order); i++)
			pfn_to_page(start_pfn + i)->flags = 0;
		zone.managed_pages += 1UL << order;
		__free_one_page(start_pfn, order);
		start_pfn += 1UL << order;
	}
	spin_unlock_irqrestore(&zone.lock, flags);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;
	unsigned long flags;
	unsigned int o;

	if (order > MAX_ORDER)
		return NULL;
	spin_lock_irqsave(&zone.lock, flags);
	for (o = order; o <= MAX_ORDER; o++) {
		page = list_first_entry_or_null(&zone.free_area[o].free_list, struct page, lru);
		if (page)
			break;
	}
	if (page) {
		del_from_free_area(page, o);
		/* Split: the upper halves go back on the lower orders' lists. */
		while (o > order) {
			o--;
			add_to_free_area(page + (1UL << o), o);
		}
		page->flags = PG_head;
		page->order = (u8)order;
		zone.free_pages -= 1UL << order;
		if (gfp & __GFP_ZERO)
			zone.zeroed_pages += 1UL << order;
	}
	spin_unlock_irqrestore(&zone.lock, flags);
	/*
	 * Outside zone.lock: a probe may allocate (its own allocation is not
	 * traced, but it still takes the lock). Migratetype 0 is Linux's
	 * MIGRATE_UNMOVABLE, the only kind Spoor has.
	 */
	trace_mm_page_alloc(page ? page_to_pfn(page) : -1UL, order, kmem_gfp_linux(gfp), 0);
	if (!page)
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	return page;
}

/* Why a free of page at this order would corrupt the lists, or NULL if it is sound. */
static const char *bad_free_reason(const struct page *page, unsigned int order)
{
	if (page < mem_map || page >= mem_map + max_pfn)
		return "not a page frame";
	if (page->flags & PG_buddy)
		return "double free";
	if (page->flags & PG_reserved)
		return "reserved page";
	if (!(page->flags & PG_head))
		return "not the head of an allocation";
	if (page->flags & (PG_slab | PG_large_kmalloc))
		return "page still owned by kmalloc";
	if (page->flags & PG_pgtable)
		return "a page table still in use";
	if (page->order != order)
		return "wrong order";
	return NULL;
}

void __free_pages(struct page *page, unsigned int order)
{
	const char *bad;
	unsigned long flags;

	/*
	 * Before the block is back on a free list, so no other CPU can
	 * allocate and trace it first; and outside zone.lock, for probes that
	 * allocate. A bad free is traced too, as in Linux, then reported.
	 */
	trace_mm_page_free(page_to_pfn(page), order);
	if (page >= mem_map && page < mem_map + max_pfn && (page->flags & PG_text))
		memset(page_address(page), 0, PAGE_SIZE << order);
	spin_lock_irqsave(&zone.lock, flags);
	bad = bad_free_reason(page, order);
	if (!bad) {
		page->flags = 0;
		__free_one_page(page_to_pfn(page), order);
	}
	spin_unlock_irqrestore(&zone.lock, flags);
	if (bad) {
		pr_err("page_alloc: bad free of pfn %#lx order %u from %pS: %s\n",
		       (unsigned long)(page - mem_map), order, __builtin_return_address(0), bad);
		dump_stack();
	}
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (!addr)
		return;
	if (!virt_addr_valid((void *)addr) || (addr & ~PAGE_MASK)) {
		pr_err("page_alloc: free_pages of %#lx from %pS: not a page in the direct map\n",
		       addr, __builtin_return_address(0));
		return;
	}
	__free_pages(virt_to_page((void *)addr), order);
}

unsigned long totalram_pages(void) { return READ_ONCE(zone.managed_pages); }
unsigned long nr_free_pages(void) { return READ_ONCE(zone.free_pages); }
unsigned long nr_pages_zeroed(void) { return READ_ONCE(zone.zeroed_pages); }

unsigned long nr_free_blocks(unsigned int order)
{
	return order <= MAX_ORDER ? READ_ONCE(zone.free_area[order].nr_free) : 0;
}
