/*
 * The vma list of an address space and the calls that change it: mmap,
 * munmap, mprotect, mremap, brk. A range operation first splits the
 * vmas at its ends, so it then works on whole vmas only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/fs/fs.h>
#include <asm/page.h>

#define MAX_MAP_COUNT	65530		/* vm.max_map_count */

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	/* The first vma ending above addr: it holds addr, or is the next one up. */
	list_for_each_entry(vma, &mm->vmas, node)
		if (addr < vma->end)
			return vma;
	return NULL;
}

static struct vm_area_struct *vma_alloc(unsigned long start, unsigned long end, unsigned long flags)
{
	struct vm_area_struct *vma = kmem_cache_zalloc(vm_area_cachep, GFP_KERNEL);

	if (vma) {
		vma->start = start;
		vma->end = end;
		vma->flags = flags;
	}
	return vma;
}

void vma_free(struct vm_area_struct *vma)
{
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	if (vma->file)
		fput(vma->file);
	kmem_cache_free(vm_area_cachep, vma);
}

static void vma_link(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *next = find_vma(mm, vma->start);

	list_add_tail(&vma->node, next ? &next->node : &mm->vmas);
	mm->nr_vmas++;
	mm->total_vm += (vma->end - vma->start) >> PAGE_SHIFT;
}

static void vma_unlink(struct mm_struct *mm, struct vm_area_struct *vma)
{
	list_del(&vma->node);
	mm->nr_vmas--;
	mm->total_vm -= (vma->end - vma->start) >> PAGE_SHIFT;
}

/* Splits vma at addr (inside it): vma keeps [start, addr), a new one takes [addr, end). */
static int split_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *n;

	if (mm->nr_vmas >= MAX_MAP_COUNT)
		return -ENOMEM;
	n = vma_alloc(addr, vma->end, vma->flags);
	if (!n)
		return -ENOMEM;
	n->file = vma->file ? get_file(vma->file) : NULL;
	n->pgoff = vma->pgoff + ((addr - vma->start) >> PAGE_SHIFT);
	n->file_end = vma->file_end;
	n->vm_ops = vma->vm_ops;
	n->vm_private = vma->vm_private;
	if (n->vm_ops && n->vm_ops->open)
		n->vm_ops->open(n);
	mm->total_vm -= (vma->end - addr) >> PAGE_SHIFT;
	vma->end = addr;
	list_add(&n->node, &vma->node);
	mm->nr_vmas++;
	mm->total_vm += (n->end - n->start) >> PAGE_SHIFT;
	return 0;
}

/* Splits so that no vma straddles start or end. */
static int split_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);
	int err = 0;

	if (vma && vma->start < start)
		err = split_vma(mm, vma, start);
	vma = find_vma(mm, end);
	if (!err && vma && vma->start < end && end < vma->end)
		err = split_vma(mm, vma, end);
	return err;
}

/* Removes everything in [start, end): pages, entries, vmas. Caller holds lock. */
static int unmap_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma, *n;
	int err = split_range(mm, start, end);

	if (err)
		return err;
	list_for_each_entry_safe(vma, n, &mm->vmas, node) {
		if (vma->end <= start || vma->start >= end)
			continue;
		zap_range(mm, vma->start, vma->end);
		vma_unlink(mm, vma);
		/* A device's pages (perf rings) may still be in TLBs: closed after the flush. */
		list_add_tail(&vma->node, &mm->dead_vmas);
	}
	return 0;
}

/* The highest free gap of len bytes below mm->mmap_base; 0 if none. */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len)
{
	unsigned long top = mm->mmap_base;
	struct vm_area_struct *vma;

	list_for_each_entry_reverse(vma, &mm->vmas, node) {
		if (vma->start >= top)
			continue;
		if (vma->end <= top && top - vma->end >= len)
			return top - len;
		top = vma->start;
	}
	return top >= MMAP_MIN_ADDR + len ? top - len : 0;
}

static bool range_free(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	return !vma || vma->start >= end;
}

int mm_map_fixed(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned long flags,
		 struct file *file, unsigned long pgoff, unsigned long file_end)
{
	struct vm_area_struct *vma = vma_alloc(start, end, flags);

	if (!vma)
		return -ENOMEM;
	vma->file = file ? get_file(file) : NULL;
	vma->pgoff = pgoff;
	vma->file_end = file_end;
	spin_lock(&mm->lock);
	vma_link(mm, vma);
	spin_unlock(&mm->lock);
	return 0;
}

