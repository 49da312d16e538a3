/*
 * User pages: demand faults (zero-fill, file reads, copy-on-write),
 * unmapping, protection changes and the page copying of fork. Every
 * present user entry maps an order-0 page with a reference of its own
 * (get_page/put_page), except in VM_PFNMAP vmas, whose pages a driver
 * owns.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/smp.h>
#include <kernel/sched.h>
#include <kernel/fs/fs.h>
#include <kernel/uprobes.h>
#include <asm/page.h>
#include <asm/tlbflush.h>

struct page *alloc_user_page(bool zero)
{
	struct page *page = alloc_pages(GFP_KERNEL | (zero ? __GFP_ZERO : 0), 0);

	if (page)
		page->_refcount = 1;
	return page;
}

void put_page(struct page *page)
{
	if (__atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_ACQ_REL) == 0)
		__free_pages(page, 0);
}

static struct page *pte_page(u64 pte)
{
	return pfn_to_page((pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
}

/* An entry leaves a page that user code may have run from: see PG_text. */
static void note_text(u64 pte)
{
	/* a VM_PFNMAP entry may name a frame the allocator does not have */
	if ((pte & _PAGE_PRESENT) && !(pte & _PAGE_NX) &&
	    ((pte & PTE_ADDR_MASK) >> PAGE_SHIFT) < max_pfn)
		__atomic_or_fetch(&pte_page(pte)->flags, PG_text, __ATOMIC_RELAXED);
}

/* The entry bits for a page of vma; writable only if the page is the mapping's own. */
static u64 vma_pte_prot(const struct vm_area_struct *vma, bool writable)
{
	u64 prot = PAGE_USER_BASE;

	if (!(vma->flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return 0;			/* PROT_NONE: leave it not present */
	if ((vma->flags & VM_WRITE) && writable)
		prot |= _PAGE_RW | _PAGE_DIRTY;
	if (!(vma->flags & VM_EXEC))
		prot |= _PAGE_NX;
	return prot;
}

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	u64 others = READ_ONCE(mm->cpu_mask) & ~(1ULL << smp_processor_id());

	/* Another CPU may hold translations when it runs (or ran, lazily) this mm. */
	if (others && num_online_cpus() > 1 && !irqs_disabled()) {
		smp_flush_tlb_kernel_range(start, end);
		return;
	}
	if ((end - start) >> PAGE_SHIFT > 32) {
		__flush_tlb_all();
		return;
	}
	for (unsigned long a = start; a < end; a += PAGE_SIZE)
		__flush_tlb_one(a);
}

void tlb_flush_free(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	LIST_HEAD(pages);
	LIST_HEAD(vmas);
	struct vm_area_struct *vma, *nv;
	struct page *page, *n;

	spin_lock(&mm->lock);
	list_for_each_entry_safe(page, n, &mm->zapped, lru)
		list_move_tail(&page->lru, &pages);
	list_for_each_entry_safe(vma, nv, &mm->dead_vmas, node)
		list_move_tail(&vma->node, &vmas);
	spin_unlock(&mm->lock);
	/* What another call zapped may lie outside [start, end): flush it all. */
	if (!list_empty(&pages) || !list_empty(&vmas)) {
		start = 0;
		end = TASK_SIZE;
	}
	flush_tlb_mm_range(mm, start, end);
	list_for_each_entry_safe(page, n, &pages, lru) {
		list_del_init(&page->lru);
		__free_pages(page, 0);
	}
	list_for_each_entry_safe(vma, nv, &vmas, node)
		vma_free(vma);
}

/* Reads the file's bytes for the page at addr of a private file mapping into kaddr. */
static int fill_from_file(struct vm_area_struct *vma, unsigned long addr, char *kaddr)
{
	unsigned long len = PAGE_SIZE;
	loff_t pos = (loff_t)(vma->pgoff * PAGE_SIZE + (addr - vma->start));
	struct inode *inode = vma->file->f_inode;

	if (addr >= vma->file_end)
		return 0;
	if (vma->file_end - addr < len)
		len = vma->file_end - addr;
	if (!inode->i_fop || !inode->i_fop->read)
		return -EACCES;
	/* A private copy, not the file's page: reading from a private position leaves f_pos alone. */
	return inode->i_fop->read(vma->file, kaddr, len, &pos) < 0 ? -EIO : 0;
}

/* A new page for a not-present entry of vma. */
static int do_anonymous_or_file(struct mm_struct *mm, struct vm_area_struct *vma,
				unsigned long addr, u64 *pte)
{
	struct page *page;

	if (vma->flags & VM_PFNMAP) {
		u64 pfn = vma->vm_ops->fault_pfn(vma, (addr - vma->start) >> PAGE_SHIFT);

		if (pfn == (u64)-1)
			return -EFAULT;
		*pte = (pfn << PAGE_SHIFT) | vma_pte_prot(vma, true);
		return 0;
	}
	page = alloc_user_page(true);
	if (!page)
		return -ENOMEM;
	if (vma->file && fill_from_file(vma, addr, page_address(page))) {
		put_page(page);
		return -EFAULT;
	}
	/* a breakpoint of an armed uprobe in this page of the file: in the private copy */
	if (vma->file && uprobes_active())
		uprobe_fill_page(vma, addr, page_address(page));
	*pte = __pa(page_address(page)) | vma_pte_prot(vma, true);
	mm->rss++;
	return 0;
}

/* A write to a page shared since fork: take it over if we are the last, else copy it. */
static int do_wp_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr, u64 *pte)
{
	struct page *old = pte_page(*pte), *page;

	if (page_count(old) == 1) {
		*pte = (*pte & ~_PAGE_COW) | _PAGE_RW | _PAGE_DIRTY;
	} else {
		page = alloc_user_page(false);
		if (!page)
			return -ENOMEM;
		memcpy(page_address(page), page_address(old), PAGE_SIZE);
		note_text(*pte);
		*pte = __pa(page_address(page)) | vma_pte_prot(vma, true);
		/* No CPU may still read the old page through this mm once it can be freed. */
		flush_tlb_mm_range(mm, addr, addr + PAGE_SIZE);
		put_page(old);
		return 0;
	}
	flush_tlb_mm_range(mm, addr, addr + PAGE_SIZE);
	return 0;
}

