/*
 * File system calls. The VFS works on kernel buffers, so data passes
 * through a bounce buffer of at most BOUNCE bytes per step, and names
 * are copied in with strncpy_from_user first (PATH_MAX, ENAMETOOLONG).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <asm/uaccess.h>
#include "sys_fs.h"

#define BOUNCE		65536
#define SMALL_IO	256	/* up to this, the bounce buffer is on the stack */
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC	1
#define TCGETS		0x5401
#define TIOCGWINSZ	0x5413
#define TIOCGPGRP	0x540f
#define IOV_MAX		1024
#define O_PATH		010000000
#define O_LARGEFILE	0100000

char *getname(const char *upath)
{
	char *k = kmem_cache_alloc(names_cachep, GFP_KERNEL);
	long n;

	if (!k)
		return ERR_PTR(-ENOMEM);
	n = strncpy_from_user(k, upath, PATH_MAX);
	if (n < 0 || n == PATH_MAX || !n) {
		putname(k);
		return ERR_PTR(n < 0 ? -EFAULT : n ? -ENAMETOOLONG : -ENOENT);
	}
	return k;
}

void putname(const char *name)
{
	kmem_cache_free(names_cachep, (void *)name);
}

/* The directory a *at call's relative path starts from, referenced. */
static struct dentry *at_dir(int dirfd, const char *path)
{
	struct file *f;
	struct dentry *d;

	if (path[0] == '/' || dirfd == AT_FDCWD)
		return fs_get_pwd(current_fs());
	f = fget(dirfd);
	if (!f)
		return ERR_PTR(-EBADF);
	if (!f->f_dentry || !d_is_dir(f->f_dentry)) {
		fput(f);
		return ERR_PTR(-ENOTDIR);
	}
	d = dget(f->f_dentry);
	fput(f);
	return d;
}

int get_at_path(int dirfd, const char *upath, struct at_path *at)
{
	at->dir = NULL;
	at->name = getname(upath);
	if (IS_ERR(at->name))
		return (int)PTR_ERR(at->name);
	at->dir = at_dir(dirfd, at->name);
	if (IS_ERR(at->dir)) {
		putname(at->name);
		return (int)PTR_ERR(at->dir);
	}
	return 0;
}

void put_at_path(struct at_path *at)
{
	dput(at->dir);
	putname(at->name);
}

int at_empty_path(int dirfd, const char *upath, struct file **f)
{
	char c;

	if (get_user(c, upath))
		return -EFAULT;
	if (c)
		return 0;
	*f = NULL;
	if (dirfd == AT_FDCWD)
		return 1;
	*f = fget(dirfd);
	return *f ? 1 : -EBADF;
}

noinline long do_sys_openat2(int dfd, const char *filename, const struct open_how *how)
{
	int flags = (int)how->flags;
	struct at_path at;
	struct file *f;
	int fd = get_at_path(dfd, filename, &at);

	if (fd)
		return fd;
	f = vfs_open(at.dir, at.name, flags & ~(O_LARGEFILE | O_CLOEXEC | O_PATH),
		     (umode_t)how->mode & ~current_fs()->umask);
	put_at_path(&at);
	if (IS_ERR(f))
		return PTR_ERR(f);
	fd = fd_install(current_files(), f, 0);
	if (fd >= 0 && (flags & O_CLOEXEC))
		set_close_on_exec(current_files(), fd, true);
	return fd;
}

noinline long do_sys_open(int dfd, const char *filename, int flags, umode_t mode)
{
	struct open_how how = { .flags = (u64)(unsigned int)flags, .mode = mode };

	return do_sys_openat2(dfd, filename, &how);
}

SYSCALL_DEFINE3(open, const char *, path, int, flags, umode_t, mode)
{
	return do_sys_open(AT_FDCWD, path, flags, mode);
}

SYSCALL_DEFINE4(openat, int, dirfd, const char *, path, int, flags, umode_t, mode)
{
	return do_sys_open(dirfd, path, flags, mode);
}

