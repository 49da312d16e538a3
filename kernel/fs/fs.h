/*
 * The VFS: one tree of dentries naming inodes, files opened on them, and
 * the per-task descriptor tables. Pure (host-testable); the kernel-only
 * parts are current_files()/current_fs() and the boot wiring.
 *
 * There is one tree and no mounts: / and /tmp are ramfs, /dev, /proc and
 * /sys/kernel/tracing are directories of pseudo files (see pseudo.h). Every
 * namespace change goes through the parent directory's inode_operations,
 * so a directory without an operation refuses it (EPERM) and a pseudo
 * directory can hook mkdir/rmdir (tracefs instances) or produce entries on
 * demand (/proc/<pid>).
 *
 * Locking: dcache_lock (a spinlock) guards the tree shape: children lists,
 * d_parent and names. Lookups take it per path step and leave it holding a
 * reference, so no VFS lock is held while file or inode operations run;
 * those may block (pipes, trace_pipe) or create files themselves.
 * inode->i_lock guards a ramfs file's data and size.
 */
#ifndef KERNEL_FS_FS_H
#define KERNEL_FS_FS_H

#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/spinlock.h>
#include <kernel/mutex.h>
#include <kernel/list.h>
#include <kernel/err.h>
#include <kernel/fs/fcntl.h>

typedef unsigned short umode_t;
#ifndef SPOOR_HOST
typedef s64 loff_t;
#endif

struct inode;
struct dentry;
struct file;
struct dir_context;
struct pipe_inode_info;
struct vm_area_struct;

/* One segment of a write(2)/writev(2), base a user address (Linux's struct iovec). */
struct iovec_user {
	unsigned long base;
	size_t len;
};

/* What the VFS does on an open file; NULL entries fail as Linux does. */
/* poll(2)'s event bits, Linux's values (what file_operations.poll returns). */
#define POLLIN		0x001
#define POLLPRI		0x002
#define POLLOUT		0x004
#define POLLERR		0x008
#define POLLHUP		0x010
#define POLLNVAL	0x020
#define POLLRDNORM	0x040

struct file_operations {
	int (*open)(struct inode *inode, struct file *file);
	/* Buffers are kernel memory. Return bytes moved or a negative errno. */
	ssize_t (*read)(struct file *file, char *buf, size_t count, loff_t *pos);
	ssize_t (*write)(struct file *file, const char *buf, size_t count, loff_t *pos);
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);	/* NULL: ESPIPE */
	/* Called once, when the last reference to the file goes. */
	int (*release)(struct inode *inode, struct file *file);
	/* mmap(2) of a device file: sets vma->vm_ops (VM_PFNMAP pages); NULL: a private copy of a regular file. */
	int (*mmap)(struct file *file, struct vm_area_struct *vma);
	/* ioctl(2); arg is a user address or value. NULL: ENOTTY. */
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	/* poll(2): POLL* bits now, without waiting. NULL: always ready. */
	unsigned int (*poll)(struct file *file);
	/*
	 * write(2) and writev(2) as one call with the user's segments (a
	 * kernel array of user addresses), for files where one writev is one
	 * record (user_events_data). NULL: ->write per segment.
	 */
	ssize_t (*write_iov)(struct file *file, const struct iovec_user *iov, int cnt);
};

/*
 * Namespace operations of a directory inode. ramfs implements all of the
 * changing ones; pseudo directories implement at most mkdir/rmdir (the
 * hook then creates or removes the directory itself, with the pseudo API)
 * and the dynamic pair lookup/iterate.
 */
