/*
 * Address-space lifetimes. mm_users: the tasks running in it; when the
 * last leaves, every vma and user page table goes. mm_count: references
 * to the structure and its top-level table, one for all users together
 * plus one per CPU that still has the table in CR3 (arch_switch_to).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/stacktrace.h>
#include <kernel/mman.h>
#include <kernel/fs/fs.h>
#include <asm/page.h>

static struct mm_callbacks *mm_callbacks_list;

void register_mm_callbacks(struct mm_callbacks *cb)
{
	cb->next = mm_callbacks_list;
	__atomic_store_n(&mm_callbacks_list, cb, __ATOMIC_RELEASE);
}

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kmem_cache_zalloc(mm_cachep, GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->pgd = pgd_alloc();
	if (!mm->pgd) {
		kmem_cache_free(mm_cachep, mm);
		return NULL;
	}
	pgtable_account(1);
	mm->mm_users = 1;
	mm->mm_count = 1;
	spin_lock_init(&mm->lock);
	INIT_LIST_HEAD(&mm->vmas);
	INIT_LIST_HEAD(&mm->zapped);
	INIT_LIST_HEAD(&mm->dead_vmas);
	mm->mmap_base = MMAP_BASE;
	return mm;
}

void mmget(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->mm_users, 1, __ATOMIC_RELAXED);
}

bool mmget_not_zero(struct mm_struct *mm)
{
	int users = __atomic_load_n(&mm->mm_users, __ATOMIC_RELAXED);

	while (users)
		if (__atomic_compare_exchange_n(&mm->mm_users, &users, users + 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	return false;
}

void mmgrab(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->mm_count, 1, __ATOMIC_RELAXED);
}

void mmdrop(struct mm_struct *mm)
{
	if (__atomic_sub_fetch(&mm->mm_count, 1, __ATOMIC_ACQ_REL))
		return;
	if (READ_ONCE(mm->mm_users)) {
		pr_err("mm: last mmdrop of %p with %d users\n", mm, READ_ONCE(mm->mm_users));
		dump_stack();
	}
	pgd_free(mm->pgd);
	pgtable_account(-1);
	kmem_cache_free(mm_cachep, mm);
}

/* Everything in the lower half goes: pages, vmas, tables. */
static void exit_mmap(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *n;

	spin_lock(&mm->lock);
	list_for_each_entry_safe(vma, n, &mm->vmas, node) {
		zap_range(mm, vma->start, vma->end);
		list_del(&vma->node);
		list_add_tail(&vma->node, &mm->dead_vmas);
	}
	mm->nr_vmas = 0;
	mm->total_vm = 0;
	user_pgtables_free(mm->pgd, &mm->zapped);	/* freed after the flush below */
	spin_unlock(&mm->lock);
	tlb_flush_free(mm, 0, TASK_SIZE);
}

void mmput(struct mm_struct *mm)
{
	int users = __atomic_sub_fetch(&mm->mm_users, 1, __ATOMIC_ACQ_REL);

	if (users < 0 || READ_ONCE(mm->mm_count) <= 0) {
		pr_err("mm: mmput of %p: %d users, count %d\n", mm, users, READ_ONCE(mm->mm_count));
		dump_stack();
	}
	if (users)
		return;
	for (struct mm_callbacks *cb = mm_callbacks_list; cb; cb = cb->next)
		if (cb->release)
			cb->release(mm);
	exit_mmap(mm);
	oom_mm_released(mm);
	mmdrop(mm);
}

struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma, *nv;
	int err = 0;

	if (!mm)
		return NULL;
	spin_lock(&old->lock);
	mm->start_code = old->start_code;
	mm->end_code = old->end_code;
	mm->start_data = old->start_data;
	mm->end_data = old->end_data;
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	mm->start_stack = old->start_stack;
	mm->arg_start = old->arg_start;
	mm->arg_end = old->arg_end;
	mm->env_start = old->env_start;
	mm->env_end = old->env_end;
	mm->mmap_base = old->mmap_base;
	memcpy(mm->exe_path, old->exe_path, sizeof(mm->exe_path));
	list_for_each_entry(vma, &old->vmas, node) {
		if (vma->flags & VM_DONTCOPY)
			continue;
		nv = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
		if (!nv) {
			err = -ENOMEM;
			break;
		}
		*nv = *vma;
		if (nv->file)
			get_file(nv->file);
		if (nv->vm_ops && nv->vm_ops->open)
			nv->vm_ops->open(nv);
		list_add_tail(&nv->node, &mm->vmas);
		mm->nr_vmas++;
		mm->total_vm += (nv->end - nv->start) >> PAGE_SHIFT;
		err = copy_vma_pages(mm, old, vma);
		if (err)
			break;
	}
	spin_unlock(&old->lock);
	/* The parent's writable pages just became read-only: its TLBs must forget the old rights. */
	flush_tlb_mm_range(old, 0, TASK_SIZE);
	if (err) {
		mmput(mm);
		return NULL;
	}
	for (struct mm_callbacks *cb = mm_callbacks_list; cb; cb = cb->next)
		if (cb->fork)
			cb->fork(old, mm);
	return mm;
}

void mm_notify_mmap(struct mm_struct *mm, struct vm_area_struct *vma)
{
	for (struct mm_callbacks *cb = mm_callbacks_list; cb; cb = cb->next)
		if (cb->mmap)
			cb->mmap(mm, vma);
}