SYSCALL_DEFINE1(close, int, fd)
{
	return ksys_close(fd);
}

/*
 * The checks read and write share, then the bounce buffer: small (on the
 * caller's stack) when count fits, else allocated for one BOUNCE step.
 * has_op: the file has the method for this direction.
 */
static int bounce_get(struct file *f, unsigned int mode, bool has_op, unsigned long ubuf,
		      size_t count, char *small, char **k)
{
	size_t chunk = count < BOUNCE ? count : BOUNCE;

	if (!(f->f_mode & mode))
		return -EBADF;
	if (!has_op)
		return -EINVAL;
	if (!access_ok(ubuf, count))
		return -EFAULT;
	*k = chunk > SMALL_IO ? kmalloc(chunk, GFP_KERNEL) : small;
	return *k ? 0 : -ENOMEM;
}

/* Reads into user memory through the bounce buffer; pos NULL: the file's own offset. */
static ssize_t do_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	size_t done = 0;
	char small[SMALL_IO], *k;
	int err = bounce_get(f, FMODE_READ, f->f_op && f->f_op->read, (unsigned long)ubuf, count,
			     small, &k);

	if (err)
		return err;
	while (done < count) {
		size_t n = count - done < BOUNCE ? count - done : BOUNCE;
		ssize_t r = vfs_read(f, k, n, pos ? pos : &f->f_pos);

		if (r < 0) {
			if (!done)
				done = (size_t)r;
			break;
		}
		if (copy_to_user(ubuf + done, k, (size_t)r)) {
			if (!done)
				done = (size_t)-EFAULT;
			break;
		}
		done += (size_t)r;
		/* A short read (pipe, terminal, end of file) ends the call, as on Linux. */
		if ((size_t)r < n)
			break;
	}
	if (k != small)
		kfree(k);
	return (ssize_t)done;
}

static ssize_t do_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	size_t done = 0;
	char small[SMALL_IO], *k;
	int err = bounce_get(f, FMODE_WRITE, f->f_op && f->f_op->write, (unsigned long)ubuf, count,
			     small, &k);

	if (err)
		return err;
	do {
		size_t n = count - done < BOUNCE ? count - done : BOUNCE;
		ssize_t r;

		if (copy_from_user(k, ubuf + done, n)) {
			if (!done)
				done = (size_t)-EFAULT;
			break;
		}
		r = vfs_write(f, k, n, pos ? pos : &f->f_pos);
		if (r < 0) {
			if (!done)
				done = (size_t)r;
			break;
		}
		done += (size_t)r;
		if ((size_t)r < n)
			break;
	} while (done < count);
	if (k != small)
		kfree(k);
	return (ssize_t)done;
}

SYSCALL_DEFINE3(read, int, fd, char *, buf, size_t, count)
{
	struct file *f = fget_pos(fd);
	ssize_t r;

	if (!f)
		return -EBADF;
	r = do_read(f, buf, count, NULL);
	fput_pos(f);
	return r;
}

SYSCALL_DEFINE3(write, int, fd, const char *, buf, size_t, count)
{
	struct file *f = fget_pos(fd);
	ssize_t r;

	if (!f)
		return -EBADF;
	if (f->f_op && f->f_op->write_iov) {
		struct iovec_user seg = { (unsigned long)buf, count };

		r = f->f_mode & FMODE_WRITE ? f->f_op->write_iov(f, &seg, 1) : -EBADF;
	} else {
		r = do_write(f, buf, count, NULL);
	}
	fput_pos(f);
	return r;
}

SYSCALL_DEFINE4(pread64, int, fd, char *, buf, size_t, count, loff_t, pos)
{
	struct file *f = fget(fd);
	ssize_t r = -ESPIPE;

	if (!f)
		return -EBADF;
	if (pos < 0)
		r = -EINVAL;
	else if (f->f_op && f->f_op->llseek)
		r = do_read(f, buf, count, &pos);
	fput(f);
	return r;
}

