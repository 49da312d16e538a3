/*
 * ramfs: the writable file system of / and /tmp. Directories are the
 * dentry tree itself; a file's data is a table of 4 KiB blocks that grows
 * as it is written (a block never written reads as zeros).
 */
#include <kernel/fs/fs.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/time.h>

/* Bigger than any RAM Spoor runs with; keeps offsets far from overflow. */
#define RAMFS_MAX_FILE_SIZE	((loff_t)1 << 40)

struct inode *ramfs_get_inode(umode_t mode)
{
	struct inode *inode = new_inode(mode);

	if (!inode)
		return NULL;
	if (S_ISDIR(mode))
		inode->i_op = &ramfs_dir_inode_operations;
	else if (S_ISREG(mode))
		inode->i_fop = &ramfs_file_operations;
	return inode;
}

/* Whether ramfs may remove or move it: pseudo trees under / stay put. */
static bool ramfs_owns(struct inode *inode)
{
	return inode->i_op == &ramfs_dir_inode_operations ||
	       inode->i_fop == &ramfs_file_operations || S_ISLNK(inode->i_mode);
}

static struct dentry *ramfs_add(struct dentry *dir, const char *name, umode_t mode,
				const char *link)
{
	struct inode *inode = ramfs_get_inode(mode);
	struct dentry *d;
	int err;

	if (inode && link) {
		inode->i_link = kstrdup(link, GFP_KERNEL);
		inode->i_size = (loff_t)strlen(link);
		if (!inode->i_link) {
			iput(inode);
			inode = NULL;
		}
	}
	d = inode ? d_alloc(dir, name, strlen(name), inode) : NULL;
	if (!d)
		return ERR_PTR(-ENOMEM);
	err = d_add(d);
	if (err) {
		dput(d);
		return ERR_PTR(err);
	}
	return d;
}

static struct dentry *ramfs_create(struct dentry *dir, const char *name, umode_t mode)
{
	return ramfs_add(dir, name, S_IFREG | (mode & S_IALLUGO), NULL);
}

static int ramfs_put_new(struct dentry *d)
{
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	dput(d);
	return 0;
}

static int ramfs_mkdir(struct dentry *dir, const char *name, umode_t mode)
{
	return ramfs_put_new(ramfs_add(dir, name, S_IFDIR | (mode & S_IALLUGO), NULL));
}

static int ramfs_symlink(struct dentry *dir, const char *name, const char *target)
{
	return ramfs_put_new(ramfs_add(dir, name, S_IFLNK | 0777, target));
}

/* Adds delta to the inode's link count, unless it has no name left (ENOENT). */
static int ramfs_nlink_add(struct inode *inode, int delta)
{
	int err = 0;

	spin_lock(&inode->i_lock);
	if (!inode->i_nlink)
		err = -ENOENT;	/* removed while open: it may not come back (no O_TMPFILE) */
	else
		inode->i_nlink += (unsigned int)delta;
	inode->i_ctime_ns = ktime_get_ns();
	spin_unlock(&inode->i_lock);
	return err;
}

/* A second name for old's inode: a new dentry sharing it. */
static int ramfs_link(struct dentry *old, struct dentry *dir, const char *name)
{
	struct inode *inode = old->d_inode;
	struct dentry *d;
	int err;

	if (!ramfs_owns(inode))
		return -EXDEV;
	err = ramfs_nlink_add(inode, 1);
	if (err)
		return err;
	d = d_alloc(dir, name, strlen(name), igrab(inode));
	err = d ? d_add(d) : -ENOMEM;
	if (err)
		ramfs_nlink_add(inode, -1);
	dput(d);
	return err;
}

/*
 * Caller holds dcache_lock; the tree's reference is the caller's to drop.
 * The inode loses a name: an open file keeps it, with st_nlink 0 once the
 * last name is gone, as on Linux.
 */
