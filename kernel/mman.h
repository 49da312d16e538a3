/*
 * User address spaces: an mm_struct per process (shared by its threads),
 * a sorted list of vm_area_structs describing what each range of the
 * lower half may hold, and page tables filled on demand by the page-fault
 * handler (kernel/mm/memory.c). Constants are Linux's (mman.h, mremap,
 * madvise), so system calls pass them through unchanged.
 *
 * Locking: mm->lock (a spinlock) guards the vma list and the user page
 * tables. Nothing that sleeps runs under it: page allocation never
 * sleeps in Spoor, and file-backed faults read ramfs, which does not.
 */
#ifndef KERNEL_MMAN_H
#define KERNEL_MMAN_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>

#define PROT_NONE		0x0
#define PROT_READ		0x1
#define PROT_WRITE		0x2
#define PROT_EXEC		0x4

#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_SHARED_VALIDATE	0x03
#define MAP_TYPE		0x0f
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_GROWSDOWN		0x0100
#define MAP_DENYWRITE		0x0800
#define MAP_EXECUTABLE		0x1000
#define MAP_LOCKED		0x2000
#define MAP_NORESERVE		0x4000
#define MAP_POPULATE		0x8000
#define MAP_NONBLOCK		0x10000
#define MAP_STACK		0x20000
#define MAP_HUGETLB		0x40000
#define MAP_FIXED_NOREPLACE	0x100000

#define MREMAP_MAYMOVE		1
#define MREMAP_FIXED		2
#define MREMAP_DONTUNMAP	4

#define MADV_DONTNEED		4

/* Where things go in a process's lower half. */
#define TASK_SIZE		0x00007ffffffff000UL	/* first address above user space */
#define STACK_TOP		0x00007ffffffde000UL	/* below a gap, as Linux leaves one */
#define STACK_SIZE_MAX		(8UL << 20)		/* RLIMIT_STACK: the stack vma's size */
#define MMAP_BASE		0x00007f0000000000UL	/* mmap() without a hint searches down from here */
#define PIE_BASE		0x0000555555554000UL	/* static-PIE executables, plus a random offset */
#define MMAP_MIN_ADDR		0x10000UL		/* vm.mmap_min_addr: no mappings below */

/* vma->flags: the PROT_* bits in the low 3, then these. */
#define VM_READ			0x0001
#define VM_WRITE		0x0002
#define VM_EXEC			0x0004
#define VM_SHARED		0x0008
#define VM_GROWSDOWN		0x0100
#define VM_PFNMAP		0x0400	/* device pages: never freed or copied on write */
#define VM_STACK		0x1000	/* the process's stack, for /proc/PID/maps */
#define VM_DONTCOPY		0x4000	/* fork leaves it out of the child (perf rings) */
#define VM_HEAP			0x2000	/* the brk area */
#define VM_UPROBES		0x8000	/* uprobes' out-of-line page, for /proc/PID/maps */

struct file;
struct vm_area_struct;
struct uprobes_state;

/* What a driver (tracefs, perf) does for an mmap of one of its files. */
struct vm_operations_struct {
	/* The physical page backing the page at vma->start + pgoff pages; -1 if none. */
	u64 (*fault_pfn)(struct vm_area_struct *vma, unsigned long pgoff);
	/* A new vma now maps it too (split by munmap/mprotect, copied by fork); close for each. */
	void (*open)(struct vm_area_struct *vma);
	void (*close)(struct vm_area_struct *vma);
};

/*
 * One mapped range [start, end), page aligned. A private file mapping
 * reads bytes [pgoff * PAGE_SIZE, ...) of file into fresh pages at first
 * touch, up to file_end (a virtual address: what lies beyond it in the
 * last page is zero, as an ELF segment's bss needs).
 */
struct vm_area_struct {
	struct list_head node;		/* in mm->vmas, sorted by start */
	unsigned long start, end;
	unsigned long flags;		/* VM_* */
	struct file *file;		/* referenced, or NULL for anonymous memory */
	unsigned long pgoff;		/* file offset of start, in pages */
	unsigned long file_end;		/* end of the file's bytes (private file mappings) */
	const struct vm_operations_struct *vm_ops;
	void *vm_private;
};

/*
 * An address space. mm_users counts the tasks using it (threads);
 * mm_count the references that keep the structure and its top-level
 * table alive, one of them for all the users together, the others taken
 * by CPUs that still have it loaded in CR3 after switching to a kernel
 * thread.
 */
struct mm_struct {
	u64 *pgd;			/* top-level table; its upper half is the kernel's */
	int mm_users;
	int mm_count;
	spinlock_t lock;		/* vmas and page tables */
	struct list_head vmas;
	unsigned int nr_vmas;
	/*
	 * Pages unmapped under the lock whose last reference went: they are
	 * freed only after the TLB flush that follows (tlb_flush_free), as
	 * another CPU running this mm may still write through a stale entry.
	 */
	struct list_head zapped;
	struct list_head dead_vmas;	/* unmapped vmas, closed after that flush too (device pages) */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk;
	unsigned long start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	unsigned long mmap_base;
	unsigned long total_vm;		/* pages in vmas */
	unsigned long rss;		/* pages present */
	u64 cpu_mask;			/* CPUs that may hold its translations */
	bool oom_victim;		/* killed by the OOM killer: counted until its pages are back */
	char exe_path[256];		/* /proc/PID/exe, the file execve ran */
	void *user_events;		/* trace/: this process's user_events enablers */
	struct uprobes_state *uprobes;	/* kernel/uprobes.c: its out-of-line slots, or NULL */
};

