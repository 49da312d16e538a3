/*
 * The calls that change a file's attributes rather than its name: chmod,
 * truncate, utimensat (touch), and fsync, with Linux's argument checks
 * and their order (a bad length or flag before a bad name).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/time.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <asm/uaccess.h>
#include "sys_fs.h"

/* utimensat's special tv_nsec values. */
#define UTIME_NOW	((1L << 30) - 1)
#define UTIME_OMIT	((1L << 30) - 2)

struct timespec_user {
	s64 sec, nsec;
};

/* dirfd/path resolved to a referenced dentry, following a last symlink if follow. */
static struct dentry *lookup_at(int dirfd, const char *upath, bool follow)
{
	struct at_path at;
	struct dentry *d;
	int err = get_at_path(dirfd, upath, &at);

	if (err)
		return ERR_PTR(err);
	d = path_lookup(at.dir, at.name, follow ? LOOKUP_FOLLOW : 0);
	put_at_path(&at);
	return d;
}

static long do_fchmodat(int dirfd, const char *upath, umode_t mode)
{
	struct dentry *d = lookup_at(dirfd, upath, true);
	long err;

	if (IS_ERR(d))
		return PTR_ERR(d);
	err = vfs_chmod(d->d_inode, mode);
	dput(d);
	return err;
}

SYSCALL_DEFINE2(chmod, const char *, path, umode_t, mode)
{
	return do_fchmodat(AT_FDCWD, path, mode);
}

SYSCALL_DEFINE3(fchmodat, int, dirfd, const char *, path, umode_t, mode)
{
	return do_fchmodat(dirfd, path, mode);
}

SYSCALL_DEFINE2(fchmod, int, fd, umode_t, mode)
{
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = vfs_chmod(f->f_inode, mode);
	fput(f);
	return err;
}

SYSCALL_DEFINE2(truncate, const char *, path, loff_t, length)
{
	struct dentry *d;
	long err;

	if (length < 0)
		return -EINVAL;
	d = lookup_at(AT_FDCWD, path, true);
	if (IS_ERR(d))
		return PTR_ERR(d);
	err = vfs_truncate(d->d_inode, length);
	dput(d);
	return err;
}

/* Linux: only a regular file open for writing; anything else (a directory too) is EINVAL. */
SYSCALL_DEFINE2(ftruncate, int, fd, loff_t, length)
{
	struct file *f;
	long err;

	if (length < 0)
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	if (!S_ISREG(f->f_inode->i_mode) || !(f->f_mode & FMODE_WRITE))
		err = -EINVAL;
	else
		err = vfs_truncate(f->f_inode, length);
	fput(f);
	return err;
}

static long do_fsync(int fd)
{
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = vfs_fsync(f);
	fput(f);
	return err;
}

SYSCALL_DEFINE1(fsync, int, fd)
{
	return do_fsync(fd);
}

SYSCALL_DEFINE1(fdatasync, int, fd)
{
	return do_fsync(fd);
}

/* One utimensat time: UTIME_NOW, UTIME_OMIT (kept), or an exact time (EINVAL out of range). */
static int utime_ns(const struct timespec_user *ts, u64 now, u64 *ns)
{
	if (ts->nsec == UTIME_NOW)
		*ns = now;
	else if (ts->nsec == UTIME_OMIT)
		*ns = UTIME_KEEP;
	else if (ts->nsec < 0 || ts->nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	else	/* before 1970 does not fit Spoor's clock: the epoch */
		*ns = ts->sec < 0 ? 0 : (u64)ts->sec * NSEC_PER_SEC + (u64)ts->nsec;
	return 0;
}

/* The inode utimensat changes: path NULL is futimens(dirfd), "" with AT_EMPTY_PATH dirfd too. */
static struct inode *utimes_target(int dirfd, const char *upath, int flags, struct dentry **d,
				   struct file **f)
{
	int r = 0;

	*d = NULL;
	*f = NULL;
	if (!upath) {
		if (dirfd == AT_FDCWD)
			return ERR_PTR(-EFAULT);	/* Linux looks up the NULL name */
		if (flags)
			return ERR_PTR(-EINVAL);
		*f = fget(dirfd);
		return *f ? (*f)->f_inode : ERR_PTR(-EBADF);
	}
	if (flags & AT_EMPTY_PATH)
		r = at_empty_path(dirfd, upath, f);
	if (r < 0)
		return ERR_PTR(r);
	if (r && *f)
		return (*f)->f_inode;
	*d = r ? fs_get_pwd(current_fs()) : lookup_at(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW));
	if (IS_ERR(*d))
		return (struct inode *)*d;
	return (*d)->d_inode;
}

SYSCALL_DEFINE4(utimensat, int, dirfd, const char *, upath, const struct timespec_user *, utimes,
		int, flags)
{
	struct timespec_user ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	u64 now = ktime_get_ns(), atime, mtime;
	struct inode *inode;
	struct dentry *d;
	struct file *f;
	long err;

	if (utimes) {
		if (copy_from_user(ts, utimes, sizeof(ts)))
			return -EFAULT;
		/* Nothing to change: Linux does not even look at the path. */
		if (ts[0].nsec == UTIME_OMIT && ts[1].nsec == UTIME_OMIT)
			return 0;
	}
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	inode = utimes_target(dirfd, upath, flags, &d, &f);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	err = utime_ns(&ts[0], now, &atime);
	if (!err)
		err = utime_ns(&ts[1], now, &mtime);
	if (!err)
		vfs_utimes(inode, atime, mtime);
	dput(d);
	if (f)
		fput(f);
	return err;
}
