/*
 * What the file system calls share: user path names copied in, and the
 * starting directory of the *at calls (Linux's dirfd and AT_* flags).
 */
#ifndef KERNEL_SYSCALLS_SYS_FS_H
#define KERNEL_SYSCALLS_SYS_FS_H

#include <kernel/fs/fs.h>

#define AT_FDCWD		(-100)
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_SYMLINK_FOLLOW	0x400
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000

/* A path from user space, in a names_cache buffer (putname it), or an ERR_PTR. */
char *getname(const char *upath);
void putname(const char *name);

/*
 * A *at call's path, copied in, and the directory it starts from:
 * dirfd's (ENOTDIR if that is no directory, EBADF if no file), the
 * working directory for AT_FDCWD; an absolute path ignores dirfd.
 */
struct at_path {
	char *name;
	struct dentry *dir;	/* referenced */
};
int get_at_path(int dirfd, const char *upath, struct at_path *at);
void put_at_path(struct at_path *at);

/*
 * AT_EMPTY_PATH's case: upath is "" and the call acts on dirfd's own
 * file. Returns 1 with *f referenced (NULL for AT_FDCWD: the working
 * directory), 0 when upath is not empty, or a negative errno.
 */
int at_empty_path(int dirfd, const char *upath, struct file **f);

/* How to open a file: Linux's struct open_how (openat2's argument, uapi openat2.h). */
struct open_how {
	u64 flags;		/* O_* */
	u64 mode;		/* with O_CREAT: the new file's mode, before the umask */
	u64 resolve;		/* RESOLVE_*: none are taken yet */
};

/*
 * The open calls' path as on Linux, so probes and the function tracer
 * find the functions Linux users name: open and openat come through
 * do_sys_open, which puts its flags and mode in an open_how for
 * do_sys_openat2. A new descriptor, or a negative errno.
 */
long do_sys_open(int dfd, const char *filename, int flags, umode_t mode);
long do_sys_openat2(int dfd, const char *filename, const struct open_how *how);

#endif