int handle_mm_fault(struct mm_struct *mm, unsigned long addr, unsigned int flags)
{
	struct vm_area_struct *vma;
	int ret = 0;
	u64 *pte;

	addr &= PAGE_MASK;
	spin_lock(&mm->lock);
	vma = find_vma(mm, addr);
	if (!vma || addr < vma->start ||
	    ((flags & FAULT_FLAG_WRITE) && !(vma->flags & VM_WRITE)) ||
	    ((flags & FAULT_FLAG_EXEC) && !(vma->flags & VM_EXEC)) ||
	    !(vma->flags & (VM_READ | VM_WRITE | VM_EXEC))) {
		ret = -EFAULT;
		goto out;
	}
	pte = user_pte(mm->pgd, addr, true);
	if (!pte) {
		ret = -ENOMEM;
		goto out;
	}
	if (!*pte)
		ret = do_anonymous_or_file(mm, vma, addr, pte);
	else if (!(*pte & _PAGE_PRESENT))
		ret = -EFAULT;			/* kept by PROT_NONE, which the vma check let through? */
	else if ((flags & FAULT_FLAG_WRITE) && !(*pte & _PAGE_RW))
		ret = (*pte & _PAGE_COW) ? do_wp_page(mm, vma, addr, pte) : -EFAULT;
	/* else: another thread served it first, or a stale TLB entry: retry */
	else
		__flush_tlb_one(addr);
out:
	spin_unlock(&mm->lock);
	return ret;
}

struct zap_ctx {
	struct mm_struct *mm;
	bool pfnmap;
};

static int zap_one(u64 *pte, unsigned long va, void *arg)
{
	struct zap_ctx *z = arg;

	/* PROT_NONE pages keep a non-present entry with their frame: freed too. */
	if (!z->pfnmap) {
		struct page *page = pte_page(*pte);

		note_text(*pte);
		if (!__atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_ACQ_REL))
			list_add_tail(&page->lru, &z->mm->zapped);
		z->mm->rss--;
	}
	*pte = 0;
	return 0;
}

void zap_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);
	struct zap_ctx z = { mm, vma && (vma->flags & VM_PFNMAP) };

	walk_user_ptes(mm->pgd, start, end, zap_one, &z);
}

