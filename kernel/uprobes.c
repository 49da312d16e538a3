/*
 * Uprobes (see kernel/uprobes.h): the probes, their breakpoints in the
 * processes that map their files, and the hits.
 *
 * Registration writes the breakpoint into every process's page of the
 * file that is already there; a page read in afterwards gets it from
 * uprobe_fill_page, under the same mm->lock, so no page is missed: the
 * probe is on the list before the walk starts. Removal drops the last
 * consumer first (pages read in get no breakpoint from then on), puts
 * the original byte back wherever an int3 of ours is, and only then takes
 * the probe off the list (a thread that hit it meanwhile still finds it
 * and runs the instruction; one that finds none sees the original byte
 * and re-runs it), then waits out running handlers (synchronize_rcu: hits
 * look up and run with preemption off).
 *
 * A uretprobe's return: the hit swaps the return address at the stack
 * pointer for the trampoline and keeps it, newest first, on the task
 * (a return_instance); the trampoline's #BP pops it, runs the return
 * handlers and resumes at the real return address. Frames a longjmp
 * skipped are dropped by their stack address.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/mutex.h>
#include <kernel/spinlock.h>
#include <kernel/preempt.h>
#include <kernel/rcu.h>
#include <kernel/irqflags.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/fs/fs.h>
#include <kernel/uprobes.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>

#define INT3_OPCODE		0xcc
#define URETPROBE_DEPTH		64	/* returns kept per task, as Linux's MAX_URETPROBE_DEPTH */

struct uprobe {
	struct uprobe *next;			/* uprobes_list (RCU) */
	struct inode *inode;
	struct file *file;			/* referenced: the inode stays */
	loff_t offset, ref_ctr_offset;
	struct uprobe_consumer *consumers;	/* RCU; NULL once unregistered */
	int ref;				/* the list's and pending returns' */
	struct arch_uprobe arch;
};

/* One hijacked return of a task. */
struct return_instance {
	struct uprobe *uprobe;
	struct mm_struct *mm;			/* whose stack: an exec leaves it behind */
	unsigned long func, orig_ret, stack;	/* stack: where the return address was */
	struct return_instance *next;		/* older */
};

struct uprobe_task {
	struct return_instance *returns;
	unsigned int depth;
};

static DEFINE_MUTEX(uprobes_mutex);
static struct uprobe *uprobes_list;
int uprobes_nr_active;

/* The probe at (inode, offset): under rcu (preemption off) or uprobes_mutex. */
static struct uprobe *uprobe_find(struct inode *inode, loff_t offset)
{
	for (struct uprobe *u = rcu_dereference(uprobes_list); u; u = rcu_dereference(u->next))
		if (u->inode == inode && u->offset == offset)
			return u;
	return NULL;
}

static void put_uprobe(struct uprobe *u)
{
	if (__atomic_sub_fetch(&u->ref, 1, __ATOMIC_ACQ_REL))
		return;
	fput(u->file);
	kfree(u);
}

/* --- breakpoints in address spaces -------------------------------------------------------- */

static bool set_int3(u8 *kaddr, void *arg)
{
	const struct uprobe *u = arg;

	if (*kaddr != u->arch.insn[0])
		return false;		/* already ours, or not the file's instruction */
	*kaddr = INT3_OPCODE;
	return true;
}

static bool clear_int3(u8 *kaddr, void *arg)
{
	const struct uprobe *u = arg;

	if (*kaddr != INT3_OPCODE)
		return false;
	*kaddr = u->arch.insn[0];
	return true;
}

static bool ref_ctr_inc(u8 *kaddr, void *arg)
{
	u16 v;

	memcpy(&v, kaddr, sizeof(v));
	v++;
	memcpy(kaddr, &v, sizeof(v));
	return true;
}

static bool ref_ctr_dec(u8 *kaddr, void *arg)
{
	u16 v;

	memcpy(&v, kaddr, sizeof(v));
	if (v)
		v--;
	memcpy(kaddr, &v, sizeof(v));
	return true;
}

/* Where vma maps byte off of its file, or 0. Breakpoints go in private, read-only text. */
static unsigned long vma_offset_addr(const struct vm_area_struct *vma, const struct inode *inode,
				     loff_t off, bool text)
{
	loff_t start = (loff_t)vma->pgoff * PAGE_SIZE;

	if (!vma->file || vma->file->f_inode != inode || (vma->flags & VM_SHARED) ||
	    off < start || off >= start + (loff_t)(vma->end - vma->start))
		return 0;
	if (text ? (vma->flags & (VM_EXEC | VM_WRITE)) != VM_EXEC : !(vma->flags & VM_WRITE))
		return 0;
	return vma->start + (unsigned long)(off - start);
}

