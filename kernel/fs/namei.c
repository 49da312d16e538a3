/*
 * Path names: walking the tree one component at a time (".", "..",
 * repeated slashes, symlinks) and the namespace calls built on it, with
 * Linux's errors: ENOENT, ENOTDIR, EEXIST, EISDIR, ENAMETOOLONG, ELOOP.
 */
#include <kernel/fs/fs.h>
#include <kernel/string.h>
#include <kernel/errno.h>

/* Linux's limits: links followed in one lookup, and nested inside each other. */
#define MAXSYMLINKS	40
#define MAX_NESTED_LINKS 8

struct nameidata {
	int total_links;	/* symlinks followed so far */
};

static bool is_dot(const char *name, size_t len)
{
	return len == 1 && name[0] == '.';
}

static bool is_dotdot(const char *name, size_t len)
{
	return len == 2 && name[0] == '.' && name[1] == '.';
}

/* The child called name[0..len) of dir, referenced; dynamic entries included. */
static struct dentry *lookup_one(struct dentry *dir, const char *name, size_t len)
{
	const struct inode_operations *iop = dir->d_inode->i_op;
	char buf[NAME_MAX + 1];
	struct dentry *d;

	if (!d_is_dir(dir))
		return ERR_PTR(-ENOTDIR);
	if (!len || is_dot(name, len))	/* the empty name is path_parent's "/" */
		return dget(dir);
	if (is_dotdot(name, len)) {
		spin_lock(&dcache_lock);
		d = dget(dir->d_parent);
		spin_unlock(&dcache_lock);
		return d;
	}
	d = d_lookup(dir, name, len);
	if (d || !iop || !iop->lookup)
		return d ? d : ERR_PTR(-ENOENT);
	memcpy(buf, name, len);
	buf[len] = '\0';
	d = iop->lookup(dir, buf);
	return d ? d : ERR_PTR(-ENOENT);
}

static struct dentry *walk(struct nameidata *nd, struct dentry *start, const char *path,
			   size_t pathlen, unsigned int flags, int depth);

static struct dentry *follow_link(struct nameidata *nd, struct dentry *dir,
				  struct dentry *link, int depth)
{
	const char *target = link->d_inode->i_link;

	if (++nd->total_links > MAXSYMLINKS || depth >= MAX_NESTED_LINKS)
		return ERR_PTR(-ELOOP);
	if (!*target)
		return ERR_PTR(-ENOENT);
	return walk(nd, dir, target, strlen(target), LOOKUP_FOLLOW, depth + 1);
}

/*
 * Resolve path[0..pathlen) from start. Symlinks in the middle are always
 * followed (relative to the directory holding them); the last one only
 * with LOOKUP_FOLLOW or a trailing slash.
 */
static struct dentry *walk(struct nameidata *nd, struct dentry *start, const char *path,
			   size_t pathlen, unsigned int flags, int depth)
{
	const char *p = path, *end = path + pathlen;
	struct dentry *cur = dget(*p == '/' ? root_dentry : start);
	bool trailing_slash = pathlen > 0 && path[pathlen - 1] == '/';

	for (;;) {
		const char *q;
		struct dentry *next;
		bool last;

		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		for (q = p; q < end && *q != '/'; q++)
			;
		if (q - p > NAME_MAX) {
			dput(cur);
			return ERR_PTR(-ENAMETOOLONG);
		}
		next = lookup_one(cur, p, (size_t)(q - p));
		if (IS_ERR(next)) {
			dput(cur);
			return next;
		}
		last = true;
		for (const char *r = q; r < end; r++)
			if (*r != '/')
				last = false;
		if (S_ISLNK(next->d_inode->i_mode) &&
		    (!last || trailing_slash || (flags & LOOKUP_FOLLOW))) {
			struct dentry *target = follow_link(nd, cur, next, depth);

			dput(next);
			next = target;
			if (IS_ERR(next)) {
				dput(cur);
				return next;
			}
		}
		dput(cur);
		cur = next;
		p = q;
	}
	if ((trailing_slash || (flags & LOOKUP_DIRECTORY)) && !d_is_dir(cur)) {
		dput(cur);
		return ERR_PTR(-ENOTDIR);
	}
	return cur;
}

static int check_path(const char *path)
{
	size_t len = strnlen(path, PATH_MAX);

	if (len == PATH_MAX)
		return -ENAMETOOLONG;
	return len ? 0 : -ENOENT;
}

struct dentry *path_lookup(struct dentry *cwd, const char *path, unsigned int flags)
{
	struct nameidata nd = { 0 };
	int err = check_path(path);

	if (err)
		return ERR_PTR(err);
	return walk(&nd, cwd ? cwd : root_dentry, path, strlen(path), flags, 0);
}

