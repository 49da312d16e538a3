/*
 * The parts of /proc that talk to each other: the root (proc.c) makes
 * /proc/<pid> with proc_pid.c, whose files that read a process's address
 * space (maps, cmdline, environ, the memory numbers) are proc_pid_mm.c.
 * Kernel only.
 *
 * A /proc/<pid> directory and its files carry the pid in i_private, with
 * PROC_TID_VIEW added under /proc/<pid>/task/: there a file describes the
 * one thread, elsewhere the whole thread group (stat sums its threads).
 */
#ifndef KERNEL_FS_PROC_INTERNAL_H
#define KERNEL_FS_PROC_INTERNAL_H

#include <kernel/fs/seq_file.h>
#include <kernel/sched.h>

#define PROC_TID_VIEW		(1L << 32)

static inline pid_t proc_pid_of(const void *data) { return (pid_t)((long)data & 0x7fffffff); }
static inline bool proc_is_tid_view(const void *data) { return (long)data & PROC_TID_VIEW; }

/* /proc/sys (proc_sys.c). */
int proc_sys_init(struct dentry *proc);
/* /proc/<name> for a live task's pid, or NULL (proc_pid.c). */
struct dentry *proc_pid_dir(struct dentry *dir, const char *name);

struct mm_struct;
/* pid's address space with a user reference (mmput it), or NULL: no such task, a kernel thread. */
struct mm_struct *proc_task_mm(pid_t pid);

/*
 * Memory numbers of an address space in pages (Linux's accounting: data
 * is private writable non-stack memory, exec is executable read-only
 * memory), with the layout addresses stat prints.
 */
struct proc_mm_info {
	unsigned long total_vm, data_vm, stack_vm, exec_vm, rss;
	unsigned long start_code, end_code, start_data, end_data, start_brk, start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
};
void proc_mm_info(struct mm_struct *mm, struct proc_mm_info *info);

/* The files of proc_pid_mm.c, m->private being the directory's data. */
int pid_maps_show(struct seq_file *m, void *v);
int pid_cmdline_show(struct seq_file *m, void *v);
int pid_environ_show(struct seq_file *m, void *v);

/* /proc/kallsyms (kernel/kallsyms_proc.c). */
extern const struct file_operations kallsyms_fops;
extern const struct file_operations modules_fops;	/* kernel/module.c */

#endif