long do_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
	     unsigned long flags, struct file *file, unsigned long pgoff)
{
	unsigned long type = flags & MAP_TYPE, vmflags = prot & (VM_READ | VM_WRITE | VM_EXEC);
	struct vm_area_struct *vma;
	bool replaced = false;
	long ret;

	if (!len || (type != MAP_PRIVATE && type != MAP_SHARED && type != MAP_SHARED_VALIDATE))
		return -EINVAL;
	if ((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && (addr & ~PAGE_MASK))
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len || len > TASK_SIZE)
		return -ENOMEM;
	if (type != MAP_PRIVATE)
		vmflags |= VM_SHARED;
	if (file && !(flags & MAP_ANONYMOUS)) {
		const struct file_operations *fop = file->f_op;

		if (!fop || !file->f_inode || (!S_ISREG(file->f_inode->i_mode) && !fop->mmap))
			return -ENODEV;
		if (!(file->f_mode & FMODE_READ))
			return -EACCES;
		if ((vmflags & VM_SHARED) && (prot & PROT_WRITE) && !(file->f_mode & FMODE_WRITE))
			return -EACCES;
		/* Writable shared mappings of regular files would need a page cache Spoor lacks. */
		if ((vmflags & VM_SHARED) && !fop->mmap && S_ISREG(file->f_inode->i_mode) &&
		    (prot & PROT_WRITE))
			return -ENODEV;
	} else {
		file = NULL;
	}
	spin_lock(&mm->lock);
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		ret = -ENOMEM;
		if (addr < MMAP_MIN_ADDR || addr > TASK_SIZE - len)
			goto out;
		if (!range_free(mm, addr, addr + len)) {
			ret = -EEXIST;
			if (flags & MAP_FIXED_NOREPLACE)
				goto out;
			ret = unmap_range(mm, addr, addr + len);
			replaced = true;
			if (ret)
				goto out;
		}
	} else if (addr &= PAGE_MASK, !(addr && addr >= MMAP_MIN_ADDR && addr <= TASK_SIZE - len &&
					  range_free(mm, addr, addr + len))) {
		addr = get_unmapped_area(mm, len);
		ret = -ENOMEM;
		if (!addr)
			goto out;
	}
	ret = -ENOMEM;
	if (mm->nr_vmas >= MAX_MAP_COUNT)
		goto out;
	vma = vma_alloc(addr, addr + len, vmflags);
	if (!vma)
		goto out;
	if (file) {
		vma->file = get_file(file);
		vma->pgoff = pgoff;
		vma->file_end = addr + len;
		if (file->f_op->mmap) {
			ret = file->f_op->mmap(file, vma);
			if (ret) {
				vma_free(vma);
				goto out;
			}
		} else {
			/* A private copy of the file: nothing past its end (SIGBUS on Linux, zeros here). */
			u64 size = (u64)file->f_inode->i_size;

			if (size <= pgoff * PAGE_SIZE)
				vma->file_end = addr;
			else if (size - pgoff * PAGE_SIZE < len)
				vma->file_end = addr + (size - pgoff * PAGE_SIZE);
		}
	}
	vma_link(mm, vma);
	ret = (long)addr;
	spin_unlock(&mm->lock);
	mm_notify_mmap(mm, vma);
	spin_lock(&mm->lock);
	/* Shared anonymous memory must be the same pages in every process that forks from here. */
	if ((vmflags & VM_SHARED) && !file) {
		spin_unlock(&mm->lock);
		if (replaced)
			tlb_flush_free(mm, addr, addr + len);
		for (unsigned long a = addr; a < addr + len; a += PAGE_SIZE)
			if (handle_mm_fault(mm, a, 0)) {
				do_munmap(mm, addr, len);
				return -ENOMEM;
			}
		return ret;
	}
out:
	spin_unlock(&mm->lock);
	/* What MAP_FIXED replaced must leave every TLB before its pages go. */
	if (replaced)
		tlb_flush_free(mm, addr, addr + len);
	return ret;
}

int do_munmap(struct mm_struct *mm, unsigned long addr, unsigned long len)
{
	int err;

	if ((addr & ~PAGE_MASK) || !len || addr >= TASK_SIZE || len > TASK_SIZE - addr)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	spin_lock(&mm->lock);
	err = unmap_range(mm, addr, addr + len);
	spin_unlock(&mm->lock);
	tlb_flush_free(mm, addr, addr + len);
	return err;
}

int do_mprotect(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot)
{
	unsigned long end;
	struct vm_area_struct *vma;
	int err;

	if ((addr & ~PAGE_MASK) || (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC)))
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = addr + len;
	if (end < addr || end > TASK_SIZE)
		return -ENOMEM;
	if (!len)
		return 0;
	spin_lock(&mm->lock);
	/* Every page of the range must be mapped. */
	err = -ENOMEM;
	for (unsigned long a = addr; a < end; a = vma->end) {
		vma = find_vma(mm, a);
		if (!vma || vma->start > a)
			goto out;
	}
	err = split_range(mm, addr, end);
	if (err)
		goto out;
	list_for_each_entry(vma, &mm->vmas, node) {
		if (vma->end <= addr || vma->start >= end)
			continue;
		if ((prot & PROT_WRITE) && (vma->flags & VM_SHARED) && vma->file &&
		    !(vma->file->f_mode & FMODE_WRITE)) {
			err = -EACCES;
			goto out;
		}
		vma->flags = (vma->flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | prot;
		change_protection(mm, vma, vma->start, vma->end);
	}
out:
	spin_unlock(&mm->lock);
	flush_tlb_mm_range(mm, addr, end);
	return err;
}

