/*
 * Pseudo files: inodes whose operations belong to their creator, placed
 * in the one tree like any other entry.
 */
#include <kernel/fs/pseudo.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/errno.h>

static struct dentry *new_entry(struct dentry *parent, const char *name, umode_t mode,
				void *data)
{
	struct inode *inode = new_inode(mode);

	if (!inode)
		return NULL;
	inode->i_private = data;
	inode->i_flags = S_ONDEMAND;	/* until attach() puts it in the tree */
	return d_alloc(parent, name, strlen(name), inode);
}

struct dentry *pseudo_new_dir(struct dentry *parent, const char *name,
			      const struct inode_operations *iop, void *data)
{
	struct dentry *d = new_entry(parent, name, S_IFDIR | 0755, data);

	if (d)
		d->d_inode->i_op = iop;
	return d;
}

struct dentry *pseudo_new_file(struct dentry *parent, const char *name, umode_t mode,
			       const struct file_operations *fops, void *data)
{
	struct dentry *d;

	if (!(mode & S_IFMT))
		mode |= S_IFREG;
	d = new_entry(parent, name, mode, data);
	if (d)
		d->d_inode->i_fop = fops;
	return d;
}

struct dentry *pseudo_new_symlink(struct dentry *parent, const char *name, const char *target)
{
	char *link = kstrdup(target, GFP_KERNEL);
	struct dentry *d = link ? new_entry(parent, name, S_IFLNK | 0777, NULL) : NULL;

	if (!d) {
		kfree(link);
		return NULL;
	}
	d->d_inode->i_link = link;
	d->d_inode->i_size = (loff_t)strlen(link);
	return d;
}

/* Attach a new entry; the tree keeps it and the caller gets a handle. */
static struct dentry *attach(struct dentry *d)
{
	int err;

	if (!d)
		return ERR_PTR(-ENOMEM);
	d->d_inode->i_flags &= ~S_ONDEMAND;
	err = d_add(d);
	dput(d);
	return err ? ERR_PTR(err) : d;
}

static struct dentry *parent_dir(struct dentry *parent)
{
	if (!parent)
		return root_dentry;
	return d_is_dir(parent) ? parent : ERR_PTR(-ENOTDIR);
}

struct dentry *pseudo_create_dir_ops(struct dentry *parent, const char *name,
				     const struct inode_operations *iop, void *data)
{
	parent = parent_dir(parent);
	if (IS_ERR(parent))
		return parent;
	return attach(pseudo_new_dir(parent, name, iop, data));
}

struct dentry *pseudo_create_dir(struct dentry *parent, const char *name)
{
	return pseudo_create_dir_ops(parent, name, NULL, NULL);
}

struct dentry *pseudo_create_file(struct dentry *parent, const char *name, umode_t mode,
				  const struct file_operations *fops, void *data)
{
	parent = parent_dir(parent);
	if (IS_ERR(parent))
		return parent;
	return attach(pseudo_new_file(parent, name, mode, fops, data));
}

struct dentry *pseudo_create_symlink(struct dentry *parent, const char *name,
				     const char *target)
{
	parent = parent_dir(parent);
	if (IS_ERR(parent))
		return parent;
	return attach(pseudo_new_symlink(parent, name, target));
}

void pseudo_remove(struct dentry *d)
{
	struct dentry *child;

	if (IS_ERR_OR_NULL(d))
		return;
	for (;;) {
		spin_lock(&dcache_lock);
		child = list_first_entry_or_null(&d->d_subdirs, struct dentry, d_child);
		if (child)
			dget(child);
		spin_unlock(&dcache_lock);
		if (!child)
			break;
		pseudo_remove(child);
		dput(child);
	}
	d_delete(d);
}

struct dentry *pseudo_lookup(const char *path)
{
	return path_lookup(root_dentry, path, LOOKUP_FOLLOW);
}

struct dentry *pseudo_table_lookup(struct dentry *dir, const char *name,
				   const struct pseudo_entry *table, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].name, name))
			return pseudo_new_file(dir, name, table[i].mode, table[i].fops,
					       dir->d_inode->i_private);
	return NULL;
}

int pseudo_table_iterate(struct dentry *dir, struct dir_context *ctx,
			 const struct pseudo_entry *table, size_t n)
{
	/* No inode exists until a lookup: number them after the directory. */
	for (; ctx->pos >= 0 && (size_t)ctx->pos < n; ctx->pos++) {
		const struct pseudo_entry *e = &table[ctx->pos];

		if (!dir_emit(ctx, e->name, (int)strlen(e->name),
			      dir->d_inode->i_ino + 1 + (u64)ctx->pos,
			      dt_type(e->mode & S_IFMT ? e->mode : e->mode | S_IFREG)))
			break;
	}
	return 0;
}
