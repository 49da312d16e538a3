/*
 * Open files: open(2)'s flag semantics, reference counts, and read, write
 * and lseek with a shared offset.
 */
#include <kernel/fs/fs.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/string.h>
#include <kernel/errno.h>

/* Linux's cap on one read or write: INT_MAX rounded down to a page. */
#define MAX_RW_COUNT	0x7ffff000UL

static unsigned int open_fmode(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return FMODE_READ;
	case O_WRONLY:
		return FMODE_WRITE;
	default:
		return FMODE_READ | FMODE_WRITE;
	}
}

/* The file to open, creating it with O_CREAT; a referenced dentry. */
static struct dentry *open_lookup(struct dentry *cwd, const char *path, int flags, umode_t mode)
{
	unsigned int lookup = 0;
	char last[NAME_MAX + 1];
	struct dentry *d, *dir;
	bool slash;

	if (!(flags & O_NOFOLLOW) && !((flags & O_CREAT) && (flags & O_EXCL)))
		lookup |= LOOKUP_FOLLOW;
	if (flags & O_DIRECTORY)
		lookup |= LOOKUP_DIRECTORY;
	d = path_lookup(cwd, path, lookup);
	if (!(flags & O_CREAT))
		return d;
	if (!IS_ERR(d) && (flags & O_EXCL)) {
		dput(d);
		return ERR_PTR(-EEXIST);
	}
	if (!IS_ERR(d))
		return d;
	if (PTR_ERR(d) != -ENOENT)
		return d;
	dir = path_parent(cwd, path, last, &slash);
	if (IS_ERR(dir))
		return dir;
	if (slash)
		d = ERR_PTR(-EISDIR);
	else if (!dir->d_inode->i_op || !dir->d_inode->i_op->create)
		d = ERR_PTR(-EACCES);	/* Linux's vfs_create: a directory that takes no files */
	else
		d = dir->d_inode->i_op->create(dir, last, mode & S_IALLUGO);
	dput(dir);
	/* Someone else created it first: open theirs, unless we must be first. */
	if (PTR_ERR(d) == -EEXIST && !(flags & O_EXCL))
		d = path_lookup(cwd, path, lookup);
	return d;
}

struct file *vfs_open(struct dentry *cwd, const char *path, int flags, umode_t mode)
{
	struct dentry *d;
	struct inode *inode;
	struct file *f;
	int err = 0;

	if ((flags & O_ACCMODE) == O_ACCMODE)
		return ERR_PTR(-EINVAL);
	d = open_lookup(cwd, path, flags, mode);
	if (IS_ERR(d))
		return (struct file *)d;
	inode = d->d_inode;
	if (S_ISLNK(inode->i_mode))
		err = -ELOOP;	/* O_NOFOLLOW on a symlink */
	else if (S_ISDIR(inode->i_mode) && ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT)))
		err = -EISDIR;
	if (!err && (flags & O_TRUNC) && (open_fmode(flags) & FMODE_WRITE) &&
	    inode->i_fop == &ramfs_file_operations)
		err = ramfs_truncate(inode, 0);
	if (err) {
		dput(d);
		return ERR_PTR(err);
	}
	f = alloc_file(igrab(inode), (unsigned int)flags, inode->i_fop);
	if (IS_ERR(f)) {
		dput(d);
		return f;
	}
	/* A named file holds its dentry, and through it the inode. */
	iput(inode);
	f->f_dentry = d;
	if (f->f_op && f->f_op->open) {
		err = f->f_op->open(inode, f);
		if (err) {
			f->f_op = NULL;	/* no release for a failed open */
			fput(f);
			return ERR_PTR(err);
		}
	}
	return f;
}

struct file *alloc_file(struct inode *inode, unsigned int flags,
			const struct file_operations *fop)
{
	struct file *f = kmem_cache_zalloc(filp_cachep, GFP_KERNEL);

	if (!f) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	atomic_set(&f->f_count, 1);
	mutex_init(&f->f_pos_lock);
	f->f_flags = flags;
	f->f_mode = open_fmode((int)flags);
	if (inode && (S_ISDIR(inode->i_mode) || inode->i_fop == &ramfs_file_operations))
		f->f_mode |= FMODE_ATOMIC_POS;
	f->f_inode = inode;
	f->f_op = fop;
	return f;
}

struct file *get_file(struct file *f)
{
	atomic_inc(&f->f_count);
	return f;
}

void fput(struct file *f)
{
	if (!f || !atomic_dec_and_test(&f->f_count))
		return;
	if (f->f_op && f->f_op->release)
		f->f_op->release(f->f_inode, f);
	if (f->f_dentry)
		dput(f->f_dentry);
	else
		iput(f->f_inode);
	kmem_cache_free(filp_cachep, f);
}

ssize_t vfs_read(struct file *f, char *buf, size_t count, loff_t *pos)
{
	if (!(f->f_mode & FMODE_READ))
		return -EBADF;
	if (S_ISDIR(f->f_inode->i_mode))
		return -EISDIR;
	if (!f->f_op || !f->f_op->read)
		return -EINVAL;
	if (!count)
		return 0;
	return f->f_op->read(f, buf, min(count, MAX_RW_COUNT), pos);
}

ssize_t vfs_write(struct file *f, const char *buf, size_t count, loff_t *pos)
{
	if (!(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!f->f_op || !f->f_op->write)
		return -EINVAL;
	if (!count)
		return 0;
	return f->f_op->write(f, buf, min(count, MAX_RW_COUNT), pos);
}

static loff_t set_pos(struct file *f, loff_t base, loff_t offset)
{
	if (offset > 0 && base > (loff_t)(((u64)1 << 63) - 1) - offset)
		return -EOVERFLOW;
	if (base + offset < 0)
		return -EINVAL;
	f->f_pos = base + offset;
	return f->f_pos;
}

loff_t generic_file_llseek(struct file *f, loff_t offset, int whence)
{
	loff_t size;

	switch (whence) {
	case SEEK_SET:
		return set_pos(f, 0, offset);
	case SEEK_CUR:
		return set_pos(f, f->f_pos, offset);
	case SEEK_END:
		spin_lock(&f->f_inode->i_lock);
		size = f->f_inode->i_size;
		spin_unlock(&f->f_inode->i_lock);
		return set_pos(f, size, offset);
	default:
		return -EINVAL;
	}
}

loff_t noop_llseek(struct file *f, loff_t offset, int whence)
{
	return f->f_pos;
}

loff_t vfs_llseek(struct file *f, loff_t offset, int whence)
{
	/* A directory offset is an entry index: rewinddir and telldir only. */
	if (S_ISDIR(f->f_inode->i_mode))
		return whence == SEEK_SET ? set_pos(f, 0, offset) :
		       whence == SEEK_CUR ? set_pos(f, f->f_pos, offset) : -EINVAL;
	if (!f->f_op || !f->f_op->llseek)
		return -ESPIPE;
	return f->f_op->llseek(f, offset, whence);
}

int vfs_fstat(struct file *f, struct kstat *st)
{
	if (f->f_dentry)
		vfs_getattr(f->f_dentry, st);
	else
		generic_fillattr(f->f_inode, st);
	return 0;
}
