/*
 * The file calls of the current task: each resolves paths from its
 * working directory and descriptors in its table, then hands over to the
 * VFS.
 */
#include <kernel/fs/fdtable.h>
#include <kernel/errno.h>

int ksys_open(const char *path, int flags, umode_t mode)
{
	struct dentry *pwd = fs_get_pwd(current_fs());
	struct file *f = vfs_open(pwd, path, flags, mode);

	dput(pwd);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	if (!current_files()) {
		fput(f);
		return -EMFILE;
	}
	return fd_install(current_files(), f, 0);
}

/* A read or write at the file's offset, which moves only when bytes moved. */
static ssize_t ksys_rw(struct file *f, void *buf, size_t count, bool write)
{
	loff_t pos = f->f_pos;
	ssize_t ret = write ? vfs_write(f, buf, count, &pos) : vfs_read(f, buf, count, &pos);

	if (ret > 0)
		f->f_pos = pos;
	return ret;
}

ssize_t ksys_read(int fd, void *buf, size_t count)
{
	struct file *f = fget_pos(fd);
	ssize_t ret;

	if (!f)
		return -EBADF;
	ret = ksys_rw(f, buf, count, false);
	fput_pos(f);
	return ret;
}

ssize_t ksys_write(int fd, const void *buf, size_t count)
{
	struct file *f = fget_pos(fd);
	ssize_t ret;

	if (!f)
		return -EBADF;
	ret = ksys_rw(f, (void *)buf, count, true);
	fput_pos(f);
	return ret;
}

loff_t ksys_lseek(int fd, loff_t offset, int whence)
{
	struct file *f = fget_pos(fd);
	loff_t ret;

	if (!f)
		return -EBADF;
	ret = vfs_llseek(f, offset, whence);
	fput_pos(f);
	return ret;
}

int ksys_pipe2(int fds[2], int flags)
{
	struct files_struct *files = current_files();
	struct file *f[2];
	int err;

	if (!files)
		return -EMFILE;
	err = create_pipe_files(f, flags);
	if (err)
		return err;
	fds[0] = fd_install(files, f[0], 0);
	if (fds[0] < 0) {
		fput(f[1]);
		return fds[0];
	}
	fds[1] = fd_install(files, f[1], 0);
	if (fds[1] < 0) {
		ksys_close(fds[0]);
		return fds[1];
	}
	return 0;
}

int ksys_fstat(int fd, struct kstat *st)
{
	struct file *f = fget(fd);
	int ret;

	if (!f)
		return -EBADF;
	ret = vfs_fstat(f, st);
	fput(f);
	return ret;
}

ssize_t ksys_getdents64(int fd, void *buf, size_t count)
{
	struct file *f = fget(fd);
	ssize_t ret;

	if (!f)
		return -EBADF;
	ret = vfs_getdents64(f, buf, count);
	fput(f);
	return ret;
}

/*
 * The path calls differ only in the VFS function; this runs one with the
 * working directory held.
 */
#define WITH_PWD(call) ({					\
	struct dentry *pwd = fs_get_pwd(current_fs());		\
	__typeof__(call) __ret = (call);			\
	dput(pwd);						\
	__ret; })

int ksys_stat(const char *path, struct kstat *st)
{
	return WITH_PWD(vfs_stat(pwd, path, st, true));
}

int ksys_lstat(const char *path, struct kstat *st)
{
	return WITH_PWD(vfs_stat(pwd, path, st, false));
}

int ksys_mkdir(const char *path, umode_t mode)
{
	return WITH_PWD(vfs_mkdir(pwd, path, mode));
}

int ksys_rmdir(const char *path)
{
	return WITH_PWD(vfs_rmdir(pwd, path));
}

int ksys_unlink(const char *path)
{
	return WITH_PWD(vfs_unlink(pwd, path));
}

int ksys_rename(const char *oldpath, const char *newpath)
{
	return WITH_PWD(vfs_rename(pwd, oldpath, pwd, newpath, 0));
}

int ksys_symlink(const char *target, const char *path)
{
	return WITH_PWD(vfs_symlink(pwd, target, path));
}

int ksys_chmod(const char *path, umode_t mode)
{
	struct dentry *d = WITH_PWD(path_lookup(pwd, path, LOOKUP_FOLLOW));
	int err;

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	err = vfs_chmod(d->d_inode, mode);
	dput(d);
	return err;
}

ssize_t ksys_readlink(const char *path, char *buf, size_t size)
{
	return WITH_PWD(vfs_readlink(pwd, path, buf, size));
}
