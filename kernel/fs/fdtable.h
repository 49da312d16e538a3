/*
 * Per-task file state: the descriptor table and the working directory,
 * and the descriptor-based calls (ksys_*) the shell and, later, system
 * calls use. Pure: the calls act for current_files()/current_fs(), which
 * the kernel takes from current (task_fs.c) and a test provides itself.
 *
 * Task life: a spawned task gets dup_fd() and copy_fs_struct() of its
 * parent's (or a table built with alloc_files() + fd_install()); its exit
 * drops them with exit_files() and exit_fs().
 */
#ifndef KERNEL_FS_FDTABLE_H
#define KERNEL_FS_FDTABLE_H

#include <kernel/fs/fs.h>

#define NR_OPEN		256	/* descriptors per table */

/* A descriptor table; shared by threads made with CLONE_FILES (count). */
struct files_struct {
	int count;
	spinlock_t lock;
	struct file *fd[NR_OPEN];	/* each holds a file reference */
	u64 close_on_exec[NR_OPEN / 64];	/* FD_CLOEXEC, a bit per descriptor */
};

/* The working directory; shared by threads made with CLONE_FS (count). */
struct fs_struct {
	int count;
	spinlock_t lock;
	struct dentry *pwd;	/* referenced; NULL means the root */
	unsigned int umask;
};

struct task_struct;

struct files_struct *current_files(void);
struct fs_struct *current_fs(void);

struct files_struct *alloc_files(void);
/* A copy sharing every open file (the references are taken). */
struct files_struct *dup_fd(struct files_struct *old);
/* Drops a reference: the last closes every descriptor and frees the table. */
void put_files_struct(struct files_struct *files);
/* FD_CLOEXEC of fd; and execve's closing of every such descriptor. */
void set_close_on_exec(struct files_struct *files, int fd, bool on);
bool get_close_on_exec(struct files_struct *files, int fd);
void do_close_on_exec(struct files_struct *files);
/* Installs file at the lowest free descriptor >= min; takes the reference. */
int fd_install(struct files_struct *files, struct file *file, int min);
/* The file at fd, referenced, or NULL. */
struct file *files_fget(struct files_struct *files, int fd);

struct fs_struct *alloc_fs_struct(struct dentry *pwd);
struct fs_struct *copy_fs_struct(struct fs_struct *old);
void free_fs_struct(struct fs_struct *fs);
/* The referenced working directory. */
struct dentry *fs_get_pwd(struct fs_struct *fs);

/* For the scheduler's exit path and spawners: drop and clear p's tables. */
void exit_files(struct task_struct *p);
void exit_fs(struct task_struct *p);
/* Give p (init, the shell) /dev/console on fds 0, 1, 2 and "/" as cwd. */
int fs_init_task(struct task_struct *p);

/* Calls for the current task: results and errors as Linux's system calls. */
int ksys_open(const char *path, int flags, umode_t mode);
int ksys_close(int fd);
ssize_t ksys_read(int fd, void *buf, size_t count);
ssize_t ksys_write(int fd, const void *buf, size_t count);
loff_t ksys_lseek(int fd, loff_t offset, int whence);
int ksys_dup(int fd);
/* fcntl(F_DUPFD): the lowest free descriptor >= min. */
int ksys_dupfd(int fd, int min);
int ksys_dup2(int oldfd, int newfd);
int ksys_pipe2(int fds[2], int flags);
int ksys_fstat(int fd, struct kstat *st);
int ksys_stat(const char *path, struct kstat *st);
int ksys_lstat(const char *path, struct kstat *st);
ssize_t ksys_getdents64(int fd, void *buf, size_t count);
int ksys_mkdir(const char *path, umode_t mode);
int ksys_rmdir(const char *path);
int ksys_unlink(const char *path);
int ksys_rename(const char *oldpath, const char *newpath);
int ksys_symlink(const char *target, const char *path);
int ksys_chmod(const char *path, umode_t mode);
ssize_t ksys_readlink(const char *path, char *buf, size_t size);
int ksys_chdir(const char *path);
int ksys_fchdir(int fd);
/* The cwd's absolute path; its length, -ERANGE if size is too small. */
int ksys_getcwd(char *buf, size_t size);

/* The file at fd of the current task, referenced, or NULL. */
struct file *fget(int fd);
/*
 * The same, for a move of its offset: a shared file's f_pos_lock held
 * until fput_pos (Linux's fdget_pos: two tasks writing one open file each
 * read f_pos, write and store it; unserialized, one write lands on the
 * other). Only a file whose offset says where (FMODE_ATOMIC_POS) looks.
 */
void file_pos_lock(struct file *f);
void file_pos_unlock(struct file *f);

static inline struct file *fget_pos(int fd)
{
	struct file *f = fget(fd);

	if (f && (f->f_mode & FMODE_ATOMIC_POS))
		file_pos_lock(f);
	return f;
}

static inline void fput_pos(struct file *f)
{
	if (f && (f->f_mode & FMODE_ATOMIC_POS))
		file_pos_unlock(f);
	fput(f);
}

#endif