struct inode_operations {
	/* Make a regular file; returns it referenced. */
	struct dentry *(*create)(struct dentry *dir, const char *name, umode_t mode);
	int (*mkdir)(struct dentry *dir, const char *name, umode_t mode);
	int (*rmdir)(struct dentry *dir, struct dentry *victim);
	int (*unlink)(struct dentry *dir, struct dentry *victim);
	int (*symlink)(struct dentry *dir, const char *name, const char *target);
	/* A second name, dir/name, for old's inode (a hard link). */
	int (*link)(struct dentry *old, struct dentry *dir, const char *name);
	/*
	 * Move old (a child of old_dir) to new_dir/new_name, replacing a
	 * target unless flags has RENAME_NOREPLACE (then EEXIST).
	 */
	int (*rename)(struct dentry *old_dir, struct dentry *old, struct dentry *new_dir,
		      const char *new_name, unsigned int flags);
	/*
	 * Dynamic entries, tried after the stored children. lookup returns a
	 * referenced dentry made with d_alloc() and never attached (it is
	 * freed when the last user drops it), NULL if there is no such name.
	 * iterate emits with dir_emit() from ctx->pos, counted from 0 over
	 * the dynamic entries only, and advances ctx->pos itself.
	 */
	struct dentry *(*lookup)(struct dentry *dir, const char *name);
	int (*iterate)(struct dentry *dir, struct dir_context *ctx);
};

/* A file's data as fixed-size blocks; a NULL block is a hole of zeros. */
#define RAMFS_BLOCK_SIZE	4096
struct ramfs_data {
	char **blocks;
	size_t nr_blocks;	/* entries in blocks[] */
};

/*
 * An inode: the object a name refers to. Reference-counted; freed with
 * its data when the last dentry and file let go.
 */
struct inode {
	unsigned long i_ino;
	umode_t i_mode;		/* S_IF* type and permission bits (chmod: under i_lock) */
	atomic_t i_count;
	spinlock_t i_lock;	/* i_size, i_nlink, the times and ramfs data */
	loff_t i_size;
	unsigned int i_nlink;	/* names in the tree (hard links); 1 for pseudo files */
	unsigned int i_flags;	/* S_* below */
	/* Times in ns since the epoch (ktime_get_ns(): Spoor boots at 1970). */
	u64 i_atime_ns;		/* set at creation and by utimensat (no atime updates on read) */
	u64 i_mtime_ns;		/* last data change */
	u64 i_ctime_ns;		/* last data or attribute change */
	u32 i_rdev;		/* char devices: MKDEV(major, minor) */
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	void *i_private;	/* the pseudo file's owner's data */
	union {
		struct ramfs_data i_data;	/* S_IFREG in ramfs */
		char *i_link;			/* S_IFLNK: the target, never changes */
		struct pipe_inode_info *i_pipe;	/* S_IFIFO */
	};
};

/*
 * i_flags: made on demand by a lookup hook (/proc/<pid>) and gone with its
 * last user, so a mode change would not last: chmod is EPERM, as Linux's
 * /proc/<pid> answers.
 */
#define S_ONDEMAND	0x1

#define MKDEV(ma, mi)	(((u32)(ma) << 20) | (u32)(mi))
#define MAJOR(dev)	((dev) >> 20)
#define MINOR(dev)	((dev) & 0xfffff)

/* d_flags */
#define DCACHE_ATTACHED	0x1	/* on its parent's d_subdirs list */

/*
 * A name in the tree. An attached dentry is held by the tree (one
 * reference) and by each user; it holds its parent and its inode, so a
 * removed directory that is someone's cwd still knows its way up.
 */
struct dentry {
	atomic_t d_count;
	unsigned int d_flags;
	char *d_name;
	u32 d_hash;			/* d_name_hash of d_name: lookups compare it first */
	struct dentry *d_parent;	/* the root's parent is itself */
	struct inode *d_inode;
	struct list_head d_child;	/* in the parent's d_subdirs */
	struct list_head d_subdirs;	/* children, in creation order */
};

/* f_mode */
#define FMODE_READ	0x1
#define FMODE_WRITE	0x2
/* a ramfs file or a directory: the offset says where, so moves of it are serialized (fget_pos) */
#define FMODE_ATOMIC_POS	0x4

