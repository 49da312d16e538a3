/*
 * Uprobes: a handler run when a process reaches an instruction of a file
 * it maps executable, by an int3 written over the instruction's first
 * byte in every process mapping it (Linux's include/linux/uprobes.h).
 *
 * A uprobe is an (inode, offset) pair. While it has consumers its
 * breakpoint sits in each process's private copy of that page: written
 * at registration into pages already there, and into pages read in later
 * (a process that execs or mmaps the file afterwards: kernel/mm/memory.c
 * asks uprobe_fill_page). The file itself, and processes not mapping it,
 * never see it. A hit runs the consumers' handlers with the user
 * registers (rip the probed address), then the displaced instruction:
 * branches emulated, anything else from a slot in the process's
 * out-of-line page (arch/x86_64/uprobes.c). A consumer with ret_handler
 * also sees the function's return: the return address on the stack is
 * swapped for the out-of-line page's trampoline.
 */
#ifndef KERNEL_UPROBES_H
#define KERNEL_UPROBES_H

#include <kernel/types.h>

struct inode;
struct file;
struct pt_regs;
struct mm_struct;
struct task_struct;
struct vm_area_struct;
struct uprobe;

struct uprobe_consumer {
	/* At the probed instruction, before it runs; regs->rip is its address. */
	void (*handler)(struct uprobe_consumer *self, struct pt_regs *regs, unsigned long vaddr);
	/* At the return of the function the hit entered: func its address, regs->rip the caller's. */
	void (*ret_handler)(struct uprobe_consumer *self, unsigned long func,
			    struct pt_regs *regs);
	struct uprobe_consumer *next;	/* private: the uprobe's consumers */
};

/*
 * Adds uc at offset of the file (opened for reading). -EINVAL: offset
 * beyond the file, or a ref_ctr_offset other than the one an existing
 * consumer of that place gave; -EOPNOTSUPP: an instruction a probe cannot
 * displace (int3, loop/jrcxz); -ENOMEM. ref_ctr_offset (0: none) is the
 * file offset of a u16 counter (an SDT semaphore) each probed process
 * sees incremented while the probe is in. Sleeps.
 */
struct uprobe *uprobe_register(struct file *file, s64 offset, s64 ref_ctr_offset,
			       struct uprobe_consumer *uc);
/* Removes uc; once it returns no handler of uc runs any more. Sleeps. */
void uprobe_unregister(struct uprobe *u, struct uprobe_consumer *uc);

/* Is any uprobe registered (the page-fault path asks before uprobe_fill_page)? */
extern int uprobes_nr_active;
static inline bool uprobes_active(void)
{
	return __atomic_load_n(&uprobes_nr_active, __ATOMIC_RELAXED) != 0;
}
/* A page at addr of vma was just read from its file into kaddr: put the breakpoints in. */
void uprobe_fill_page(struct vm_area_struct *vma, unsigned long addr, void *kaddr);

/* A user-mode #BP (traps.c): true if it was a uprobe's (or its trampoline's). */
bool uprobe_int3_handler(struct pt_regs *regs);
/* fork: the child's copy of the parent's uretprobe returns (its stack holds them). */
int uprobe_copy_process(struct task_struct *child, struct task_struct *parent);
/* exit: what the task kept. */
void uprobe_free_utask(struct task_struct *t);

/* --- the arch part (arch/x86_64/uprobes.c) ----------------------------------------------- */

/* How a probed instruction runs once its handlers have. */
struct arch_uprobe {
	u8 insn[16];		/* the file's bytes at the offset */
	u8 len;
	u8 kind;		/* UPROBE_RUN_* */
	s32 rel;		/* a relative branch's displacement */
	u8 cond;		/* a jcc's condition */
	s8 disp_off;		/* a RIP-relative displacement's offset, or -1 */
};

/* Decode the instruction: 0, or -EOPNOTSUPP. */
int arch_uprobe_analyze_insn(struct arch_uprobe *au);
/* Run it for the task stopped at vaddr (regs): emulated, or from a slot. 0, or -errno. */
int arch_uprobe_run_insn(const struct arch_uprobe *au, unsigned long vaddr, struct pt_regs *regs);
/* The mm's uretprobe trampoline (an int3 in its out-of-line page), mapped if need be; 0: none. */
unsigned long uprobe_trampoline_vaddr(struct mm_struct *mm, unsigned long near);
/* Was the #BP at vaddr the trampoline's? */
bool uprobe_is_trampoline(struct mm_struct *mm, unsigned long vaddr);
/* The mm's out-of-line state goes with it (exit), or is copied for a child (fork). */
void uprobes_state_release(struct mm_struct *mm);
int uprobes_state_dup(struct mm_struct *old, struct mm_struct *new);

#endif