/*
 * Observers of address spaces (user_events' enablers, perf's records):
 * told when fork copies an mm, when an mm's last user goes, and when a
 * vma is mapped. Callbacks run in process context, without mm->lock.
 */
struct mm_callbacks {
	void (*fork)(struct mm_struct *old, struct mm_struct *new);
	void (*release)(struct mm_struct *mm);
	void (*mmap)(struct mm_struct *mm, struct vm_area_struct *vma);
	struct mm_callbacks *next;
};
/* Adds cb (static storage) to the list; never removed. */
void register_mm_callbacks(struct mm_callbacks *cb);

/* --- kernel/mm/mm_struct.c ------------------------------------------------- */
struct mm_struct *mm_alloc(void);
/* A copy for fork: every vma, private pages shared copy-on-write. */
struct mm_struct *dup_mm(struct mm_struct *old);
void mmget(struct mm_struct *mm);
/* mm_users up unless it already reached zero (the address space is being torn down). */
bool mmget_not_zero(struct mm_struct *mm);
/* Drops a user: the last one unmaps everything and frees the user page tables. */
void mmput(struct mm_struct *mm);
void mmgrab(struct mm_struct *mm);
void mmdrop(struct mm_struct *mm);
/* A new vma is mapped (do_mmap): the mmap callbacks. */
void mm_notify_mmap(struct mm_struct *mm, struct vm_area_struct *vma);

/* --- kernel/mm/mmap.c -------------------------------------------------------- */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);	/* caller holds lock */
/* Drops what a vma holds: the driver's close, the file reference, the vma itself. */
void vma_free(struct vm_area_struct *vma);
/*
 * Maps [addr, addr + len) (addr 0: anywhere; MAP_FIXED: exactly there,
 * replacing what was there). Returns the address or a negative errno.
 */
long do_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
	     unsigned long flags, struct file *file, unsigned long pgoff);
int do_munmap(struct mm_struct *mm, unsigned long addr, unsigned long len);
int do_mprotect(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot);
long do_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
	       unsigned long new_len, unsigned long flags, unsigned long new_addr);
unsigned long do_brk(struct mm_struct *mm, unsigned long brk);
int do_madvise_dontneed(struct mm_struct *mm, unsigned long addr, unsigned long len);
/* Adds a vma for an ELF segment or the stack (exec); 0 or -errno. */
int mm_map_fixed(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned long flags,
		 struct file *file, unsigned long pgoff, unsigned long file_end);

/* --- kernel/mm/memory.c ------------------------------------------------------ */
#define FAULT_FLAG_WRITE	0x1
#define FAULT_FLAG_EXEC		0x2
#define FAULT_FLAG_USER		0x4
/* Makes addr accessible as asked: 0, or -EFAULT (no vma, wrong permission: SIGSEGV), -ENOMEM. */
int handle_mm_fault(struct mm_struct *mm, unsigned long addr, unsigned int flags);
/*
 * A user fault found no free page (kernel/mm/oom_kill.c): kills the process
 * holding the most memory, or waits for the last one killed to let go.
 * True: retry the access; false: nothing could be killed.
 */
bool pagefault_out_of_memory(void);
/* mm's pages are all free again (mmput): an OOM victim no longer holds memory. */
void oom_mm_released(struct mm_struct *mm);
/* Frees the pages of [start, end) and clears their entries; caller holds lock and flushes. */
void zap_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Makes the entries of [start, end) match vma->flags (mprotect); caller holds lock and flushes. */
void change_protection(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long start,
		       unsigned long end);
/* Flushes [start, end) of mm from every TLB that may hold it. */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* After a zap: the flush ([start, end), or all of mm if pages wait), then the zapped pages go. */
void tlb_flush_free(struct mm_struct *mm, unsigned long start, unsigned long end);
/*
 * Reads or writes len bytes at addr of mm, which need not be current's:
 * pages are faulted in (a write breaks copy-on-write, as a store by the
 * process would). Returns 0, or -EFAULT where mm has nothing (or no write
 * permission) at addr. Process context.
 */
int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len, bool write);
/*
 * Changes the bytes at addr of mm whatever the vma's protection, as a
 * debugger or uprobes does (Linux's FOLL_FORCE): patch(kaddr, arg) gets
 * them in a page of mm's own, copied first when fork shares it, so no
 * other process (and no reader of the file: a private mapping is a copy)
 * sees the change; it returns whether it changed them (within the page).
 * present_only: nothing if the page is not there (a page read in later
 * is the caller's to patch). 1 patched, 0 not, -EFAULT, -ENOMEM.
 */
int patch_user_page(struct mm_struct *mm, unsigned long addr, bool present_only,
		    bool (*patch)(u8 *kaddr, void *arg), void *arg);
/* Copies the present pages of vma from old to new for fork; -ENOMEM. Both locks held. */
int copy_vma_pages(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma);

#endif
