/*
 * Pseudo files: files and directories whose contents are kernel code.
 * This is how the rest of the kernel publishes files (/proc, /dev, the
 * tracefs tree):
 *
 *	dir = pseudo_create_dir(NULL, "proc");
 *	pseudo_create_file(dir, "cpuinfo", 0444, &cpuinfo_fops, NULL);
 *
 * A file's struct file_operations gets the bytes: open may set
 * file->private_data (per-open state), read pages through content (see
 * seq_file.h for the print-it-all helper), write receives the user's
 * bytes and returns a negative errno on bad input (the shell prints
 * "write error: <errno text>"), release frees the per-open state. The
 * data given at creation is inode->i_private in every call.
 *
 * Created entries are owned by the tree: the returned dentry is a handle
 * (not a reference) valid until pseudo_remove(). Files still open when
 * removed keep working on their own references, so an owner that frees
 * its data must first refuse removal while files are open (EBUSY), as
 * tracefs instances do.
 *
 * Directories refuse every change from users (EPERM) unless created with
 * inode_operations: mkdir/rmdir hooks (which create and remove with this
 * API themselves) or lookup/iterate for entries produced on demand; those
 * make their entries with the pseudo_new_* calls, which return a
 * referenced dentry that is never attached to the tree.
 */
#ifndef KERNEL_FS_PSEUDO_H
#define KERNEL_FS_PSEUDO_H

#include <kernel/fs/fs.h>

/* parent NULL is the root. Results are ERR_PTR(-EEXIST/-ENOMEM/-ENOTDIR) on failure. */
struct dentry *pseudo_create_dir(struct dentry *parent, const char *name);
struct dentry *pseudo_create_dir_ops(struct dentry *parent, const char *name,
				     const struct inode_operations *iop, void *data);
/* mode: permission bits, with S_IFCHR for a device (default S_IFREG). */
struct dentry *pseudo_create_file(struct dentry *parent, const char *name, umode_t mode,
				  const struct file_operations *fops, void *data);
struct dentry *pseudo_create_symlink(struct dentry *parent, const char *name,
				     const char *target);
/* Remove d and everything under it. */
void pseudo_remove(struct dentry *d);
/* The dentry at an absolute path, referenced (dput it), or ERR_PTR. */
struct dentry *pseudo_lookup(const char *path);

/* Detached entries for lookup hooks (referenced; NULL without memory). */
struct dentry *pseudo_new_dir(struct dentry *parent, const char *name,
			      const struct inode_operations *iop, void *data);
struct dentry *pseudo_new_file(struct dentry *parent, const char *name, umode_t mode,
			       const struct file_operations *fops, void *data);
struct dentry *pseudo_new_symlink(struct dentry *parent, const char *name, const char *target);

/*
 * A fixed set of files in a dynamic directory (the entries of
 * /proc/<pid>): lookup and iterate hooks serve them from a table, each
 * file getting the directory's i_private as its data.
 */
struct pseudo_entry {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};
struct dentry *pseudo_table_lookup(struct dentry *dir, const char *name,
				   const struct pseudo_entry *table, size_t n);
int pseudo_table_iterate(struct dentry *dir, struct dir_context *ctx,
			 const struct pseudo_entry *table, size_t n);

#endif