SYSCALL_DEFINE4(pwrite64, int, fd, const char *, buf, size_t, count, loff_t, pos)
{
	struct file *f = fget(fd);
	ssize_t r = -ESPIPE;

	if (!f)
		return -EBADF;
	if (pos < 0)
		r = -EINVAL;
	else if (f->f_op && f->f_op->llseek)
		r = do_write(f, buf, count, &pos);
	fput(f);
	return r;
}

/* writev to a file with write_iov: the segments copied in, one call. */
static ssize_t write_iov_user(struct file *f, const struct iovec_user *uiov, int cnt)
{
	struct iovec_user small[8], *iov = small;
	ssize_t r;

	if (!(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if (cnt > (int)ARRAY_SIZE(small)) {
		iov = kmalloc((size_t)cnt * sizeof(*iov), GFP_KERNEL);
		if (!iov)
			return -ENOMEM;
	}
	if (copy_from_user(iov, uiov, (size_t)cnt * sizeof(*iov)))
		r = -EFAULT;
	else
		r = f->f_op->write_iov(f, iov, cnt);
	if (iov != small)
		kfree(iov);
	return r;
}

/* readv/writev: one call per segment, stopping at the first short one. */
static ssize_t do_iov(int fd, const struct iovec_user *uiov, int cnt, bool write)
{
	struct iovec_user iov;
	struct file *f;
	ssize_t total = 0;

	if (cnt < 0 || cnt > IOV_MAX)
		return -EINVAL;
	f = fget_pos(fd);
	if (!f)
		return -EBADF;
	if (write && f->f_op && f->f_op->write_iov) {
		total = write_iov_user(f, uiov, cnt);
		fput_pos(f);
		return total;
	}
	for (int i = 0; i < cnt; i++) {
		ssize_t r;

		if (copy_from_user(&iov, &uiov[i], sizeof(iov))) {
			r = -EFAULT;
		} else if ((ssize_t)iov.len < 0) {
			r = -EINVAL;
		} else if (!iov.len) {
			continue;
		} else {
			r = write ? do_write(f, (const char *)iov.base, iov.len, NULL)
				  : do_read(f, (char *)iov.base, iov.len, NULL);
		}
		if (r < 0) {
			if (!total)
				total = r;
			break;
		}
		total += r;
		if ((size_t)r < iov.len)
			break;
	}
	fput_pos(f);
	return total;
}

SYSCALL_DEFINE3(readv, int, fd, const struct iovec_user *, iov, int, cnt)
{
	return do_iov(fd, iov, cnt, false);
}

SYSCALL_DEFINE3(writev, int, fd, const struct iovec_user *, iov, int, cnt)
{
	return do_iov(fd, iov, cnt, true);
}

SYSCALL_DEFINE3(lseek, int, fd, loff_t, offset, int, whence)
{
	return ksys_lseek(fd, offset, whence);
}

/* Linux's struct stat for x86_64. */
struct stat_user {
	u64 st_dev, st_ino, st_nlink;
	u32 st_mode, st_uid, st_gid, pad0;
	u64 st_rdev;
	s64 st_size, st_blksize, st_blocks;
	u64 st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	s64 unused[3];
};

static int put_stat(const struct kstat *k, struct stat_user *u)
{
	struct stat_user s = {
		.st_dev = 1, .st_ino = k->ino, .st_nlink = k->nlink, .st_mode = k->mode,
		.st_rdev = k->rdev ? (((u64)MAJOR(k->rdev) << 8) | MINOR(k->rdev)) : 0,
		.st_size = k->size, .st_blksize = 4096, .st_blocks = (s64)k->blocks,
		.st_atime = k->atime_ns / NSEC_PER_SEC, .st_atime_nsec = k->atime_ns % NSEC_PER_SEC,
		.st_mtime = k->mtime_ns / NSEC_PER_SEC, .st_mtime_nsec = k->mtime_ns % NSEC_PER_SEC,
		.st_ctime = k->ctime_ns / NSEC_PER_SEC, .st_ctime_nsec = k->ctime_ns % NSEC_PER_SEC,
	};

	return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
}

/* stat of dirfd/path (AT_EMPTY_PATH with "": dirfd itself, or the working directory). */
static int do_statat(int dirfd, const char *upath, int flags, struct kstat *st)
{
	struct at_path at;
	struct file *f;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	if (flags & AT_EMPTY_PATH) {
		err = at_empty_path(dirfd, upath, &f);
		if (err < 0)
			return err;
		if (err && f) {
			err = vfs_fstat(f, st);
			fput(f);
			return err;
		}
		if (err) {
			struct dentry *pwd = fs_get_pwd(current_fs());

			vfs_getattr(pwd, st);
			dput(pwd);
			return 0;
		}
	}
	err = get_at_path(dirfd, upath, &at);
	if (err)
		return err;
	err = vfs_stat(at.dir, at.name, st, !(flags & AT_SYMLINK_NOFOLLOW));
	put_at_path(&at);
	return err;
}

SYSCALL_DEFINE2(stat, const char *, path, struct stat_user *, buf)
{
	struct kstat st;
	int err = do_statat(AT_FDCWD, path, 0, &st);

	return err ? err : put_stat(&st, buf);
}

SYSCALL_DEFINE2(lstat, const char *, path, struct stat_user *, buf)
{
	struct kstat st;
	int err = do_statat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &st);

	return err ? err : put_stat(&st, buf);
}

SYSCALL_DEFINE2(fstat, int, fd, struct stat_user *, buf)
{
	struct kstat st;
	int err = ksys_fstat(fd, &st);

	return err ? err : put_stat(&st, buf);
}

SYSCALL_DEFINE4(newfstatat, int, dirfd, const char *, path, struct stat_user *, buf, int, flags)
{
	struct kstat st;
	int err = do_statat(dirfd, path, flags, &st);

	return err ? err : put_stat(&st, buf);
}

/* Linux's struct statx (256 bytes), the fields Spoor knows. */
struct statx_user {
	u32 stx_mask, stx_blksize;
	u64 stx_attributes;
	u32 stx_nlink, stx_uid, stx_gid;
	u16 stx_mode, spare0;
	u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct { s64 sec; u32 nsec; s32 reserved; } stx_atime, stx_btime, stx_ctime, stx_mtime;
	u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	u64 spare[14];
};
_Static_assert(sizeof(struct statx_user) == 256, "Linux's struct statx");
#define STATX_BASIC_STATS	0x7ff

SYSCALL_DEFINE5(statx, int, dirfd, const char *, path, int, flags, unsigned int, mask,
		struct statx_user *, buf)
{
	struct kstat st;
	struct statx_user x;
	int err = do_statat(dirfd, path, flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT), &st);

	(void)mask;
	if (err)
		return err;
	memset(&x, 0, sizeof(x));
	x.stx_mask = STATX_BASIC_STATS;
	x.stx_blksize = 4096;
	x.stx_nlink = st.nlink;
	x.stx_mode = st.mode;
	x.stx_ino = st.ino;
	x.stx_size = (u64)st.size;
	x.stx_blocks = st.blocks;
	x.stx_atime.sec = (s64)(st.atime_ns / NSEC_PER_SEC);
	x.stx_atime.nsec = (u32)(st.atime_ns % NSEC_PER_SEC);
	x.stx_mtime.sec = (s64)(st.mtime_ns / NSEC_PER_SEC);
	x.stx_mtime.nsec = (u32)(st.mtime_ns % NSEC_PER_SEC);
	x.stx_ctime.sec = (s64)(st.ctime_ns / NSEC_PER_SEC);
	x.stx_ctime.nsec = (u32)(st.ctime_ns % NSEC_PER_SEC);
	x.stx_rdev_major = MAJOR(st.rdev);
	x.stx_rdev_minor = MINOR(st.rdev);
	x.stx_dev_minor = 1;
	return copy_to_user(buf, &x, sizeof(x)) ? -EFAULT : 0;
}

