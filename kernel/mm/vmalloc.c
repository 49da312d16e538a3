/*
 * The kernel virtual area allocator: a list of areas sorted by address,
 * first fit. Areas are few (stacks, buffers, device registers), so a list
 * walk under one lock is enough.
 */
#include <kernel/vmalloc.h>
#include <kernel/mm.h>
#include <kernel/list.h>
#include <kernel/slab.h>
#include <kernel/spinlock.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/page.h>
#include <asm/tlbflush.h>

#define GUARD_SIZE	PAGE_SIZE

/* One area: [addr - GUARD_SIZE, addr) unmapped, [addr, addr + size) mapped. */
struct vm_struct {
	struct list_head list;		/* vmap_areas, by address */
	unsigned long addr;
	unsigned long size;		/* bytes, page multiple */
	bool owns_pages;		/* vmalloc: the pages are freed with the area */
	bool dying;			/* being freed: a second free of it is a bad free */
};

static LIST_HEAD(vmap_areas);
static DEFINE_SPINLOCK(vmap_lock);
static unsigned long vmap_cursor = VMALLOC_START;	/* where the next search starts */
static unsigned long vmalloc_pages;

/*
 * The lowest gap at or above from for size bytes plus a guard page; 0 if
 * none. *next is the area the gap ends at (the list head when none).
 */
static unsigned long find_gap(unsigned long from, unsigned long size, struct list_head **next)
{
	unsigned long start = from;
	struct vm_struct *pos;

	list_for_each_entry(pos, &vmap_areas, list) {
		unsigned long guard = pos->addr - GUARD_SIZE;

		if (pos->addr + pos->size <= start)
			continue;
		if (guard >= start && guard - start >= size + GUARD_SIZE) {
			*next = &pos->list;
			return start;
		}
		start = pos->addr + pos->size;
	}
	*next = &vmap_areas;
	return VMALLOC_END - start >= size + GUARD_SIZE ? start : 0;
}

/*
 * Reserves address space for size bytes plus a guard page below; NULL
 * when full. Next fit: the search starts where the last one ended, so a
 * freed range is reused only after the cursor wraps around the whole
 * area, long after any CPU could still cache a translation for it.
 */
static struct vm_struct *get_vm_area(unsigned long size, bool owns_pages)
{
	struct vm_struct *area = kmalloc(sizeof(*area), GFP_KERNEL);
	struct list_head *next;
	unsigned long start, flags, left;

	if (!area)
		return NULL;
	size = ALIGN_UP(size, PAGE_SIZE);
	spin_lock_irqsave(&vmap_lock, flags);
	start = find_gap(vmap_cursor, size, &next);
	if (!start)
		start = find_gap(VMALLOC_START, size, &next);
	if (!start) {
		spin_unlock_irqrestore(&vmap_lock, flags);
		kfree(area);
		return NULL;
	}
	area->addr = start + GUARD_SIZE;
	area->size = size;
	area->owns_pages = owns_pages;
	area->dying = false;
	list_add_tail(&area->list, next);	/* before next: the list stays sorted */
	left = vmap_cursor;
	vmap_cursor = area->addr + size;
	spin_unlock_irqrestore(&vmap_lock, flags);
	/*
	 * Tables the cursor leaves behind empty are freed now, and those still
	 * in use when their last area goes (remove_vm_area): nothing maps
	 * there again until the cursor wraps around the whole area.
	 */
	free_empty_page_tables(left, left + 1, area->addr + size);
	return area;
}

static struct vm_struct *find_vm_area(unsigned long addr)
{
	struct vm_struct *pos;

	list_for_each_entry(pos, &vmap_areas, list)
		if (pos->addr == addr)
			return pos;
	return NULL;
}

