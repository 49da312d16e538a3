/*
 * Changing an inode's attributes: permission bits, size, times, and the
 * fsync a file system with nothing to write back answers. Everyone is
 * root in Spoor, so there is no ownership check; every change stamps
 * ctime, as Linux's notify_change does.
 */
#include <kernel/fs/fs.h>
#include <kernel/errno.h>
#include <kernel/time.h>

void inode_touch_locked(struct inode *inode)
{
	inode->i_mtime_ns = inode->i_ctime_ns = ktime_get_ns();
}

int vfs_chmod(struct inode *inode, umode_t mode)
{
	if (inode->i_flags & S_ONDEMAND)
		return -EPERM;
	spin_lock(&inode->i_lock);
	inode->i_mode = (inode->i_mode & S_IFMT) | (mode & S_IALLUGO);
	inode->i_ctime_ns = ktime_get_ns();
	spin_unlock(&inode->i_lock);
	return 0;
}

/*
 * A pseudo file (tracefs, /proc) has no size to change: Linux's simple
 * attribute code accepts the call there, and so does Spoor, changing
 * nothing. Writes to such files decide their own content.
 */
int vfs_truncate(struct inode *inode, loff_t length)
{
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (length < 0)
		return -EINVAL;
	if (inode->i_fop != &ramfs_file_operations)
		return 0;
	return ramfs_truncate(inode, length);
}

void vfs_utimes(struct inode *inode, u64 atime_ns, u64 mtime_ns)
{
	spin_lock(&inode->i_lock);
	if (atime_ns != UTIME_KEEP)
		inode->i_atime_ns = atime_ns;
	if (mtime_ns != UTIME_KEEP)
		inode->i_mtime_ns = mtime_ns;
	inode->i_ctime_ns = ktime_get_ns();
	spin_unlock(&inode->i_lock);
}

/*
 * ramfs keeps everything in memory, so its files and directories are
 * always "on disk" (Linux's noop_fsync). Pipes, the console, devices and
 * pseudo files have no fsync on Linux: EINVAL.
 */
int vfs_fsync(struct file *f)
{
	struct inode *inode = f->f_inode;

	if (inode->i_fop == &ramfs_file_operations ||
	    inode->i_op == &ramfs_dir_inode_operations)
		return 0;
	return -EINVAL;
}