struct dentry *path_parent(struct dentry *cwd, const char *path, char last[NAME_MAX + 1],
			   bool *trailing_slash)
{
	struct nameidata nd = { 0 };
	size_t len, start;
	int err = check_path(path);

	if (err)
		return ERR_PTR(err);
	len = strlen(path);
	*trailing_slash = path[len - 1] == '/';
	while (len > 1 && path[len - 1] == '/')
		len--;
	if (len == 1 && path[0] == '/') {	/* the root: an empty last name */
		last[0] = '\0';
		return dget(root_dentry);
	}
	start = len;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (len - start > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	memcpy(last, path + start, len - start);
	last[len - start] = '\0';
	if (start == 0)
		return dget(cwd ? cwd : root_dentry);
	return walk(&nd, cwd ? cwd : root_dentry, path, start, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, 0);
}

/* The parent and, if it exists, the named child (not followed). */
static struct dentry *lookup_parent_child(struct dentry *cwd, const char *path,
					  char last[NAME_MAX + 1], struct dentry **child,
					  bool *trailing_slash)
{
	struct dentry *dir = path_parent(cwd, path, last, trailing_slash);

	if (IS_ERR(dir))
		return dir;
	*child = lookup_one(dir, last, strlen(last));
	return dir;
}

/*
 * A directory whose entries a lookup hook makes (/proc) has no name that
 * could be created: Linux's /proc answers ENOENT for every name it does
 * not know, before any other check of a create or rename.
 */
static bool on_demand_dir(struct dentry *dir)
{
	return dir->d_inode->i_op && dir->d_inode->i_op->lookup;
}

/*
 * Common part of mkdir, symlink and link: the parent, referenced, of a
 * last name that must not exist yet (EEXIST if it does). A trailing
 * slash asks for a directory: only mkdir may create one (ENOENT else).
 */
static struct dentry *filename_create(struct dentry *cwd, const char *path,
				      char last[NAME_MAX + 1], bool is_dir)
{
	struct dentry *dir, *child;
	bool slash;
	int err;

	dir = lookup_parent_child(cwd, path, last, &child, &slash);
	if (IS_ERR(dir))
		return dir;
	if (IS_ERR(child) && PTR_ERR(child) == -ENOENT && !on_demand_dir(dir) &&
	    (is_dir || !slash))
		return dir;
	if (IS_ERR(child)) {
		err = (int)PTR_ERR(child);
	} else {
		dput(child);
		err = -EEXIST;
	}
	dput(dir);
	return ERR_PTR(err);
}

int vfs_mkdir(struct dentry *cwd, const char *path, umode_t mode)
{
	char last[NAME_MAX + 1];
	struct dentry *dir = filename_create(cwd, path, last, true);
	const struct inode_operations *iop;
	int err;

	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	iop = dir->d_inode->i_op;
	err = iop && iop->mkdir ? iop->mkdir(dir, last, (mode & S_IALLUGO) | S_IFDIR) : -EPERM;
	dput(dir);
	return err;
}

/*
 * Common part of rmdir, unlink and rename: the parent and the victim,
 * which must exist; *dots is 1 or 2 when the last component is "." or "..".
 */
static struct dentry *lookup_victim(struct dentry *cwd, const char *path,
				   struct dentry **victim, bool *slash, int *dots)
{
	char last[NAME_MAX + 1];
	struct dentry *dir = lookup_parent_child(cwd, path, last, victim, slash);

	if (!IS_ERR(dir) && IS_ERR(*victim)) {
		dput(dir);
		return *victim;
	}
	*dots = is_dot(last, strlen(last)) ? 1 : is_dotdot(last, strlen(last)) ? 2 : 0;
	return dir;
}

int vfs_rmdir(struct dentry *cwd, const char *path)
{
	struct dentry *dir, *victim;
	bool slash;
	int err, dots;

	dir = lookup_victim(cwd, path, &victim, &slash, &dots);
	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	if (dots)
		err = dots == 1 ? -EINVAL : -ENOTEMPTY;
	else if (victim == root_dentry)
		err = -EBUSY;
	else if (!d_is_dir(victim))
		err = -ENOTDIR;
	else if (!dir->d_inode->i_op || !dir->d_inode->i_op->rmdir)
		err = -EPERM;
	else
		err = dir->d_inode->i_op->rmdir(dir, victim);
	dput(victim);
	dput(dir);
	return err;
}

int vfs_unlink(struct dentry *cwd, const char *path)
{
	struct dentry *dir, *victim;
	bool slash;
	int err, dots;

	dir = lookup_victim(cwd, path, &victim, &slash, &dots);
	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	if (d_is_dir(victim))
		err = -EISDIR;
	else if (slash)
		err = -ENOTDIR;
	else if (!dir->d_inode->i_op || !dir->d_inode->i_op->unlink)
		err = -EPERM;
	else
		err = dir->d_inode->i_op->unlink(dir, victim);
	dput(victim);
	dput(dir);
	return err;
}

int vfs_symlink(struct dentry *cwd, const char *target, const char *path)
{
	char last[NAME_MAX + 1];
	const struct inode_operations *iop;
	struct dentry *dir;
	int err = check_path(target);

	if (err)
		return err;
	dir = filename_create(cwd, path, last, false);
	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	iop = dir->d_inode->i_op;
	err = iop && iop->symlink ? iop->symlink(dir, last, target) : -EPERM;
	dput(dir);
	return err;
}

/* 0 if dir has an entry called name, else the lookup's error. */
static int name_exists(struct dentry *dir, const char *name)
{
	struct dentry *d = lookup_one(dir, name, strlen(name));

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	dput(d);
	return 0;
}

/*
 * rename and renameat2: oldpath (from cwd) to newpath (from newcwd).
 * Linux checks the names before the file systems: "." or ".." on either
 * side is EBUSY, a file with a trailing slash ENOTDIR.
 */
int vfs_rename(struct dentry *cwd, const char *oldpath, struct dentry *newcwd,
	       const char *newpath, unsigned int flags)
{
	char newname[NAME_MAX + 1];
	struct dentry *old_dir, *new_dir, *old;
	const struct inode_operations *iop;
	bool slash, new_slash;
	int err, dots, missing;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	old_dir = lookup_victim(cwd, oldpath, &old, &slash, &dots);
	if (IS_ERR(old_dir))
		return (int)PTR_ERR(old_dir);
	new_dir = path_parent(newcwd, newpath, newname, &new_slash);
	if (IS_ERR(new_dir)) {
		err = (int)PTR_ERR(new_dir);
		goto out;
	}
	iop = old_dir->d_inode->i_op;
	missing = on_demand_dir(new_dir) ? name_exists(new_dir, newname) : 0;
	if (dots || old == root_dentry)
		err = -EBUSY;
	else if ((slash || new_slash) && !d_is_dir(old))
		err = -ENOTDIR;
	else if (is_dot(newname, strlen(newname)) || is_dotdot(newname, strlen(newname)))
		err = -EBUSY;
	else if (new_dir->d_inode->i_op != iop)
		err = -EXDEV;	/* Linux's check of the mounts comes first */
	else if (missing)
		err = missing;
	else if (!iop || !iop->rename)
		err = -EPERM;
	else
		err = iop->rename(old_dir, old, new_dir, newname, flags);
	dput(new_dir);
out:
	dput(old);
	dput(old_dir);
	return err;
}

/*
 * link and linkat: a second name, newpath, for old (NULL: a file without
 * a name, such as a pipe). As on Linux: the new name must not exist
 * (EEXIST), both names must be on one file system (EXDEV), a directory
 * cannot get a second name (EPERM), and neither can anything in a
 * directory that takes no links (EPERM).
 */
int vfs_link(struct dentry *old, struct dentry *newcwd, const char *newpath)
{
	char last[NAME_MAX + 1];
	struct dentry *dir = filename_create(newcwd, newpath, last, false);
	const struct inode_operations *iop, *old_iop = NULL;
	int err;

	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	iop = dir->d_inode->i_op;
	if (old) {
		spin_lock(&dcache_lock);	/* a rename may move old meanwhile */
		old_iop = old->d_parent->d_inode->i_op;
		spin_unlock(&dcache_lock);
	}
	if (!old || old_iop != iop)
		err = -EXDEV;
	else if (!iop || !iop->link || d_is_dir(old))
		err = -EPERM;
	else
		err = iop->link(old, dir, last);
	dput(dir);
	return err;
}

void generic_fillattr(struct inode *inode, struct kstat *st)
{
	memset(st, 0, sizeof(*st));
	st->ino = inode->i_ino;
	spin_lock(&inode->i_lock);
	st->mode = inode->i_mode;
	st->nlink = inode->i_nlink;
	st->size = inode->i_size;
	st->atime_ns = inode->i_atime_ns;
	st->mtime_ns = inode->i_mtime_ns;
	st->ctime_ns = inode->i_ctime_ns;
	spin_unlock(&inode->i_lock);
	st->blocks = (u64)DIV_ROUND_UP(st->size, 512);
	st->rdev = inode->i_rdev;
}

/* Directories count "." and each subdirectory's "..", as Unix file systems do. */
void vfs_getattr(struct dentry *d, struct kstat *st)
{
	struct dentry *child;

	generic_fillattr(d->d_inode, st);
	if (!d_is_dir(d))
		return;
	st->nlink = 2;
	spin_lock(&dcache_lock);
	list_for_each_entry(child, &d->d_subdirs, d_child)
		if (d_is_dir(child))
			st->nlink++;
	spin_unlock(&dcache_lock);
}

int vfs_stat(struct dentry *cwd, const char *path, struct kstat *st, bool follow)
{
	struct dentry *d = path_lookup(cwd, path, follow ? LOOKUP_FOLLOW : 0);

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	vfs_getattr(d, st);
	dput(d);
	return 0;
}

ssize_t vfs_readlink(struct dentry *cwd, const char *path, char *buf, size_t size)
{
	struct dentry *d = path_lookup(cwd, path, 0);
	ssize_t len;

	if (IS_ERR(d))
		return PTR_ERR(d);
	if (!S_ISLNK(d->d_inode->i_mode)) {
		dput(d);
		return -EINVAL;
	}
	len = (ssize_t)min(strlen(d->d_inode->i_link), size);
	memcpy(buf, d->d_inode->i_link, (size_t)len);
	dput(d);
	return len;
}