/* Unmaps area's pages, freeing them if it owns them, and releases the area. */
static void remove_vm_area(struct vm_struct *area)
{
	unsigned long flags;

	for (unsigned long a = area->addr; a < area->addr + area->size; a += PAGE_SIZE) {
		phys_addr_t phys = lookup_phys(a);

		unmap_page(a);
		if (area->owns_pages && phys != (phys_addr_t)-1) {
			__free_pages(pfn_to_page(phys >> PAGE_SHIFT), 0);
			__atomic_fetch_sub(&vmalloc_pages, 1, __ATOMIC_RELAXED);
		}
	}
	/* The range may be handed out again only once no TLB still maps it. */
	flush_tlb_kernel_range(area->addr, area->addr + area->size);
	spin_lock_irqsave(&vmap_lock, flags);
	list_del(&area->list);
	spin_unlock_irqrestore(&vmap_lock, flags);
	free_empty_page_tables(area->addr, area->addr + area->size, READ_ONCE(vmap_cursor));
	kfree(area);
}

static void *__vmalloc(unsigned long size, gfp_t gfp)
{
	struct vm_struct *area;

	if (!size || size > VMALLOC_END - VMALLOC_START)
		return NULL;
	area = get_vm_area(size, true);
	if (!area)
		return NULL;
	for (unsigned long a = area->addr; a < area->addr + area->size; a += PAGE_SIZE) {
		struct page *page = alloc_pages(gfp, 0);

		if (!page || map_page(a, (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT, PAGE_KERNEL)) {
			if (page)
				__free_pages(page, 0);
			area->size = a - area->addr;	/* free what is mapped so far */
			remove_vm_area(area);
			return NULL;
		}
		__atomic_fetch_add(&vmalloc_pages, 1, __ATOMIC_RELAXED);
	}
	return (void *)area->addr;
}

void *vmalloc(unsigned long size) { return __vmalloc(size, GFP_KERNEL); }
void *vzalloc(unsigned long size) { return __vmalloc(size, GFP_KERNEL | __GFP_ZERO); }

/* Claims the area at addr for freeing, or reports a bad free from caller. */
static struct vm_struct *area_to_free(const void *addr, bool owns_pages, const char *what,
				      unsigned long caller)
{
	struct vm_struct *area;
	unsigned long flags;

	spin_lock_irqsave(&vmap_lock, flags);
	area = find_vm_area((unsigned long)addr);
	if (area && (area->owns_pages != owns_pages || area->dying))
		area = NULL;
	if (area)
		area->dying = true;
	spin_unlock_irqrestore(&vmap_lock, flags);
	if (!area)
		pr_err("%s: bad free of %p from %pS\n", what, addr, (void *)caller);
	return area;
}

void vfree(const void *addr)
{
	struct vm_struct *area;

	if (!addr)
		return;
	area = area_to_free(addr, true, "vfree", _RET_IP_);
	if (area)
		remove_vm_area(area);
}

void *alloc_kernel_stack(void)
{
	return vmalloc(KERNEL_STACK_SIZE);
}

void free_kernel_stack(void *stack)
{
	vfree(stack);
}

void *ioremap(phys_addr_t phys, size_t size)
{
	phys_addr_t base = phys & PAGE_MASK;
	struct vm_struct *area;

	if (!size || phys + size < phys)
		return NULL;
	area = get_vm_area(ALIGN_UP(phys + size, PAGE_SIZE) - base, false);
	if (!area)
		return NULL;
	for (unsigned long off = 0; off < area->size; off += PAGE_SIZE) {
		if (map_page(area->addr + off, base + off, PAGE_KERNEL_NOCACHE)) {
			area->size = off;
			remove_vm_area(area);
			return NULL;
		}
	}
	return (void *)(area->addr + (phys - base));
}

void iounmap(void *addr)
{
	struct vm_struct *area;

	if (!addr)
		return;
	area = area_to_free((void *)((unsigned long)addr & PAGE_MASK), false, "iounmap", _RET_IP_);
	if (area)
		remove_vm_area(area);
}

bool is_vmalloc_guard(unsigned long addr)
{
	struct vm_struct *pos;
	unsigned long flags;
	bool guard = false;

	if (addr < VMALLOC_START || addr >= VMALLOC_END)
		return false;
	spin_lock_irqsave(&vmap_lock, flags);
	list_for_each_entry(pos, &vmap_areas, list)
		if (addr >= pos->addr - GUARD_SIZE && addr < pos->addr)
			guard = true;
	spin_unlock_irqrestore(&vmap_lock, flags);
	return guard;
}

unsigned long nr_vmalloc_pages(void)
{
	return READ_ONCE(vmalloc_pages);
}