SYSCALL_DEFINE3(getdents64, int, fd, void *, dirp, unsigned int, count)
{
	size_t n = count < BOUNCE ? count : BOUNCE;
	char *k = kmalloc(n ? n : 1, GFP_KERNEL);
	ssize_t r;

	if (!k)
		return -ENOMEM;
	r = ksys_getdents64(fd, k, n);
	if (r > 0 && copy_to_user(dirp, k, (size_t)r))
		r = -EFAULT;
	kfree(k);
	return r;
}

/* The console answers the terminal ioctls a libc asks at start-up; everything else is ENOTTY. */
static long tty_ioctl(unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TIOCGWINSZ: {
		u16 ws[4] = { 24, 80, 0, 0 };

		return copy_to_user((void *)arg, ws, sizeof(ws)) ? -EFAULT : 0;
	}
	case TCGETS: {
		/* c_iflag ICRNL, c_oflag OPOST|ONLCR, c_cflag B38400|CS8|CREAD, c_lflag ISIG|ICANON|ECHO... */
		u32 t[9] = { 0x500, 0x5, 0xbf, 0x8a3b, 0, 0, 0, 0, 0 };

		return copy_to_user((void *)arg, t, sizeof(t)) ? -EFAULT : 0;
	}
	case TIOCGPGRP:
		return put_user(current->signal ? current->signal->pgrp : current->pid, (int *)arg);
	default:
		return -ENOTTY;
	}
}

