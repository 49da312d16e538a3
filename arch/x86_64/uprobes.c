/*
 * Uprobes on x86-64 (see kernel/uprobes.h): how the displaced instruction
 * runs once a hit's handlers have, and the out-of-line pages it runs in.
 *
 * Relative jumps, jccs, calls and ret are emulated on the user
 * registers. Any other instruction runs from a slot of an out-of-line
 * page the kernel maps into the process (`[uprobes]` in its maps, as
 * Linux's): a copy of it (a RIP-relative displacement rebased for the
 * slot) followed by an absolute jmp back past the original, so the
 * process runs it in ring 3 without single-stepping and without coming
 * back into the kernel. An indirect call from a slot pushes the slot's
 * return address: the callee returns into the slot's jmp back. The page
 * is mapped within reach of a rel32 of the probed code (below the file's
 * mappings) so rebased displacements fit.
 *
 * A slot belongs to one address and instruction for the life of the
 * address space: a thread preempted in a slot must find it unchanged, so
 * slots are never reused, as kprobes' are not. Slot 0 of the first page
 * is the uretprobe trampoline, an int3.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/mutex.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/sched.h>
#include <kernel/uprobes.h>
#include <asm/ptrace.h>
#include <asm/insn.h>
#include <asm/uaccess.h>

#define XOL_SLOT_SIZE	32
#define XOL_SLOTS	(PAGE_SIZE / XOL_SLOT_SIZE)
#define XOL_REACH	0x7fff0000L	/* a rel32's reach, less a margin for the page */
#define INT3_OPCODE	0xcc

enum { UPROBE_RUN_XOL, UPROBE_RUN_JMP, UPROBE_RUN_JCC, UPROBE_RUN_RET, UPROBE_RUN_CALL };

/* One out-of-line page of a process. */
struct xol_area {
	unsigned long vaddr;
	unsigned int used;			/* slots handed out */
	unsigned long slot_for[XOL_SLOTS];	/* the probed address each slot runs */
	u8 slot_insn[XOL_SLOTS][16];		/* and its instruction, as the file had it */
	struct xol_area *next;
};

/* A process's out-of-line pages (mm->uprobes), the first holding the trampoline. */
struct uprobes_state {
	struct mutex lock;
	struct xol_area *areas;
};

int arch_uprobe_analyze_insn(struct arch_uprobe *au)
{
	struct insn insn;
	u8 op;

	if (insn_decode(&insn, au->insn, sizeof(au->insn)) < 0)
		return -EOPNOTSUPP;
	op = au->insn[insn.opcode_off];
	/* a breakpoint of the program's own, and rel8 loops a slot cannot rebase */
	if (op == INT3_OPCODE || (op >= 0xe0 && op <= 0xe3))
		return -EOPNOTSUPP;
	au->len = insn.len;
	au->disp_off = insn.disp_off;
	au->cond = insn.cond;
	au->rel = insn.rel;
	switch (insn.flow) {
	case INSN_FLOW_JMP: au->kind = UPROBE_RUN_JMP; break;
	case INSN_FLOW_JCC: au->kind = UPROBE_RUN_JCC; break;
	case INSN_FLOW_RET: au->kind = UPROBE_RUN_RET; break;
	default:
		au->kind = UPROBE_RUN_XOL;
		if (op == 0xe8 && insn.opcode_off + 5 == insn.len) {
			memcpy(&au->rel, au->insn + insn.opcode_off + 1, 4);
			au->kind = UPROBE_RUN_CALL;
		}
		break;
	}
	return 0;
}

static struct uprobes_state *state_get(struct mm_struct *mm)
{
	struct uprobes_state *st = __atomic_load_n(&mm->uprobes, __ATOMIC_ACQUIRE), *none = NULL;

	if (st)
		return st;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return NULL;
	mutex_init(&st->lock);
	if (!__atomic_compare_exchange_n(&mm->uprobes, &none, st, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		kfree(st);
		st = none;
	}
	return st;
}

static bool reaches(unsigned long a, unsigned long b)
{
	long d = (long)(a - b);

	return d < XOL_REACH && d > -XOL_REACH;
}

struct slot_write {
	const u8 *bytes;
	unsigned int len;
};

static bool write_slot(u8 *kaddr, void *arg)
{
	const struct slot_write *w = arg;

	memcpy(kaddr, w->bytes, w->len);
	return true;
}

/*
 * A new out-of-line page within reach of near: below the run of mappings
 * holding near (the file's), else wherever mmap puts it. Holds st->lock.
 */
static struct xol_area *xol_add_area(struct mm_struct *mm, struct uprobes_state *st,
				     unsigned long near)
{
	static const u8 trampoline[] = { INT3_OPCODE };
	struct slot_write w = { trampoline, sizeof(trampoline) };
	struct vm_area_struct *vma;
	unsigned long hint = 0;
	struct xol_area *a;
	long addr;

	spin_lock(&mm->lock);
	vma = find_vma(mm, near);
	if (vma && vma->start <= near) {
		while (vma->node.prev != &mm->vmas &&
		       list_entry(vma->node.prev, struct vm_area_struct, node)->end == vma->start)
			vma = list_entry(vma->node.prev, struct vm_area_struct, node);
		hint = vma->start - PAGE_SIZE;
	}
	spin_unlock(&mm->lock);
	addr = do_mmap(mm, hint, PAGE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		       NULL, 0);
	if (addr < 0)
		return NULL;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a || !reaches((unsigned long)addr, near) ||
	    patch_user_page(mm, (unsigned long)addr, false, write_slot, &w) != 1) {
		kfree(a);
		do_munmap(mm, (unsigned long)addr, PAGE_SIZE);
		return NULL;
	}
	spin_lock(&mm->lock);
	vma = find_vma(mm, (unsigned long)addr);
	if (vma)
		vma->flags |= VM_UPROBES;
	spin_unlock(&mm->lock);
	a->vaddr = (unsigned long)addr;
	a->used = 1;			/* slot 0: the trampoline, in every page alike */
	a->next = st->areas;
	st->areas = a;
	return a;
}

