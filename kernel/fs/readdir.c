/*
 * Reading directories. A directory's offset counts entries: 0 is ".", 1
 * is "..", then the stored children in creation order, then the entries
 * a dynamic directory produces. Entries created or removed between two
 * reads may shift the ones after them, as on Linux's ramfs.
 */
#include <kernel/fs/fs.h>
#include <kernel/string.h>
#include <kernel/errno.h>

unsigned int dt_type(umode_t mode)
{
	return (mode & S_IFMT) >> 12;	/* DT_* are the S_IF* type bits shifted */
}

/* The index-th stored child's name and inode number, if there is one. */
static bool nth_child(struct dentry *dir, loff_t index, char name[NAME_MAX + 1],
		      u64 *ino, unsigned int *type)
{
	struct dentry *child;
	bool found = false;

	spin_lock(&dcache_lock);
	list_for_each_entry(child, &dir->d_subdirs, d_child) {
		if (index-- == 0) {
			strscpy(name, child->d_name, NAME_MAX + 1);
			*ino = child->d_inode->i_ino;
			*type = dt_type(child->d_inode->i_mode);
			found = true;
			break;
		}
	}
	spin_unlock(&dcache_lock);
	return found;
}

static loff_t nr_children(struct dentry *dir)
{
	struct dentry *child;
	loff_t n = 0;

	spin_lock(&dcache_lock);
	list_for_each_entry(child, &dir->d_subdirs, d_child)
		n++;
	spin_unlock(&dcache_lock);
	return n;
}

int vfs_readdir(struct file *file, struct dir_context *ctx)
{
	struct dentry *dir = file->f_dentry;
	const struct inode_operations *iop;
	char name[NAME_MAX + 1];
	unsigned int type;
	loff_t base;
	u64 ino;
	int err = 0;

	if (!dir || !d_is_dir(dir))
		return -ENOTDIR;
	ctx->pos = file->f_pos;
	if (ctx->pos == 0) {
		if (!dir_emit(ctx, ".", 1, dir->d_inode->i_ino, DT_DIR))
			goto out;
		ctx->pos++;
	}
	if (ctx->pos == 1) {
		spin_lock(&dcache_lock);
		ino = dir->d_parent->d_inode->i_ino;
		spin_unlock(&dcache_lock);
		if (!dir_emit(ctx, "..", 2, ino, DT_DIR))
			goto out;
		ctx->pos++;
	}
	while (nth_child(dir, ctx->pos - 2, name, &ino, &type)) {
		if (!dir_emit(ctx, name, (int)strlen(name), ino, type))
			goto out;
		ctx->pos++;
	}
	iop = dir->d_inode->i_op;
	if (iop && iop->iterate) {
		/* The hook counts from 0 over its own entries. */
		base = 2 + nr_children(dir);
		if (ctx->pos >= base) {
			ctx->pos -= base;
			err = iop->iterate(dir, ctx);
			ctx->pos += base;
		}
	}
out:
	file->f_pos = ctx->pos;
	return err;
}

struct getdents_ctx {
	struct dir_context ctx;
	char *buf;
	size_t count, used;
	bool full;	/* an entry did not fit */
};

static bool filldir64(struct dir_context *ctx, const char *name, int namelen, loff_t pos,
		      u64 ino, unsigned int type)
{
	struct getdents_ctx *g = container_of(ctx, struct getdents_ctx, ctx);
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + (size_t)namelen + 1,
				 sizeof(u64));
	struct linux_dirent64 *de;

	if (g->used + reclen > g->count) {
		g->full = true;
		return false;
	}
	de = (struct linux_dirent64 *)(g->buf + g->used);
	de->d_ino = ino;
	de->d_off = pos + 1;	/* where the next read starts */
	de->d_reclen = (unsigned short)reclen;
	de->d_type = (unsigned char)type;
	memcpy(de->d_name, name, (size_t)namelen);
	memset(de->d_name + namelen, 0, reclen - offsetof(struct linux_dirent64, d_name) -
	       (size_t)namelen);
	g->used += reclen;
	return true;
}

ssize_t vfs_getdents64(struct file *dir, void *buf, size_t count)
{
	struct getdents_ctx g = { .ctx.actor = filldir64, .buf = buf, .count = count };
	int err = vfs_readdir(dir, &g.ctx);

	if (err < 0)
		return err;
	/* Not even one entry fits: Linux's answer to a too-small buffer. */
	if (!g.used && g.full)
		return -EINVAL;
	return (ssize_t)g.used;
}