/*
 * An open file. Shared by descriptors after dup and by child tasks after
 * spawn (one offset for all of them, as in Unix).
 */
struct file {
	atomic_t f_count;
	unsigned int f_flags;	/* the O_* flags it was opened with */
	unsigned int f_mode;	/* FMODE_* */
	loff_t f_pos;
	/* read/write/lseek of a shared FMODE_ATOMIC_POS file hold it across their f_pos move (fget_pos) */
	struct mutex f_pos_lock;
	struct dentry *f_dentry;	/* NULL for pipes */
	struct inode *f_inode;
	const struct file_operations *f_op;
	void *private_data;	/* per-open state of the file's owner */
};

/* Metadata, as stat(2) reports it. */
struct kstat {
	u64 ino;
	umode_t mode;
	unsigned int nlink;
	loff_t size;
	u64 blocks;		/* 512-byte units */
	u32 rdev;
	u64 atime_ns, mtime_ns, ctime_ns;
};

/* Readdir: actor is called for each entry; returns false when full. */
typedef bool (*filldir_t)(struct dir_context *ctx, const char *name, int namelen,
			  loff_t pos, u64 ino, unsigned int type);
struct dir_context {
	filldir_t actor;
	loff_t pos;
};

static inline bool dir_emit(struct dir_context *ctx, const char *name, int namelen,
			    u64 ino, unsigned int type)
{
	return ctx->actor(ctx, name, namelen, ctx->pos, ino, type);
}

/* ---- dcache.c: inodes and dentries ---- */
extern spinlock_t dcache_lock;
extern struct dentry *root_dentry;

/* The hash d_alloc keeps in d_hash (a rename sets it again). */
u32 d_name_hash(const char *name, size_t len);

struct inode *new_inode(umode_t mode);
struct inode *igrab(struct inode *inode);
void iput(struct inode *inode);
/* A new dentry under parent, not attached; takes over the inode reference. */
struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len,
		       struct inode *inode);
struct dentry *dget(struct dentry *d);
void dput(struct dentry *d);
/* Attach to the parent's list; -EEXIST if the name is taken. */
int d_add(struct dentry *d);
/* Detach from the tree and drop the tree's reference. */
void d_delete(struct dentry *d);
/* A referenced stored child, or NULL. Caller holds no lock. */
struct dentry *d_lookup(struct dentry *dir, const char *name, size_t len);
/* Caller holds dcache_lock. */
struct dentry *__d_lookup(struct dentry *dir, const char *name, size_t len);
bool d_is_dir(const struct dentry *d);
/* d and all its ancestors are still in the tree (none was d_delete()d). */
bool d_attached(const struct dentry *d);
/* The absolute path of d into buf; returns its length or -ENAMETOOLONG. */
int d_path(struct dentry *d, char *buf, size_t size);
/* Make the root directory (ramfs). Idempotent; -ENOMEM before kmalloc works. */
int vfs_init(void);

/* ---- namei.c: paths ---- */
#define LOOKUP_FOLLOW		0x1	/* follow a symlink in the last component */
#define LOOKUP_DIRECTORY	0x2	/* the result must be a directory */

/* Resolve path from cwd (NULL: the root). Returns a referenced dentry. */
struct dentry *path_lookup(struct dentry *cwd, const char *path, unsigned int flags);
/*
 * Resolve all but the last component: a referenced parent directory and,
 * in last, the final name (NUL-terminated, without trailing slashes).
 * *trailing_slash tells whether the path ended in '/'.
 */
struct dentry *path_parent(struct dentry *cwd, const char *path, char last[NAME_MAX + 1],
			   bool *trailing_slash);

int vfs_mkdir(struct dentry *cwd, const char *path, umode_t mode);
int vfs_rmdir(struct dentry *cwd, const char *path);
int vfs_unlink(struct dentry *cwd, const char *path);
int vfs_symlink(struct dentry *cwd, const char *target, const char *path);
/* renameat2's flag Spoor knows (others are EINVAL); a host libc may define it too. */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	0x1
#endif
int vfs_rename(struct dentry *cwd, const char *oldpath, struct dentry *newcwd,
	       const char *newpath, unsigned int flags);
