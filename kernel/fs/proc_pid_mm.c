/*
 * /proc/<pid> files that read a process's address space: maps, cmdline
 * and environ, and the memory numbers status and stat print.
 *
 * Another process's memory is read through its page tables under its
 * mm->lock, a page at a time; a page not present (never touched, so
 * never faulted in) ends the read rather than being faulted in from here.
 * The argument and environment strings were copied onto the stack by
 * exec, so theirs always are present.
 */
#include <kernel/fs/proc_internal.h>
#include <kernel/mman.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <asm/page.h>

/* The device number stat(2) reports for every file (one tree, one st_dev). */
#define PROC_FILE_DEV_MINOR	1
/* Linux's maps: the path starts in this column, after the padded header. */
#define MAPS_NAME_COLUMN	73

void proc_mm_info(struct mm_struct *mm, struct proc_mm_info *info)
{
	struct vm_area_struct *vma;

	memset(info, 0, sizeof(*info));
	spin_lock(&mm->lock);
	list_for_each_entry(vma, &mm->vmas, node) {
		unsigned long pages = (vma->end - vma->start) >> PAGE_SHIFT;
		unsigned long f = vma->flags;

		info->total_vm += pages;
		if (f & VM_STACK)
			info->stack_vm += pages;
		else if ((f & (VM_WRITE | VM_SHARED)) == VM_WRITE)
			info->data_vm += pages;
		else if ((f & (VM_EXEC | VM_WRITE)) == VM_EXEC)
			info->exec_vm += pages;
	}
	info->rss = mm->rss;
	info->start_code = mm->start_code;
	info->end_code = mm->end_code;
	info->start_data = mm->start_data;
	info->end_data = mm->end_data;
	info->start_brk = mm->start_brk;
	info->start_stack = mm->start_stack;
	info->arg_start = mm->arg_start;
	info->arg_end = mm->arg_end;
	info->env_start = mm->env_start;
	info->env_end = mm->env_end;
	spin_unlock(&mm->lock);
}

/* Copies up to len bytes at addr of mm into buf; returns how many were present. */
static size_t mm_read(struct mm_struct *mm, unsigned long addr, char *buf, size_t len)
{
	const u64 want = _PAGE_PRESENT | _PAGE_USER;
	size_t done = 0;

	if (addr >= TASK_SIZE || len > TASK_SIZE - addr)
		return 0;
	spin_lock(&mm->lock);
	while (done < len) {
		unsigned long va = addr + done, off = va & ~PAGE_MASK;
		size_t n = min(len - done, PAGE_SIZE - off);
		u64 *pte = user_pte(mm->pgd, va, false);

		if (!pte || (*pte & want) != want)
			break;
		memcpy(buf + done, (const char *)__va(*pte & PTE_ADDR_MASK) + off, n);
		done += n;
	}
	spin_unlock(&mm->lock);
	return done;
}

/*
 * Prints [start, end) of mm's memory; with to_nul, only up to its first
 * NUL. Kernel threads (no mm) print nothing.
 */
static void show_user_range(struct seq_file *m, struct mm_struct *mm, unsigned long start,
			    unsigned long end, bool to_nul)
{
	char chunk[256];

	while (start < end) {
		size_t n = mm_read(mm, start, chunk, min(sizeof(chunk), end - start));
		const char *nul = to_nul ? memchr(chunk, '\0', n) : NULL;

		if (nul) {
			seq_write(m, chunk, (size_t)(nul - chunk));
			return;
		}
		seq_write(m, chunk, n);
		if (n < min(sizeof(chunk), end - start))
			return;
		start += n;
	}
}

/*
 * argv as exec laid it out, NUL-separated. A program that overwrote the
 * NUL ending its arguments (setproctitle) gets Linux's reading: one
 * string, which may run on into the environment, up to its first NUL.
 */
int pid_cmdline_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_task_mm(proc_pid_of(m->private));
	struct proc_mm_info info;
	char last;

	if (!mm)
		return 0;
	proc_mm_info(mm, &info);
	if (info.arg_start < info.arg_end && mm_read(mm, info.arg_end - 1, &last, 1) == 1) {
		if (!last)
			show_user_range(m, mm, info.arg_start, info.arg_end, false);
		else
			show_user_range(m, mm, info.arg_start,
					info.env_start == info.arg_end ? info.env_end : info.arg_end,
					true);
	}
	mmput(mm);
	return 0;
}

int pid_environ_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_task_mm(proc_pid_of(m->private));
	struct proc_mm_info info;

	if (!mm)
		return 0;
	proc_mm_info(mm, &info);
	show_user_range(m, mm, info.env_start, info.env_end, false);
	mmput(mm);
	return 0;
}

/*
 * One maps line: the header fields, then the name in its column.
 * Anonymous memory is named by address, as Linux names it: [heap] for
 * what overlaps the brk range (so a guard page mapped over its start is
 * heap too), [stack] for the vma holding the initial stack pointer.
 */
static void show_map_vma(struct seq_file *m, const struct mm_struct *mm,
			 const struct vm_area_struct *vma)
{
	unsigned long f = vma->flags, ino = 0, offset = 0;
	unsigned int minor = 0;
	size_t line_start = m->count;
	const char *name = NULL;
	char path[256];

	if (vma->file) {
		struct dentry *d = vma->file->f_dentry;

		ino = vma->file->f_inode->i_ino;
		offset = vma->pgoff << PAGE_SHIFT;
		minor = PROC_FILE_DEV_MINOR;
		if (d && d_path(d, path, sizeof(path)) >= 0)
			name = path;
	} else if (vma->start <= mm->brk && vma->end >= mm->start_brk) {
		name = "[heap]";
	} else if (vma->start <= mm->start_stack && vma->end >= mm->start_stack) {
		name = "[stack]";
	} else if (vma->flags & VM_UPROBES) {
		name = "[uprobes]";
	}
	seq_printf(m, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ", vma->start, vma->end,
		   f & VM_READ ? 'r' : '-', f & VM_WRITE ? 'w' : '-', f & VM_EXEC ? 'x' : '-',
		   f & VM_SHARED ? 's' : 'p', offset, 0u, minor, ino);
	if (name) {
		while (m->count - line_start < MAPS_NAME_COLUMN - 1)
			seq_putc(m, ' ');
		seq_putc(m, ' ');
		seq_puts(m, name);
		if (vma->file && vma->file->f_dentry && !d_attached(vma->file->f_dentry))
			seq_puts(m, " (deleted)");
	}
	seq_putc(m, '\n');
}

int pid_maps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_task_mm(proc_pid_of(m->private));
	struct vm_area_struct *vma;

	if (!mm)
		return 0;
	spin_lock(&mm->lock);
	list_for_each_entry(vma, &mm->vmas, node)
		show_map_vma(m, mm, vma);
	spin_unlock(&mm->lock);
	mmput(mm);
	return 0;
}