/* Moves the entries of [old, old + len) to new (the new range is empty). Caller holds lock. */
static int move_ptes(struct mm_struct *mm, unsigned long old, unsigned long new, unsigned long len)
{
	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		u64 *src = user_pte(mm->pgd, old + off, false), *dst;

		if (!src || !*src)
			continue;
		dst = user_pte(mm->pgd, new + off, true);
		if (!dst)
			return -ENOMEM;
		*dst = *src;
		*src = 0;
	}
	return 0;
}

long do_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
	       unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
	struct vm_area_struct *vma, *nv;
	long ret = -EINVAL;

	if ((addr & ~PAGE_MASK) || (flags & ~(unsigned long)(MREMAP_MAYMOVE | MREMAP_FIXED)) ||
	    ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE)))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (!new_len || !old_len)
		return -EINVAL;
	if (flags & MREMAP_FIXED)
		return -EINVAL;		/* not needed by the libcs Spoor runs */
	spin_lock(&mm->lock);
	vma = find_vma(mm, addr);
	ret = -EFAULT;
	if (!vma || vma->start > addr || addr + old_len > vma->end)
		goto out;
	if (new_len <= old_len) {
		ret = unmap_range(mm, addr + new_len, addr + old_len);
		if (!ret)
			ret = (long)addr;
		spin_unlock(&mm->lock);
		tlb_flush_free(mm, addr + new_len, addr + old_len);
		return ret;
	}
	/* Grow in place when the whole vma is the range and the space above is free. */
	if (vma->start == addr && vma->end == addr + old_len && addr + new_len <= TASK_SIZE &&
	    addr + new_len > addr && range_free(mm, vma->end, addr + new_len)) {
		mm->total_vm += (new_len - old_len) >> PAGE_SHIFT;
		vma->end = addr + new_len;
		ret = (long)addr;
		goto out;
	}
	ret = -ENOMEM;
	if (!(flags & MREMAP_MAYMOVE) || vma->start != addr || vma->end != addr + old_len ||
	    (vma->flags & VM_PFNMAP))
		goto out;
	new_addr = get_unmapped_area(mm, new_len);
	if (!new_addr)
		goto out;
	nv = vma_alloc(new_addr, new_addr + new_len, vma->flags);
	if (!nv)
		goto out;
	if (move_ptes(mm, addr, new_addr, old_len)) {
		kmem_cache_free(vm_area_cachep, nv);
		goto out;
	}
	nv->file = vma->file;
	nv->pgoff = vma->pgoff;
	nv->file_end = vma->file ? vma->file_end - addr + new_addr : 0;
	vma->file = NULL;
	vma_unlink(mm, vma);
	vma_free(vma);
	vma_link(mm, nv);
	ret = (long)new_addr;
	spin_unlock(&mm->lock);
	flush_tlb_mm_range(mm, addr, addr + old_len);
	return ret;
out:
	spin_unlock(&mm->lock);
	return ret;
}

int do_madvise_dontneed(struct mm_struct *mm, unsigned long addr, unsigned long len)
{
	struct vm_area_struct *vma;

	if (addr & ~PAGE_MASK)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	/* A range running past user space (or wrapping) is EINVAL, as Linux's. */
	if (len > TASK_SIZE || addr > TASK_SIZE - len)
		return -EINVAL;
	spin_lock(&mm->lock);
	list_for_each_entry(vma, &mm->vmas, node) {
		unsigned long s = vma->start > addr ? vma->start : addr;
		unsigned long e = vma->end < addr + len ? vma->end : addr + len;

		/* Private memory reads back as zeros (or the file) afterwards; shared memory is kept. */
		if (s < e && !(vma->flags & (VM_SHARED | VM_PFNMAP)))
			zap_range(mm, s, e);
	}
	spin_unlock(&mm->lock);
	tlb_flush_free(mm, addr, addr + len);
	return 0;
}

unsigned long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end = ALIGN_UP(brk, PAGE_SIZE);
	struct vm_area_struct *vma;

	if (brk < mm->start_brk || brk > TASK_SIZE)
		return mm->brk;
	spin_lock(&mm->lock);
	if (new_end < old_end) {
		unmap_range(mm, new_end, old_end);
		spin_unlock(&mm->lock);
		tlb_flush_free(mm, new_end, old_end);
		mm->brk = brk;
		return brk;
	}
	if (new_end > old_end) {
		if (!range_free(mm, old_end, new_end)) {
			spin_unlock(&mm->lock);
			return mm->brk;
		}
		vma = find_vma(mm, old_end - 1);
		if (vma && vma->end == old_end && (vma->flags & VM_HEAP)) {
			vma->end = new_end;
			mm->total_vm += (new_end - old_end) >> PAGE_SHIFT;
		} else {
			vma = vma_alloc(old_end, new_end, VM_READ | VM_WRITE | VM_HEAP);
			if (!vma) {
				spin_unlock(&mm->lock);
				return mm->brk;
			}
			vma_link(mm, vma);
		}
	}
	spin_unlock(&mm->lock);
	mm->brk = brk;
	return brk;
}