/* A hard link newpath (from newcwd) to old's inode; old NULL: a nameless file (EXDEV). */
int vfs_link(struct dentry *old, struct dentry *newcwd, const char *newpath);
int vfs_stat(struct dentry *cwd, const char *path, struct kstat *st, bool follow);
/* The target of a symlink into buf (not NUL-terminated); returns its length. */
ssize_t vfs_readlink(struct dentry *cwd, const char *path, char *buf, size_t size);
void generic_fillattr(struct inode *inode, struct kstat *st);
void vfs_getattr(struct dentry *d, struct kstat *st);

/* ---- open.c: open files ---- */
struct file *vfs_open(struct dentry *cwd, const char *path, int flags, umode_t mode);
/* A file on an inode with no name (pipes); takes over the inode reference. */
struct file *alloc_file(struct inode *inode, unsigned int flags,
			const struct file_operations *fop);
struct file *get_file(struct file *f);
void fput(struct file *f);
/*
 * Read or write count bytes of a kernel buffer at *pos (the file's f_pos,
 * or a pread's own), moving it: every read and write goes through these,
 * the system calls' (a chunk of their bounce buffer at a time) too, so a
 * probe on vfs_read sees what Linux's does.
 */
ssize_t vfs_read(struct file *f, char *buf, size_t count, loff_t *pos);
ssize_t vfs_write(struct file *f, const char *buf, size_t count, loff_t *pos);
loff_t vfs_llseek(struct file *f, loff_t offset, int whence);
int vfs_fstat(struct file *f, struct kstat *st);
/* lseek for files whose size is i_size (ramfs). */
loff_t generic_file_llseek(struct file *f, loff_t offset, int whence);
/* lseek that keeps every file at offset 0 (/dev/null). */
loff_t noop_llseek(struct file *f, loff_t offset, int whence);

/* ---- attr.c: changing an inode's attributes ---- */
/* chmod: the permission bits (S_IALLUGO) of mode replace the inode's; EPERM for S_ONDEMAND. */
int vfs_chmod(struct inode *inode, umode_t mode);
/* truncate/ftruncate: EISDIR for a directory, EINVAL for other non-regular files. */
int vfs_truncate(struct inode *inode, loff_t length);
/* utimensat: each time is ns since the epoch, or UTIME_OMIT to keep it. */
#define UTIME_KEEP	((u64)-1)
void vfs_utimes(struct inode *inode, u64 atime_ns, u64 mtime_ns);
/* fsync/fdatasync: 0 where data lives in memory anyway (ramfs), EINVAL where Linux has no fsync. */
int vfs_fsync(struct file *f);
/* Stamps a data change: mtime and ctime now. Caller holds i_lock. */
void inode_touch_locked(struct inode *inode);

/* ---- readdir.c ---- */
/* The DT_* type of an inode mode. */
unsigned int dt_type(umode_t mode);
int vfs_readdir(struct file *dir, struct dir_context *ctx);
/* Linux's struct linux_dirent64 records into buf; bytes used, 0 at end. */
ssize_t vfs_getdents64(struct file *dir, void *buf, size_t count);
struct linux_dirent64 {
	u64 d_ino;
	s64 d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* ---- ramfs.c ---- */
extern const struct inode_operations ramfs_dir_inode_operations;
extern const struct file_operations ramfs_file_operations;
/* A new ramfs inode of the given type (directory, regular, symlink). */
struct inode *ramfs_get_inode(umode_t mode);
int ramfs_truncate(struct inode *inode, loff_t size);

/* ---- pipe.c ---- */
/* Two new files sharing a pipe: files[0] reads, files[1] writes. */
int create_pipe_files(struct file *files[2], int flags);

#endif