unsigned long uprobe_trampoline_vaddr(struct mm_struct *mm, unsigned long near)
{
	struct uprobes_state *st = state_get(mm);
	struct xol_area *a;

	if (!st)
		return 0;
	mutex_lock(&st->lock);
	a = st->areas;
	if (!a)
		a = xol_add_area(mm, st, near);
	mutex_unlock(&st->lock);
	return a ? a->vaddr : 0;
}

bool uprobe_is_trampoline(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobes_state *st = __atomic_load_n(&mm->uprobes, __ATOMIC_ACQUIRE);

	/* the areas list only grows, at its head: a racing reader sees a consistent prefix */
	for (struct xol_area *a = st ? __atomic_load_n(&st->areas, __ATOMIC_ACQUIRE) : NULL; a;
	     a = a->next)
		if (vaddr == a->vaddr)
			return true;
	return false;
}

/* The slot running au's copy for vaddr, made if need be; 0 if none can be. */
static unsigned long xol_slot(struct mm_struct *mm, const struct arch_uprobe *au,
			      unsigned long vaddr)
{
	struct uprobes_state *st = state_get(mm);
	struct xol_area *a;
	unsigned long slot = 0;
	unsigned int i;
	u8 code[XOL_SLOT_SIZE];
	struct slot_write w = { code, au->len + 14u };

	if (!st)
		return 0;
	mutex_lock(&st->lock);
	for (a = st->areas; a; a = a->next)
		for (i = 1; i < a->used; i++)
			if (a->slot_for[i] == vaddr && !memcmp(a->slot_insn[i], au->insn, 16)) {
				slot = a->vaddr + i * XOL_SLOT_SIZE;
				goto out;
			}
	for (a = st->areas; a; a = a->next)
		if (a->used < XOL_SLOTS && reaches(a->vaddr, vaddr))
			break;
	if (!a)
		a = xol_add_area(mm, st, vaddr);
	if (!a)
		goto out;
	i = a->used;
	slot = a->vaddr + i * XOL_SLOT_SIZE;
	memcpy(code, au->insn, au->len);
	if (au->disp_off >= 0) {
		/* the operand the original addressed: target - (slot + len) */
		s32 disp;
		long nd;

		memcpy(&disp, code + au->disp_off, 4);
		nd = (long)disp + (long)(vaddr - slot);
		if (nd != (s32)nd) {
			slot = 0;
			goto out;
		}
		disp = (s32)nd;
		memcpy(code + au->disp_off, &disp, 4);
	}
	/* jmp *0(%rip); .quad vaddr + len */
	{
		static const u8 jmp_abs[] = { 0xff, 0x25, 0, 0, 0, 0 };
		unsigned long back = vaddr + au->len;

		memcpy(code + au->len, jmp_abs, sizeof(jmp_abs));
		memcpy(code + au->len + sizeof(jmp_abs), &back, sizeof(back));
	}
	if (patch_user_page(mm, slot, false, write_slot, &w) != 1) {
		slot = 0;
		goto out;
	}
	a->slot_for[i] = vaddr;
	memcpy(a->slot_insn[i], au->insn, 16);
	a->used++;
out:
	mutex_unlock(&st->lock);
	return slot;
}

int arch_uprobe_run_insn(const struct arch_uprobe *au, unsigned long vaddr, struct pt_regs *regs)
{
	unsigned long next = vaddr + au->len, slot;

	switch (au->kind) {
	case UPROBE_RUN_JMP:
		regs->rip = next + (unsigned long)(long)au->rel;
		return 0;
	case UPROBE_RUN_JCC:
		regs->rip = insn_cond_taken(au->cond, regs->rflags)
				    ? next + (unsigned long)(long)au->rel : next;
		return 0;
	case UPROBE_RUN_RET:
		if (get_user(regs->rip, (unsigned long *)regs->rsp))
			return -EFAULT;
		regs->rsp += 8;
		return 0;
	case UPROBE_RUN_CALL:
		if (put_user(next, (unsigned long *)(regs->rsp - 8)))
			return -EFAULT;
		regs->rsp -= 8;
		regs->rip = next + (unsigned long)(long)au->rel;
		return 0;
	default:
		slot = xol_slot(current->mm, au, vaddr);
		if (!slot)
			return -ENOMEM;
		regs->rip = slot;
		return 0;
	}
}

void uprobes_state_release(struct mm_struct *mm)
{
	struct uprobes_state *st = mm->uprobes;

	if (!st)
		return;
	while (st->areas) {
		struct xol_area *a = st->areas;

		st->areas = a->next;
		kfree(a);
	}
	kfree(st);
	mm->uprobes = NULL;
}

int uprobes_state_dup(struct mm_struct *old, struct mm_struct *new)
{
	struct uprobes_state *st = old->uprobes, *nst;
	struct xol_area **tail;

	new->uprobes = NULL;
	if (!st)
		return 0;
	nst = state_get(new);
	if (!nst)
		return -ENOMEM;
	/* the child has the parent's pages (fork copied the vmas): the same slots */
	mutex_lock(&st->lock);
	tail = &nst->areas;
	for (struct xol_area *a = st->areas; a; a = a->next) {
		struct xol_area *c = kmalloc(sizeof(*c), GFP_KERNEL);

		if (!c)
			break;
		memcpy(c, a, sizeof(*c));
		c->next = NULL;
		*tail = c;
		tail = &c->next;
	}
	mutex_unlock(&st->lock);
	return 0;
}