SYSCALL_DEFINE3(ioctl, int, fd, unsigned int, cmd, unsigned long, arg)
{
	struct file *f = fget(fd);
	long r = -ENOTTY;

	if (!f)
		return -EBADF;
	if (f->f_op && f->f_op->unlocked_ioctl)
		r = f->f_op->unlocked_ioctl(f, cmd, arg);
	else if (f->f_inode && S_ISCHR(f->f_inode->i_mode) &&
		 MAJOR(f->f_inode->i_rdev) == 5)
		r = tty_ioctl(cmd, arg);
	fput(f);
	return r;
}

static long do_pipe2(int *ufds, int flags)
{
	int fds[2], err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = ksys_pipe2(fds, flags & O_NONBLOCK);
	if (err)
		return err;
	if (flags & O_CLOEXEC) {
		set_close_on_exec(current_files(), fds[0], true);
		set_close_on_exec(current_files(), fds[1], true);
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		ksys_close(fds[0]);
		ksys_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

SYSCALL_DEFINE1(pipe, int *, fds)
{
	return do_pipe2(fds, 0);
}

SYSCALL_DEFINE2(pipe2, int *, fds, int, flags)
{
	return do_pipe2(fds, flags);
}

SYSCALL_DEFINE1(dup, int, fd)
{
	return ksys_dup(fd);
}

SYSCALL_DEFINE2(dup2, int, oldfd, int, newfd)
{
	struct file *f;

	if (oldfd == newfd) {
		f = fget(oldfd);
		if (!f)
			return -EBADF;
		fput(f);
		return newfd;
	}
	return ksys_dup2(oldfd, newfd);
}

SYSCALL_DEFINE3(dup3, int, oldfd, int, newfd, int, flags)
{
	int r;

	if (oldfd == newfd || (flags & ~O_CLOEXEC))
		return -EINVAL;
	r = ksys_dup2(oldfd, newfd);
	if (r >= 0 && (flags & O_CLOEXEC))
		set_close_on_exec(current_files(), r, true);
	return r;
}

SYSCALL_DEFINE3(fcntl, int, fd, int, cmd, unsigned long, arg)
{
	struct file *f = fget(fd);
	long r;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		r = arg >= NR_OPEN ? -EINVAL : ksys_dupfd(fd, (int)arg);
		if (r >= 0 && cmd == F_DUPFD_CLOEXEC)
			set_close_on_exec(current_files(), (int)r, true);
		break;
	case F_GETFD:
		r = get_close_on_exec(current_files(), fd) ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		set_close_on_exec(current_files(), fd, arg & FD_CLOEXEC);
		r = 0;
		break;
	case F_GETFL:
		r = f->f_flags | O_LARGEFILE;
		break;
	case F_SETFL:
		/* Only O_APPEND and O_NONBLOCK change after open. */
		f->f_flags = (f->f_flags & ~(unsigned int)(O_APPEND | O_NONBLOCK)) |
			     ((unsigned int)arg & (O_APPEND | O_NONBLOCK));
		r = 0;
		break;
	default:
		r = -EINVAL;
	}
	fput(f);
	return r;
}

SYSCALL_DEFINE4(sendfile, int, out_fd, int, in_fd, loff_t *, uoff, size_t, count)
{
	struct file *in = fget(in_fd), *out = fget(out_fd);
	char *k = kmalloc(BOUNCE, GFP_KERNEL);
	loff_t off = 0, *pos = NULL;
	ssize_t done = 0;

	if (!in || !out) {
		done = -EBADF;
		goto out;
	}
	if (!k) {
		done = -ENOMEM;
		goto out;
	}
	/* A file without operations (a directory, a failed open's leftovers) has f_op NULL. */
	if (!(in->f_mode & FMODE_READ) || !(out->f_mode & FMODE_WRITE) || !in->f_op ||
	    !in->f_op->read || !out->f_op || !out->f_op->write) {
		done = -EBADF;
		goto out;
	}
	if (uoff) {
		if (get_user(off, uoff)) {
			done = -EFAULT;
			goto out;
		}
		pos = &off;
	}
	/* Linux's MAX_RW_COUNT; and a signal ends a long copy with what was done. */
	if (count > 0x7ffff000)
		count = 0x7ffff000;
	while ((size_t)done < count) {
		size_t n = count - (size_t)done < BOUNCE ? count - (size_t)done : BOUNCE;
		ssize_t r, w;

		if (done && signal_pending(current))
			break;
		r = in->f_op->read(in, k, n, pos ? pos : &in->f_pos);

		if (r <= 0) {
			if (!done)
				done = r;
			break;
		}
		w = out->f_op->write(out, k, (size_t)r, &out->f_pos);
		if (w < 0) {
			if (!done)
				done = w;
			break;
		}
		done += w;
		if (w < r)
			break;
	}
	if (pos && put_user(off, uoff))
		done = -EFAULT;
out:
	kfree(k);
	if (in)
		fput(in);
	if (out)
		fput(out);
	return done;
}

SYSCALL_DEFINE2(getcwd, char *, buf, size_t, size)
{
	char *k = kmalloc(PATH_MAX, GFP_KERNEL);
	int n;

	if (!k)
		return -ENOMEM;
	n = ksys_getcwd(k, PATH_MAX);
	if (n >= 0) {
		if ((size_t)n + 1 > size)
			n = -ERANGE;
		else if (copy_to_user(buf, k, (size_t)n + 1))
			n = -EFAULT;
		else
			n++;
	}
	kfree(k);
	return n;
}

/* Everyone is root in Spoor: a path that exists is accessible, except execute on a file without x. */
static long do_faccessat(int dirfd, const char *upath, int mode, int flags)
{
	struct kstat st;
	int err;

	if (mode & ~7)
		return -EINVAL;
	err = do_statat(dirfd, upath, flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH), &st);
	if (err)
		return err;
	if ((mode & 1) && !S_ISDIR(st.mode) && !(st.mode & 0111))
		return -EACCES;
	return 0;
}

SYSCALL_DEFINE2(access, const char *, path, int, mode)
{
	return do_faccessat(AT_FDCWD, path, mode, 0);
}

SYSCALL_DEFINE3(faccessat, int, dirfd, const char *, path, int, mode)
{
	return do_faccessat(dirfd, path, mode, 0);
}

SYSCALL_DEFINE4(faccessat2, int, dirfd, const char *, path, int, mode, int, flags)
{
	return do_faccessat(dirfd, path, mode, flags);
}

SYSCALL_DEFINE1(umask, unsigned int, mask)
{
	struct fs_struct *fs = current_fs();
	unsigned int old = fs->umask;

	fs->umask = mask & 0777;
	return old;
}