void uprobe_fill_page(struct vm_area_struct *vma, unsigned long addr, void *kaddr)
{
	unsigned long end = addr + PAGE_SIZE;

	preempt_disable();
	for (struct uprobe *u = rcu_dereference(uprobes_list); u; u = rcu_dereference(u->next)) {
		unsigned long at = vma_offset_addr(vma, vma->file->f_inode, u->offset, true);
		unsigned long ctr = u->ref_ctr_offset ?
			vma_offset_addr(vma, vma->file->f_inode, u->ref_ctr_offset, false) : 0;

		if (!rcu_dereference(u->consumers))
			continue;		/* being unregistered */
		if (at >= addr && at < end)
			set_int3((u8 *)kaddr + (at - addr), u);
		if (ctr >= addr && ctr + 2 <= end)
			ref_ctr_inc((u8 *)kaddr + (ctr - addr), u);
	}
	preempt_enable();
}

static unsigned int count_tasks(void)
{
	struct task_struct *t;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(t, &task_list, tasks)
		n++;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return n;
}

/* Up to max address spaces in use, referenced (mmput each); returns how many. */
static unsigned int collect_mms(struct mm_struct **mms, unsigned int max)
{
	struct task_struct *t;
	unsigned long flags;
	unsigned int n = 0, i;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(t, &task_list, tasks) {
		struct mm_struct *mm = READ_ONCE(t->mm);

		if (!mm || n == max)
			continue;
		for (i = 0; i < n && mms[i] != mm; i++)
			;
		if (i == n && mmget_not_zero(mm))
			mms[n++] = mm;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return n;
}

/* Put in (or take out) u's breakpoint, and its counter if ctr, in mm's present pages. */
static void patch_mm(struct uprobe *u, struct mm_struct *mm, bool install, bool ctr)
{
	unsigned long at[8], cat[8];
	unsigned int na = 0, nc = 0;
	struct vm_area_struct *vma;

	spin_lock(&mm->lock);
	list_for_each_entry(vma, &mm->vmas, node) {
		unsigned long a = vma_offset_addr(vma, u->inode, u->offset, true);
		unsigned long c = ctr && u->ref_ctr_offset ?
			vma_offset_addr(vma, u->inode, u->ref_ctr_offset, false) : 0;

		if (a && na < ARRAY_SIZE(at))
			at[na++] = a;
		if (c && nc < ARRAY_SIZE(cat))
			cat[nc++] = c;
	}
	spin_unlock(&mm->lock);
	for (unsigned int k = 0; k < na; k++)
		patch_user_page(mm, at[k], true, install ? set_int3 : clear_int3, u);
	for (unsigned int k = 0; k < nc; k++)
		patch_user_page(mm, cat[k], true, install ? ref_ctr_inc : ref_ctr_dec, u);
}

#define UPROBE_WALK_PASSES	4

/*
 * u's breakpoint (and counter) in, or out of, every process. A process
 * forked while the walk runs may have copied its parent's page before the
 * parent was patched: passes go on while new address spaces appear, each
 * patched once (kept referenced meanwhile, so none is taken for another).
 * Only the first pass moves counters: a child copies its parent's.
 */
static void uprobe_walk(struct uprobe *u, bool install)
{
	/* room for the tasks that fork while it is allocated, too */
	unsigned int max = count_tasks() + 64, n, ndone = 0, fresh = 1;
	struct mm_struct **mms = kmalloc(2 * max * sizeof(*mms), GFP_KERNEL), **done;

	if (!mms)
		return;
	done = mms + max;
	for (int pass = 0; fresh && pass < UPROBE_WALK_PASSES; pass++) {
		n = collect_mms(mms, max);
		fresh = 0;
		for (unsigned int i = 0; i < n; i++) {
			unsigned int k;

			for (k = 0; k < ndone && done[k] != mms[i]; k++)
				;
			if (k < ndone) {
				mmput(mms[i]);
				continue;
			}
			patch_mm(u, mms[i], install, !pass);
			fresh++;
			if (ndone < max)
				done[ndone++] = mms[i];
			else
				mmput(mms[i]);	/* too many to track: patched again if seen again */
		}
	}
	for (unsigned int k = 0; k < ndone; k++)
		mmput(done[k]);
	kfree(mms);
}

/* --- address spaces ---------------------------------------------------------------------- */

static void uprobes_mm_fork(struct mm_struct *old, struct mm_struct *new)
{
	uprobes_state_dup(old, new);
}

static struct mm_callbacks uprobes_mm_callbacks = {
	.fork = uprobes_mm_fork,
	.release = uprobes_state_release,
};

/* --- registration ---------------------------------------------------------------------------- */

static struct uprobe *uprobe_new(struct file *file, loff_t offset, loff_t ref_ctr_offset)
{
	struct inode *inode = file->f_inode;
	struct uprobe *u;
	loff_t pos = offset;
	ssize_t n;

	if (offset < 0 || offset >= inode->i_size || ref_ctr_offset < 0 || (ref_ctr_offset & 1) ||
	    ref_ctr_offset + 2 > inode->i_size)
		return ERR_PTR(-EINVAL);
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	n = vfs_read(file, (char *)u->arch.insn, sizeof(u->arch.insn), &pos);
	if (n <= 0 || arch_uprobe_analyze_insn(&u->arch)) {
		kfree(u);
		return ERR_PTR(n < 0 ? (int)n : -EOPNOTSUPP);
	}
	u->file = get_file(file);
	u->ref = 1;
	u->inode = inode;
	u->offset = offset;
	u->ref_ctr_offset = ref_ctr_offset;
	return u;
}

struct uprobe *uprobe_register(struct file *file, loff_t offset, loff_t ref_ctr_offset,
			       struct uprobe_consumer *uc)
{
	struct uprobe *u;

	static bool mm_hooked;

	mutex_lock(&uprobes_mutex);
	if (!mm_hooked) {
		/* the out-of-line pages follow their address spaces (fork, exit) */
		register_mm_callbacks(&uprobes_mm_callbacks);
		mm_hooked = true;
	}
	u = uprobe_find(file->f_inode, offset);
	if (u) {
		if (u->ref_ctr_offset != ref_ctr_offset) {
			mutex_unlock(&uprobes_mutex);
			return ERR_PTR(-EINVAL);
		}
		uc->next = u->consumers;
		rcu_assign_pointer(u->consumers, uc);
		mutex_unlock(&uprobes_mutex);
		return u;
	}
	u = uprobe_new(file, offset, ref_ctr_offset);
	if (IS_ERR(u)) {
		mutex_unlock(&uprobes_mutex);
		return u;
	}
	uc->next = NULL;
	u->consumers = uc;
	u->next = uprobes_list;
	rcu_assign_pointer(uprobes_list, u);
	__atomic_add_fetch(&uprobes_nr_active, 1, __ATOMIC_RELAXED);
	uprobe_walk(u, true);
	mutex_unlock(&uprobes_mutex);
	return u;
}

void uprobe_unregister(struct uprobe *u, struct uprobe_consumer *uc)
{
	struct uprobe_consumer **pc;
	struct uprobe **pu;

	mutex_lock(&uprobes_mutex);
	for (pc = &u->consumers; *pc && *pc != uc; pc = &(*pc)->next)
		;
	if (*pc)
		WRITE_ONCE(*pc, uc->next);
	if (u->consumers) {
		mutex_unlock(&uprobes_mutex);
		synchronize_rcu();
		return;
	}
	/*
	 * The breakpoints go while u is still found: a thread hitting one
	 * meanwhile runs the instruction (no consumers, no handlers) rather
	 * than taking an int3 nobody claims. Pages read in from now on get
	 * none (uprobe_fill_page skips a probe without consumers).
	 */
	uprobe_walk(u, false);
	for (pu = &uprobes_list; *pu != u; pu = &(*pu)->next)
		;
	WRITE_ONCE(*pu, u->next);
	__atomic_sub_fetch(&uprobes_nr_active, 1, __ATOMIC_RELAXED);
	mutex_unlock(&uprobes_mutex);
	synchronize_rcu();
	/* a pending uretprobe return may still hold u: its task finds no consumers */
	put_uprobe(u);
}

/* --- hits --------------------------------------------------------------------------------- */

static struct uprobe_task *get_utask(struct task_struct *t)
{
	if (!t->utask)
		t->utask = kzalloc(sizeof(*t->utask), GFP_KERNEL);
	return t->utask;
}

/* Swap the return address at the stack pointer for the trampoline (u's consumers want it). */
static void prepare_uretprobe(struct uprobe *u, unsigned long func, struct pt_regs *regs)
{
	struct uprobe_task *ut = get_utask(current);
	unsigned long tramp, orig;
	struct return_instance *ri;

	if (!ut || ut->depth >= URETPROBE_DEPTH)
		return;
	tramp = uprobe_trampoline_vaddr(current->mm, func);
	if (!tramp || get_user(orig, (unsigned long *)regs->rsp))
		return;
	/* a recursive hit on the trampoline itself keeps the return it already has */
	if (orig == tramp)
		return;
	ri = kmalloc(sizeof(*ri), GFP_KERNEL);
	if (!ri)
		return;
	if (put_user(tramp, (unsigned long *)regs->rsp)) {
		kfree(ri);
		return;
	}
	__atomic_add_fetch(&u->ref, 1, __ATOMIC_RELAXED);
	*ri = (struct return_instance){ .uprobe = u, .mm = current->mm, .func = func,
					.orig_ret = orig, .stack = regs->rsp, .next = ut->returns };
	ut->returns = ri;
	ut->depth++;
}

/* The trampoline's #BP: the newest return of this stack frame, its handlers, the way back. */
static void handle_trampoline(struct pt_regs *regs)
{
	struct uprobe_task *ut = current->utask;
	struct return_instance *ri;
	unsigned long ret_slot = regs->rsp - 8;	/* where the return address was popped from */

	while (ut && (ri = ut->returns)) {
		bool mine = ri->mm == current->mm && ri->stack == ret_slot;
		bool skipped = ri->mm != current->mm || ri->stack < ret_slot;

		if (!mine && !skipped)
			break;
		if (mine) {
			regs->rip = ri->orig_ret;
			preempt_disable();
			for (struct uprobe_consumer *uc = rcu_dereference(ri->uprobe->consumers); uc;
			     uc = rcu_dereference(uc->next))
				if (uc->ret_handler)
					uc->ret_handler(uc, ri->func, regs);
			preempt_enable();
		}
		ut->returns = ri->next;
		ut->depth--;
		put_uprobe(ri->uprobe);
		kfree(ri);
		if (mine)
			return;
	}
	/* no return of ours here: the process jumped to the page by itself */
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
}

bool uprobe_int3_handler(struct pt_regs *regs)
{
	struct mm_struct *mm = current->mm;
	unsigned long bp = regs->rip - 1;
	struct vm_area_struct *vma;
	struct arch_uprobe au;
	struct uprobe *u = NULL;
	bool want_ret = false;
	u8 byte;

	if (!mm)
		return false;
	local_irq_enable();
	if (uprobe_is_trampoline(mm, bp)) {
		handle_trampoline(regs);
		return true;
	}
	preempt_disable();
	spin_lock(&mm->lock);
	vma = find_vma(mm, bp);
	if (uprobes_active() && vma && vma->start <= bp && vma->file)
		u = uprobe_find(vma->file->f_inode,
				(loff_t)vma->pgoff * PAGE_SIZE + (loff_t)(bp - vma->start));
	spin_unlock(&mm->lock);
	if (!u) {
		preempt_enable();
		/* removed meanwhile: the original instruction is back, run it */
		if (!get_user(byte, (u8 *)bp) && byte != INT3_OPCODE) {
			regs->rip = bp;
			return true;
		}
		return false;
	}
	regs->rip = bp;
	for (struct uprobe_consumer *uc = rcu_dereference(u->consumers); uc;
	     uc = rcu_dereference(uc->next)) {
		if (uc->handler)
			uc->handler(uc, regs, bp);
		want_ret |= uc->ret_handler != NULL;
	}
	au = u->arch;
	preempt_enable();
	if (want_ret)
		prepare_uretprobe(u, bp, regs);
	if (arch_uprobe_run_insn(&au, bp, regs))
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return true;
}

/* --- tasks --------------------------------------------------------------------------------- */

int uprobe_copy_process(struct task_struct *child, struct task_struct *parent)
{
	struct uprobe_task *ut = parent->utask, *cut;
	struct return_instance **tail;

	child->utask = NULL;
	if (!ut || !ut->returns)
		return 0;
	cut = get_utask(child);
	if (!cut)
		return -ENOMEM;
	/* the child's stack is a copy of the parent's: its hijacked returns too */
	tail = &cut->returns;
	for (struct return_instance *ri = ut->returns; ri; ri = ri->next) {
		struct return_instance *c = kmalloc(sizeof(*c), GFP_KERNEL);

		if (!c)
			return -ENOMEM;
		*c = *ri;
		__atomic_add_fetch(&c->uprobe->ref, 1, __ATOMIC_RELAXED);
		c->mm = child->mm;
		c->next = NULL;
		*tail = c;
		tail = &c->next;
		cut->depth++;
	}
	return 0;
}

void uprobe_free_utask(struct task_struct *t)
{
	struct uprobe_task *ut = t->utask;

	if (!ut)
		return;
	while (ut->returns) {
		struct return_instance *ri = ut->returns;

		ut->returns = ri->next;
		put_uprobe(ri->uprobe);
		kfree(ri);
	}
	kfree(ut);
	t->utask = NULL;
}