static void detach_locked(struct dentry *d)
{
	struct inode *inode = d->d_inode;

	list_del_init(&d->d_child);
	d->d_flags &= ~DCACHE_ATTACHED;
	ramfs_nlink_add(inode, -1);
}

static bool child_of(struct dentry *d, struct dentry *dir)
{
	return (d->d_flags & DCACHE_ATTACHED) && d->d_parent == dir;
}

static int ramfs_remove(struct dentry *dir, struct dentry *victim)
{
	int err = 0;

	if (!ramfs_owns(victim->d_inode))
		return d_is_dir(victim) ? -EBUSY : -EPERM;
	spin_lock(&dcache_lock);
	if (!child_of(victim, dir))
		err = -ENOENT;
	else if (!list_empty(&victim->d_subdirs))
		err = -ENOTEMPTY;
	else
		detach_locked(victim);
	spin_unlock(&dcache_lock);
	if (!err)
		dput(victim);
	return err;
}

static int ramfs_rename(struct dentry *old_dir, struct dentry *old, struct dentry *new_dir,
			const char *new_name, unsigned int flags)
{
	char *name = kstrdup(new_name, GFP_KERNEL), *swap_name;
	struct dentry *target, *put_target = NULL, *put_parent = NULL;
	int err = 0;

	if (!name)
		return -ENOMEM;
	if (!ramfs_owns(old->d_inode)) {
		kfree(name);
		return -EBUSY;
	}
	spin_lock(&dcache_lock);
	if (!child_of(old, old_dir)) {
		err = -ENOENT;
		goto unlock;
	}
	if (d_is_dir(old)) {
		for (struct dentry *p = new_dir;; p = p->d_parent) {
			if (p == old) {
				err = -EINVAL;	/* into its own subtree */
				goto unlock;
			}
			if (p == p->d_parent)
				break;
		}
	}
	target = __d_lookup(new_dir, name, strlen(name));
	if (target && (flags & RENAME_NOREPLACE)) {
		err = -EEXIST;
		goto unlock;
	}
	/* Two names of one inode: Linux does nothing and says 0. */
	if (target && target->d_inode == old->d_inode)
		goto unlock;
	if (target) {
		if (d_is_dir(old) && !d_is_dir(target))
			err = -ENOTDIR;
		else if (!d_is_dir(old) && d_is_dir(target))
			err = -EISDIR;
		else if (!list_empty(&target->d_subdirs))
			err = -ENOTEMPTY;
		else if (!ramfs_owns(target->d_inode))
			err = -EBUSY;
		if (err)
			goto unlock;
		detach_locked(target);
		put_target = target;
	}
	list_del_init(&old->d_child);
	swap_name = old->d_name;
	old->d_name = name;
	old->d_hash = d_name_hash(name, strlen(name));
	name = swap_name;	/* the old name, freed below */
	if (new_dir != old_dir) {
		put_parent = old->d_parent;
		old->d_parent = dget(new_dir);
	}
	list_add_tail(&old->d_child, &new_dir->d_subdirs);
unlock:
	spin_unlock(&dcache_lock);
	kfree(name);
	dput(put_target);
	dput(put_parent);
	return err;
}

const struct inode_operations ramfs_dir_inode_operations = {
	.create = ramfs_create,
	.mkdir = ramfs_mkdir,
	.rmdir = ramfs_remove,
	.unlink = ramfs_remove,
	.symlink = ramfs_symlink,
	.link = ramfs_link,
	.rename = ramfs_rename,
};

static ssize_t ramfs_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct inode *inode = file->f_inode;
	struct ramfs_data *data = &inode->i_data;
	size_t done = 0;

	spin_lock(&inode->i_lock);
	if (*pos < inode->i_size)
		count = (size_t)min((loff_t)count, inode->i_size - *pos);
	else
		count = 0;
	while (done < count) {
		loff_t at = *pos + (loff_t)done;
		size_t bi = (size_t)(at / RAMFS_BLOCK_SIZE), off = (size_t)(at % RAMFS_BLOCK_SIZE);
		size_t n = min(count - done, RAMFS_BLOCK_SIZE - off);

		if (bi < data->nr_blocks && data->blocks[bi])
			memcpy(buf + done, data->blocks[bi] + off, n);
		else
			memset(buf + done, 0, n);
		done += n;
	}
	*pos += (loff_t)done;
	spin_unlock(&inode->i_lock);
	return (ssize_t)done;
}

