/*
 * Descriptor tables and working directories. A descriptor is an index
 * into the table holding a reference to an open file; dup copies the
 * reference, so duplicates share the offset, as on Unix.
 */
#include <kernel/fs/fdtable.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/errno.h>
#include <kernel/sched.h>

struct files_struct *alloc_files(void)
{
	struct files_struct *files = kmem_cache_zalloc(files_cachep, GFP_KERNEL);

	if (files) {
		files->count = 1;
		spin_lock_init(&files->lock);
	}
	return files;
}

struct files_struct *dup_fd(struct files_struct *old)
{
	struct files_struct *files = alloc_files();

	if (!files)
		return NULL;
	spin_lock(&old->lock);
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (old->fd[fd])
			files->fd[fd] = get_file(old->fd[fd]);
	spin_unlock(&old->lock);
	return files;
}

void put_files_struct(struct files_struct *files)
{
	if (!files || __atomic_sub_fetch(&files->count, 1, __ATOMIC_ACQ_REL))
		return;
	for (int fd = 0; fd < NR_OPEN; fd++)
		fput(files->fd[fd]);
	kmem_cache_free(files_cachep, files);
}

void set_close_on_exec(struct files_struct *files, int fd, bool on)
{
	spin_lock(&files->lock);
	if (on)
		files->close_on_exec[fd / 64] |= 1ULL << (fd % 64);
	else
		files->close_on_exec[fd / 64] &= ~(1ULL << (fd % 64));
	spin_unlock(&files->lock);
}

bool get_close_on_exec(struct files_struct *files, int fd)
{
	return files->close_on_exec[fd / 64] & (1ULL << (fd % 64));
}

void do_close_on_exec(struct files_struct *files)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f;

		if (!get_close_on_exec(files, fd))
			continue;
		spin_lock(&files->lock);
		f = files->fd[fd];
		files->fd[fd] = NULL;
		files->close_on_exec[fd / 64] &= ~(1ULL << (fd % 64));
		spin_unlock(&files->lock);
		fput(f);
	}
}

int fd_install(struct files_struct *files, struct file *file, int min)
{
	if (min < 0 || min >= NR_OPEN) {
		fput(file);
		return -EINVAL;
	}
	spin_lock(&files->lock);
	for (int fd = min; fd < NR_OPEN; fd++) {
		if (!files->fd[fd]) {
			files->fd[fd] = file;
			files->close_on_exec[fd / 64] &= ~(1ULL << (fd % 64));
			spin_unlock(&files->lock);
			return fd;
		}
	}
	spin_unlock(&files->lock);
	fput(file);
	return -EMFILE;
}

struct file *files_fget(struct files_struct *files, int fd)
{
	struct file *f = NULL;

	if (!files || fd < 0 || fd >= NR_OPEN)
		return NULL;
	spin_lock(&files->lock);
	if (files->fd[fd])
		f = get_file(files->fd[fd]);
	spin_unlock(&files->lock);
	return f;
}

struct file *fget(int fd)
{
	return files_fget(current_files(), fd);
}

/* For an FMODE_ATOMIC_POS file: shared if more than one fd table's reference and fget's. */
void file_pos_lock(struct file *f)
{
	if (atomic_read(&f->f_count) > 2)
		mutex_lock(&f->f_pos_lock);
}

void file_pos_unlock(struct file *f)
{
	/* whether file_pos_lock locked it: the file may have been shared then and not now */
	if (mutex_owner(&f->f_pos_lock) == current)
		mutex_unlock(&f->f_pos_lock);
}

struct fs_struct *alloc_fs_struct(struct dentry *pwd)
{
	struct fs_struct *fs = kmem_cache_zalloc(fs_cachep, GFP_KERNEL);

	if (!fs)
		return NULL;
	fs->count = 1;
	fs->umask = 0022;
	spin_lock_init(&fs->lock);
	fs->pwd = pwd ? dget(pwd) : NULL;
	return fs;
}

struct fs_struct *copy_fs_struct(struct fs_struct *old)
{
	struct dentry *pwd = fs_get_pwd(old);
	struct fs_struct *fs = alloc_fs_struct(pwd);

	dput(pwd);
	return fs;
}

void free_fs_struct(struct fs_struct *fs)
{
	if (!fs || __atomic_sub_fetch(&fs->count, 1, __ATOMIC_ACQ_REL))
		return;
	dput(fs->pwd);
	kmem_cache_free(fs_cachep, fs);
}

struct dentry *fs_get_pwd(struct fs_struct *fs)
{
	struct dentry *pwd;

	if (!fs)
		return dget(root_dentry);
	spin_lock(&fs->lock);
	pwd = dget(fs->pwd ? fs->pwd : root_dentry);
	spin_unlock(&fs->lock);
	return pwd;
}

/* Sets the working directory; takes the reference. */
static void fs_set_pwd(struct fs_struct *fs, struct dentry *pwd)
{
	struct dentry *old;

	spin_lock(&fs->lock);
	old = fs->pwd;
	fs->pwd = pwd;
	spin_unlock(&fs->lock);
	dput(old);
}

/* chdir and fchdir: d (referenced, or an error) becomes the working directory. */
static int set_pwd(struct dentry *d)
{
	struct fs_struct *fs = current_fs();

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	if (!fs) {
		dput(d);
		return -ENOENT;	/* a kernel thread without file state */
	}
	fs_set_pwd(fs, d);
	return 0;
}

int ksys_chdir(const char *path)
{
	struct dentry *pwd = fs_get_pwd(current_fs());
	struct dentry *d = path_lookup(pwd, path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY);

	dput(pwd);
	return set_pwd(d);
}

int ksys_fchdir(int fd)
{
	struct file *f = fget(fd);
	struct dentry *d;

	if (!f)
		return -EBADF;
	/* A pipe has no name to stand in; Linux's pipefs inode is no directory either. */
	d = f->f_dentry && d_is_dir(f->f_dentry) ? dget(f->f_dentry) : ERR_PTR(-ENOTDIR);
	fput(f);
	return set_pwd(d);
}

int ksys_getcwd(char *buf, size_t size)
{
	struct dentry *pwd = fs_get_pwd(current_fs());
	int len = d_path(pwd, buf, size);

	dput(pwd);
	return len == -ENAMETOOLONG ? -ERANGE : len;
}

int ksys_close(int fd)
{
	struct files_struct *files = current_files();
	struct file *f = NULL;

	if (!files || fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&files->lock);
	f = files->fd[fd];
	files->fd[fd] = NULL;
	files->close_on_exec[fd / 64] &= ~(1ULL << (fd % 64));
	spin_unlock(&files->lock);
	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}

int ksys_dupfd(int fd, int min)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	return fd_install(current_files(), f, min);
}

int ksys_dup(int fd)
{
	return ksys_dupfd(fd, 0);
}

int ksys_dup2(int oldfd, int newfd)
{
	struct files_struct *files = current_files();
	struct file *f = fget(oldfd), *old;

	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NR_OPEN) {
		fput(f);
		return -EBADF;
	}
	if (newfd == oldfd) {
		fput(f);
		return newfd;
	}
	spin_lock(&files->lock);
	old = files->fd[newfd];
	files->fd[newfd] = f;
	files->close_on_exec[newfd / 64] &= ~(1ULL << (newfd % 64));
	spin_unlock(&files->lock);
	fput(old);
	return newfd;
}
