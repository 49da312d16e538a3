/*
 * Inodes and dentries: allocation, reference counts and the tree. A
 * dentry's last reference frees it, drops its inode and its parent; the
 * inode's last reference frees whatever data its type keeps.
 */
#include <kernel/fs/fs.h>
#include <kernel/slab.h>
#include <kernel/caches.h>
#include <kernel/fs/fdtable.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/time.h>

DEFINE_SPINLOCK(dcache_lock);
struct dentry *root_dentry;

struct kmem_cache *files_cachep, *fs_cachep, *filp_cachep, *dentry_cachep, *inode_cachep;
struct kmem_cache *names_cachep;

/* The caches of open files, descriptor tables, cwds, names and inodes, as Linux names them. */
void vfs_caches_init(void)
{
	files_cachep = kmem_cache_create("files_cache", sizeof(struct files_struct), 0,
					 SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
	fs_cachep = kmem_cache_create("fs_cache", sizeof(struct fs_struct), 0,
				      SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
	filp_cachep = kmem_cache_create("filp", sizeof(struct file), 0,
					SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
	dentry_cachep = KMEM_CACHE(dentry, SLAB_PANIC);
	inode_cachep = kmem_cache_create("inode_cache", sizeof(struct inode), 0, SLAB_PANIC, NULL);
	names_cachep = kmem_cache_create("names_cache", PATH_MAX, 0,
					 SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL);
}
static atomic_t last_ino = ATOMIC_INIT(0);

struct inode *new_inode(umode_t mode)
{
	struct inode *inode = kmem_cache_zalloc(inode_cachep, GFP_KERNEL);

	if (!inode)
		return NULL;
	inode->i_ino = (unsigned long)atomic_inc_return(&last_ino);
	inode->i_mode = mode;
	atomic_set(&inode->i_count, 1);
	spin_lock_init(&inode->i_lock);
	inode->i_nlink = 1;
	inode->i_atime_ns = inode->i_mtime_ns = inode->i_ctime_ns = ktime_get_ns();
	return inode;
}

struct inode *igrab(struct inode *inode)
{
	atomic_inc(&inode->i_count);
	return inode;
}

static void ramfs_free_data(struct ramfs_data *data)
{
	for (size_t i = 0; i < data->nr_blocks; i++)
		kfree(data->blocks[i]);
	kfree(data->blocks);
}

void iput(struct inode *inode)
{
	if (!inode || !atomic_dec_and_test(&inode->i_count))
		return;
	switch (inode->i_mode & S_IFMT) {
	case S_IFREG:
		if (inode->i_fop == &ramfs_file_operations)
			ramfs_free_data(&inode->i_data);
		break;
	case S_IFLNK:
		kfree(inode->i_link);
		break;
	}
	kmem_cache_free(inode_cachep, inode);
}

u32 d_name_hash(const char *name, size_t len)
{
	u32 h = (u32)len;	/* FNV-1a, seeded with the length */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (u8)name[i]) * 16777619u;
	return h;
}

struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len,
		       struct inode *inode)
{
	struct dentry *d = kmem_cache_zalloc(dentry_cachep, GFP_KERNEL);

	if (d) {
		d->d_name = kstrndup(name, len, GFP_KERNEL);
		d->d_hash = d_name_hash(name, len);
	}
	if (!d || !d->d_name) {
		kmem_cache_free(dentry_cachep, d);
		iput(inode);
		return NULL;
	}
	atomic_set(&d->d_count, 1);
	d->d_inode = inode;
	d->d_parent = parent ? dget(parent) : d;
	INIT_LIST_HEAD(&d->d_child);
	INIT_LIST_HEAD(&d->d_subdirs);
	return d;
}

struct dentry *dget(struct dentry *d)
{
	atomic_inc(&d->d_count);
	return d;
}

void dput(struct dentry *d)
{
	while (d && atomic_dec_and_test(&d->d_count)) {
		struct dentry *parent = d->d_parent;

		iput(d->d_inode);
		kfree(d->d_name);
		kmem_cache_free(dentry_cachep, d);
		d = parent == d ? NULL : parent;
	}
}

struct dentry *__d_lookup(struct dentry *dir, const char *name, size_t len)
{
	struct dentry *child;
	u32 hash = d_name_hash(name, len);

	list_for_each_entry(child, &dir->d_subdirs, d_child)
		if (child->d_hash == hash && !strncmp(child->d_name, name, len) &&
		    !child->d_name[len])
			return child;
	return NULL;
}

struct dentry *d_lookup(struct dentry *dir, const char *name, size_t len)
{
	struct dentry *child;

	spin_lock(&dcache_lock);
	child = __d_lookup(dir, name, len);
	if (child)
		dget(child);
	spin_unlock(&dcache_lock);
	return child;
}

int d_add(struct dentry *d)
{
	struct dentry *dir = d->d_parent;
	int err = 0;

	spin_lock(&dcache_lock);
	if (__d_lookup(dir, d->d_name, strlen(d->d_name))) {
		err = -EEXIST;
	} else {
		list_add_tail(&d->d_child, &dir->d_subdirs);
		d->d_flags |= DCACHE_ATTACHED;
		dget(d);
	}
	spin_unlock(&dcache_lock);
	return err;
}

void d_delete(struct dentry *d)
{
	bool was_attached;

	spin_lock(&dcache_lock);
	was_attached = d->d_flags & DCACHE_ATTACHED;
	if (was_attached) {
		list_del_init(&d->d_child);
		d->d_flags &= ~DCACHE_ATTACHED;
	}
	spin_unlock(&dcache_lock);
	if (was_attached)
		dput(d);
}

/* Is d still in the tree: it and each ancestor on its parent's list? */
bool d_attached(const struct dentry *d)
{
	bool attached = true;

	spin_lock(&dcache_lock);
	for (; attached && d->d_parent != d; d = d->d_parent)
		attached = d->d_flags & DCACHE_ATTACHED;
	spin_unlock(&dcache_lock);
	return attached;
}

bool d_is_dir(const struct dentry *d)
{
	return S_ISDIR(d->d_inode->i_mode);
}

int d_path(struct dentry *d, char *buf, size_t size)
{
	size_t end = size, len;

	if (size < 2)
		return -ENAMETOOLONG;
	buf[--end] = '\0';
	spin_lock(&dcache_lock);
	for (; d->d_parent != d; d = d->d_parent) {
		len = strlen(d->d_name);
		if (len + 1 > end) {
			spin_unlock(&dcache_lock);
			return -ENAMETOOLONG;
		}
		end -= len;
		memcpy(buf + end, d->d_name, len);
		buf[--end] = '/';
	}
	spin_unlock(&dcache_lock);
	if (end == size - 1)
		buf[--end] = '/';
	memmove(buf, buf + end, size - end);
	return (int)(size - end - 1);
}

int vfs_init(void)
{
	struct inode *inode;

	if (root_dentry)
		return 0;
	if (!dentry_cachep)
		vfs_caches_init();
	inode = ramfs_get_inode(S_IFDIR | 0755);
	root_dentry = inode ? d_alloc(NULL, "/", 1, inode) : NULL;
	if (!root_dentry)
		return -ENOMEM;
	root_dentry->d_flags |= DCACHE_ATTACHED;
	return 0;
}