/* Make room for nr blocks in the table. Caller holds i_lock. */
static int grow_table(struct ramfs_data *data, size_t nr)
{
	size_t cap = data->nr_blocks ? data->nr_blocks : 8;
	char **blocks;

	if (nr <= data->nr_blocks)
		return 0;
	while (cap < nr)
		cap *= 2;
	blocks = krealloc(data->blocks, cap * sizeof(*blocks), GFP_KERNEL);
	if (!blocks)
		return -ENOMEM;
	memset(blocks + data->nr_blocks, 0, (cap - data->nr_blocks) * sizeof(*blocks));
	data->blocks = blocks;
	data->nr_blocks = cap;
	return 0;
}

static ssize_t ramfs_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct inode *inode = file->f_inode;
	struct ramfs_data *data = &inode->i_data;
	size_t done = 0;
	int err = 0;

	spin_lock(&inode->i_lock);
	if (file->f_flags & O_APPEND)
		*pos = inode->i_size;
	if (*pos >= RAMFS_MAX_FILE_SIZE) {
		err = -EFBIG;
		goto out;
	}
	count = (size_t)min((loff_t)count, RAMFS_MAX_FILE_SIZE - *pos);
	if (count)
		err = grow_table(data, (size_t)DIV_ROUND_UP(*pos + (loff_t)count, RAMFS_BLOCK_SIZE));
	while (!err && done < count) {
		loff_t at = *pos + (loff_t)done;
		size_t bi = (size_t)(at / RAMFS_BLOCK_SIZE), off = (size_t)(at % RAMFS_BLOCK_SIZE);
		size_t n = min(count - done, RAMFS_BLOCK_SIZE - off);

		if (!data->blocks[bi]) {
			data->blocks[bi] = kzalloc(RAMFS_BLOCK_SIZE, GFP_KERNEL);
			if (!data->blocks[bi]) {
				err = -ENOMEM;
				break;
			}
		}
		memcpy(data->blocks[bi] + off, buf + done, n);
		done += n;
	}
	*pos += (loff_t)done;
	if (*pos > inode->i_size)
		inode->i_size = *pos;
	if (done)
		inode_touch_locked(inode);
out:
	spin_unlock(&inode->i_lock);
	return done ? (ssize_t)done : err;
}

int ramfs_truncate(struct inode *inode, loff_t size)
{
	struct ramfs_data *data = &inode->i_data;
	size_t keep = (size_t)DIV_ROUND_UP(size, RAMFS_BLOCK_SIZE);

	if (size < 0)
		return -EINVAL;
	if (size >= RAMFS_MAX_FILE_SIZE)
		return -EFBIG;
	spin_lock(&inode->i_lock);
	for (size_t i = keep; i < data->nr_blocks; i++) {
		kfree(data->blocks[i]);
		data->blocks[i] = NULL;
	}
	/* Bytes past the new end must read as zeros if the file grows again. */
	if (size % RAMFS_BLOCK_SIZE && keep - 1 < data->nr_blocks && data->blocks[keep - 1])
		memset(data->blocks[keep - 1] + size % RAMFS_BLOCK_SIZE, 0,
		       RAMFS_BLOCK_SIZE - (size_t)(size % RAMFS_BLOCK_SIZE));
	inode->i_size = size;
	inode_touch_locked(inode);
	spin_unlock(&inode->i_lock);
	return 0;
}

const struct file_operations ramfs_file_operations = {
	.read = ramfs_read,
	.write = ramfs_write,
	.llseek = generic_file_llseek,
};