static int protect_one(u64 *pte, unsigned long va, void *arg)
{
	struct vm_area_struct *vma = arg;
	/* A shared-since-fork page stays read-only: the write fault copies it. */
	u64 prot = vma_pte_prot(vma, !(*pte & _PAGE_COW) || (vma->flags & VM_SHARED));

	/* PROT_NONE: keep the page, make the entry not present but remembered. */
	if (!prot)
		prot = _PAGE_USER | _PAGE_NX;
	if (prot & _PAGE_NX)
		note_text(*pte);
	*pte = (*pte & (PTE_ADDR_MASK | _PAGE_COW)) | prot;
	return 0;
}

void change_protection(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long start,
		       unsigned long end)
{
	walk_user_ptes(mm->pgd, start, end, protect_one, vma);
}

struct copy_ctx {
	struct mm_struct *dst;
	struct vm_area_struct *vma;
};

static int copy_one(u64 *spte, unsigned long va, void *arg)
{
	struct copy_ctx *c = arg;
	unsigned long flags = c->vma->flags;
	bool shared = flags & (VM_SHARED | VM_PFNMAP);
	u64 *dpte = user_pte(c->dst->pgd, va, true);

	if (!dpte)
		return -ENOMEM;
	if (!(flags & VM_PFNMAP)) {
		get_page(pte_page(*spte));
		c->dst->rss++;
	}
	if (!shared && (*spte & _PAGE_RW))
		*spte = (*spte & ~_PAGE_RW) | _PAGE_COW;
	else if (!shared && (flags & VM_WRITE))
		*spte |= _PAGE_COW;
	*dpte = *spte;
	return 0;
}

int copy_vma_pages(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma)
{
	struct copy_ctx c = { dst, vma };

	return walk_user_ptes(src->pgd, vma->start, vma->end, copy_one, &c);
}

int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len, bool write)
{
	while (len) {
		size_t n = PAGE_SIZE - (addr & ~PAGE_MASK);
		char *kaddr;
		u64 *pte;
		int err;

		if (n > len)
			n = len;
		if (addr >= TASK_SIZE)
			return -EFAULT;
		err = handle_mm_fault(mm, addr, write ? FAULT_FLAG_WRITE : 0);
		if (err)
			return -EFAULT;
		spin_lock(&mm->lock);
		pte = user_pte(mm->pgd, addr, false);
		/* Another thread may have unmapped it since: then it is gone. */
		if (!pte || !(*pte & _PAGE_PRESENT) || (write && !(*pte & _PAGE_RW))) {
			spin_unlock(&mm->lock);
			return -EFAULT;
		}
		kaddr = (char *)__va(*pte & PTE_ADDR_MASK) + (addr & ~PAGE_MASK);
		if (write)
			memcpy(kaddr, buf, n);
		else
			memcpy(buf, kaddr, n);
		spin_unlock(&mm->lock);
		addr += n;
		buf = (char *)buf + n;
		len -= n;
	}
	return 0;
}

int patch_user_page(struct mm_struct *mm, unsigned long addr, bool present_only,
		    bool (*patch)(u8 *kaddr, void *arg), void *arg)
{
	struct page *old, *page;
	int ret = 0;
	u64 *pte;

	if (addr >= TASK_SIZE)
		return -EFAULT;
	if (!present_only && handle_mm_fault(mm, addr, 0))
		return -EFAULT;
	spin_lock(&mm->lock);
	pte = user_pte(mm->pgd, addr, false);
	if (!pte || !(*pte & _PAGE_PRESENT)) {
		ret = present_only ? 0 : -EFAULT;
		goto out;
	}
	old = pte_page(*pte);
	if (page_count(old) > 1) {
		/* shared since fork: this mm's own copy takes the change, as Linux's COW */
		page = alloc_user_page(false);
		if (!page) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(page_address(page), page_address(old), PAGE_SIZE);
		*pte = __pa(page_address(page)) | (*pte & ~PTE_ADDR_MASK);
		flush_tlb_mm_range(mm, addr & PAGE_MASK, (addr & PAGE_MASK) + PAGE_SIZE);
		put_page(old);
	}
	ret = patch((u8 *)__va(*pte & PTE_ADDR_MASK) + (addr & ~PAGE_MASK), arg) ? 1 : 0;
out:
	spin_unlock(&mm->lock);
	return ret;
}
