/*
 * The calls that change or read the name space: mkdir, rmdir, unlink,
 * rename, symlink, readlink, link and their *at forms, chdir and
 * fchdir. Each plain form is its *at form with AT_FDCWD, as in Linux;
 * the VFS functions they end in are the ones the kernel shell's ksys_*
 * calls use.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <asm/uaccess.h>
#include "sys_fs.h"

static long do_mkdirat(int dirfd, const char *upath, umode_t mode)
{
	struct at_path at;
	long err = get_at_path(dirfd, upath, &at);

	if (err)
		return err;
	err = vfs_mkdir(at.dir, at.name, mode & ~current_fs()->umask);
	put_at_path(&at);
	return err;
}

SYSCALL_DEFINE2(mkdir, const char *, upath, umode_t, mode)
{
	return do_mkdirat(AT_FDCWD, upath, mode);
}

SYSCALL_DEFINE3(mkdirat, int, dirfd, const char *, upath, umode_t, mode)
{
	return do_mkdirat(dirfd, upath, mode);
}

static long do_unlinkat(int dirfd, const char *upath, int flags)
{
	struct at_path at;
	long err;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	err = get_at_path(dirfd, upath, &at);
	if (err)
		return err;
	err = (flags & AT_REMOVEDIR) ? vfs_rmdir(at.dir, at.name) : vfs_unlink(at.dir, at.name);
	put_at_path(&at);
	return err;
}

SYSCALL_DEFINE1(rmdir, const char *, upath)
{
	return do_unlinkat(AT_FDCWD, upath, AT_REMOVEDIR);
}

SYSCALL_DEFINE1(unlink, const char *, upath)
{
	return do_unlinkat(AT_FDCWD, upath, 0);
}

SYSCALL_DEFINE3(unlinkat, int, dirfd, const char *, upath, int, flags)
{
	return do_unlinkat(dirfd, upath, flags);
}

/* Linux's renameat2 flags: RENAME_EXCHANGE and RENAME_WHITEOUT are not in Spoor (EINVAL). */
static long do_renameat2(int olddirfd, const char *uold, int newdirfd, const char *unew,
			 unsigned int flags)
{
	struct at_path from, to;
	long err;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	err = get_at_path(olddirfd, uold, &from);
	if (err)
		return err;
	err = get_at_path(newdirfd, unew, &to);
	if (!err) {
		err = vfs_rename(from.dir, from.name, to.dir, to.name, flags);
		put_at_path(&to);
	}
	put_at_path(&from);
	return err;
}

SYSCALL_DEFINE2(rename, const char *, uold, const char *, unew)
{
	return do_renameat2(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

SYSCALL_DEFINE4(renameat, int, olddirfd, const char *, uold, int, newdirfd, const char *, unew)
{
	return do_renameat2(olddirfd, uold, newdirfd, unew, 0);
}

SYSCALL_DEFINE5(renameat2, int, olddirfd, const char *, uold, int, newdirfd,
		const char *, unew, unsigned int, flags)
{
	return do_renameat2(olddirfd, uold, newdirfd, unew, flags);
}

static long do_symlinkat(const char *utarget, int newdirfd, const char *upath)
{
	char *target = getname(utarget);
	struct at_path at;
	long err;

	if (IS_ERR(target))
		return PTR_ERR(target);
	err = get_at_path(newdirfd, upath, &at);
	if (!err) {
		err = vfs_symlink(at.dir, target, at.name);
		put_at_path(&at);
	}
	putname(target);
	return err;
}

SYSCALL_DEFINE2(symlink, const char *, target, const char *, path)
{
	return do_symlinkat(target, AT_FDCWD, path);
}

SYSCALL_DEFINE3(symlinkat, const char *, target, int, newdirfd, const char *, path)
{
	return do_symlinkat(target, newdirfd, path);
}

/*
 * An empty path names dirfd's own file (or the working directory), as
 * on Linux, where only an O_PATH descriptor of a symlink has a target
 * to give; Spoor opens no symlinks, so it is ENOENT (Linux's answer for
 * a file that is no symlink there).
 */
static long do_readlinkat(int dirfd, const char *upath, char *ubuf, int size)
{
	struct at_path at;
	struct file *f;
	char *k;
	long r;

	if (size <= 0)
		return -EINVAL;
	r = at_empty_path(dirfd, upath, &f);
	if (r) {
		if (r > 0 && f)
			fput(f);
		return r < 0 ? r : -ENOENT;
	}
	r = get_at_path(dirfd, upath, &at);
	if (r)
		return r;
	k = kmalloc(PATH_MAX, GFP_KERNEL);
	r = k ? vfs_readlink(at.dir, at.name, k, PATH_MAX) : -ENOMEM;
	put_at_path(&at);
	if (r > size)
		r = size;
	if (r > 0 && copy_to_user(ubuf, k, (size_t)r))
		r = -EFAULT;
	kfree(k);
	return r;
}

SYSCALL_DEFINE3(readlink, const char *, upath, char *, buf, int, size)
{
	return do_readlinkat(AT_FDCWD, upath, buf, size);
}

SYSCALL_DEFINE4(readlinkat, int, dirfd, const char *, upath, char *, buf, int, size)
{
	return do_readlinkat(dirfd, upath, buf, size);
}

/* The file linkat links: AT_EMPTY_PATH's dirfd itself, else a lookup (followed with AT_SYMLINK_FOLLOW). */
static struct dentry *link_source(int dirfd, const char *upath, int flags)
{
	struct at_path at;
	struct dentry *d;
	struct file *f;
	int r = 0;

	if (flags & AT_EMPTY_PATH)
		r = at_empty_path(dirfd, upath, &f);
	if (r < 0)
		return ERR_PTR(r);
	if (r) {
		d = f ? (f->f_dentry ? dget(f->f_dentry) : NULL) : fs_get_pwd(current_fs());
		if (f)
			fput(f);
		return d;
	}
	r = get_at_path(dirfd, upath, &at);
	if (r)
		return ERR_PTR(r);
	d = path_lookup(at.dir, at.name, (flags & AT_SYMLINK_FOLLOW) ? LOOKUP_FOLLOW : 0);
	put_at_path(&at);
	return d;
}

/* link(2) never follows a symlink it is given, as on Linux: the link itself gets the name. */
static long do_linkat(int olddirfd, const char *uold, int newdirfd, const char *unew, int flags)
{
	struct dentry *old;
	struct at_path to;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	old = link_source(olddirfd, uold, flags);
	if (IS_ERR(old))
		return PTR_ERR(old);
	err = get_at_path(newdirfd, unew, &to);
	if (!err) {
		err = vfs_link(old, to.dir, to.name);
		put_at_path(&to);
	}
	dput(old);
	return err;
}

SYSCALL_DEFINE2(link, const char *, uold, const char *, unew)
{
	return do_linkat(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

SYSCALL_DEFINE5(linkat, int, olddirfd, const char *, uold, int, newdirfd, const char *, unew,
		int, flags)
{
	return do_linkat(olddirfd, uold, newdirfd, unew, flags);
}

SYSCALL_DEFINE1(chdir, const char *, upath)
{
	char *path = getname(upath);
	long err;

	if (IS_ERR(path))
		return PTR_ERR(path);
	err = ksys_chdir(path);
	putname(path);
	return err;
}

SYSCALL_DEFINE1(fchdir, int, fd)
{
	return ksys_fchdir(fd);
}
