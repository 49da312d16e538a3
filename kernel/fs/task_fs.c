/*
 * The file state of tasks (kernel only): where current's descriptor
 * table and working directory live, and setting them up and tearing them
 * down over a task's life.
 */
#include <kernel/fs/fdtable.h>
#include <kernel/sched.h>
#include <kernel/errno.h>

struct files_struct *current_files(void)
{
	struct task_struct *p = current;

	return p ? p->files : NULL;
}

struct fs_struct *current_fs(void)
{
	struct task_struct *p = current;

	return p ? p->fs : NULL;
}

int fs_init_task(struct task_struct *p)
{
	struct files_struct *files = alloc_files();
	struct fs_struct *fs = alloc_fs_struct(NULL);
	struct file *console = vfs_open(NULL, "/dev/console", O_RDWR, 0);
	int err = IS_ERR(console) ? (int)PTR_ERR(console) : 0;

	if (!err && (!files || !fs))
		err = -ENOMEM;
	if (err) {
		if (!IS_ERR(console))
			fput(console);
		put_files_struct(files);
		free_fs_struct(fs);
		return err;
	}
	fd_install(files, get_file(console), 0);
	fd_install(files, get_file(console), 1);
	fd_install(files, console, 2);
	exit_files(p);
	exit_fs(p);
	p->files = files;
	p->fs = fs;
	return 0;
}

/* Cleared under tasklist_lock: /proc readers take their references under it. */
void exit_files(struct task_struct *p)
{
	struct files_struct *files;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	files = p->files;
	p->files = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	put_files_struct(files);
}

void exit_fs(struct task_struct *p)
{
	struct fs_struct *fs;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	fs = p->fs;
	p->fs = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	free_fs_struct(fs);
}
