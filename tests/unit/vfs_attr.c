/* Unit tests of hard links, rename flags, fchdir and inode attributes (mode, size, times, fsync). */
/* uses: kernel/fs/dcache.c kernel/fs/attr.c kernel/fs/namei.c kernel/fs/open.c kernel/locking/mutex.c kernel/fs/readdir.c kernel/fs/ramfs.c kernel/fs/fdtable.c kernel/fs/sys.c kernel/fs/pipe.c kernel/sched/wait.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include "vfs_shim.h"

static void setup(void) { test_task_start(0); }
static void teardown(void) { test_task_end(); }
TestSuite(vfs_attr, .init = setup, .fini = teardown);

static void put_file(const char *path, const char *text)
{
	int fd = ksys_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	cr_assert_geq(fd, 0, "create %s: %d", path, fd);
	cr_assert_eq(ksys_write(fd, text, strlen(text)), (ssize_t)strlen(text));
	cr_assert_eq(ksys_close(fd), 0);
}

static struct dentry *lookup(const char *path)
{
	struct dentry *d = path_lookup(NULL, path, 0);

	cr_assert(!IS_ERR(d), "lookup %s: %ld", path, PTR_ERR(d));
	return d;
}

static int link_paths(const char *old, const char *new)
{
	struct dentry *d = path_lookup(NULL, old, 0);
	int err;

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	err = vfs_link(d, NULL, new);
	dput(d);
	return err;
}

Test(vfs_attr, hard_links_share_the_inode_and_count_names)
{
	struct kstat a, b;
	char buf[16] = { 0 };
	int fd;

	cr_assert_eq(ksys_mkdir("/d", 0755), 0);
	put_file("/d/f", "shared");
	cr_assert_eq(link_paths("/d/f", "/d/g"), 0);
	cr_assert_eq(link_paths("/d/f", "/g2"), 0, "a link in another directory");
	cr_assert_eq(ksys_stat("/d/f", &a), 0);
	cr_assert_eq(ksys_stat("/g2", &b), 0);
	cr_assert_eq(a.ino, b.ino);
	cr_assert_eq(a.nlink, 3);
	cr_assert_eq(link_paths("/d/f", "/d/g"), -EEXIST);
	cr_assert_eq(link_paths("/d", "/d2"), -EPERM, "no second name for a directory");
	cr_assert_eq(link_paths("/d/f", "/nodir/x"), -ENOENT);
	cr_assert_eq(link_paths("/missing", "/x"), -ENOENT);

	put_file("/g2", "changed");	/* O_TRUNC through one name shows through all */
	fd = ksys_open("/d/g", O_RDONLY, 0);
	cr_assert_eq(ksys_read(fd, buf, sizeof(buf)), 7);
	cr_assert_str_eq(buf, "changed");
	cr_assert_eq(ksys_unlink("/d/f"), 0);
	cr_assert_eq(ksys_unlink("/g2"), 0);
	cr_assert_eq(ksys_stat("/d/g", &a), 0);
	cr_assert_eq(a.nlink, 1);
	cr_assert_eq(ksys_unlink("/d/g"), 0);
	cr_assert_eq(ksys_fstat(fd, &a), 0);
	cr_assert_eq(a.nlink, 0, "open, every name gone");
	{
		struct file *f = fget(fd);

		cr_assert_eq(vfs_link(f->f_dentry, NULL, "/back"), -ENOENT,
			     "a file without names does not come back");
		fput(f);
	}
	cr_assert_eq(vfs_link(NULL, NULL, "/pipe"), -EXDEV, "a nameless file");
	ksys_close(fd);
}

Test(vfs_attr, renaming_onto_another_name_of_the_same_file_does_nothing)
{
	struct kstat st;

	put_file("/a", "x");
	cr_assert_eq(link_paths("/a", "/b"), 0);
	cr_assert_eq(ksys_rename("/a", "/b"), 0);
	cr_assert_eq(ksys_stat("/a", &st), 0, "both names stay, as on Linux");
	cr_assert_eq(st.nlink, 2);
}

Test(vfs_attr, rename_noreplace_and_unknown_flags)
{
	struct kstat st;

	put_file("/a", "a");
	put_file("/b", "b");
	cr_assert_eq(vfs_rename(NULL, "/a", NULL, "/b", RENAME_NOREPLACE), -EEXIST);
	cr_assert_eq(vfs_rename(NULL, "/a", NULL, "/a", RENAME_NOREPLACE), -EEXIST);
	cr_assert_eq(vfs_rename(NULL, "/a", NULL, "/c", RENAME_NOREPLACE), 0);
	cr_assert_eq(ksys_stat("/a", &st), -ENOENT);
	cr_assert_eq(vfs_rename(NULL, "/c", NULL, "/b", 2 /* RENAME_EXCHANGE */), -EINVAL);
	cr_assert_eq(ksys_stat("/c", &st), 0);
}

Test(vfs_attr, fchdir_takes_a_directory_descriptor)
{
	char buf[32];
	int dfd, ffd, p[2];

	cr_assert_eq(ksys_mkdir("/w", 0755), 0);
	put_file("/w/f", "x");
	dfd = ksys_open("/w", O_RDONLY | O_DIRECTORY, 0);
	ffd = ksys_open("/w/f", O_RDONLY, 0);
	cr_assert_eq(ksys_fchdir(dfd), 0);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 2);
	cr_assert_str_eq(buf, "/w");
	cr_assert_eq(ksys_fchdir(ffd), -ENOTDIR);
	cr_assert_eq(ksys_fchdir(99), -EBADF);
	cr_assert_eq(ksys_pipe2(p, 0), 0);
	cr_assert_eq(ksys_fchdir(p[0]), -ENOTDIR);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 2, "a failed fchdir stays put");
}

Test(vfs_attr, chmod_keeps_the_type)
{
	struct dentry *d;
	struct kstat st;

	put_file("/m", "x");
	d = lookup("/m");
	vfs_chmod(d->d_inode, 0170000 | 04751);
	cr_assert_eq(ksys_stat("/m", &st), 0);
	cr_assert_eq(st.mode, S_IFREG | 04751);
	dput(d);
}

Test(vfs_attr, truncate_grows_with_zeros_and_refuses_non_files)
{
	struct dentry *f, *dir;
	char buf[8];
	struct kstat st;
	int fd;

	put_file("/t", "abcdef");
	cr_assert_eq(ksys_mkdir("/td", 0755), 0);
	f = lookup("/t");
	dir = lookup("/td");
	cr_assert_eq(vfs_truncate(f->d_inode, 2), 0);
	cr_assert_eq(vfs_truncate(f->d_inode, 5), 0);
	fd = ksys_open("/t", O_RDONLY, 0);
	cr_assert_eq(ksys_read(fd, buf, sizeof(buf)), 5);
	cr_assert_eq(memcmp(buf, "ab\0\0\0", 5), 0, "the cut bytes come back as zeros");
	cr_assert_eq(vfs_truncate(f->d_inode, -1), -EINVAL);
	cr_assert_eq(vfs_truncate(dir->d_inode, 0), -EISDIR);
	cr_assert_eq(ksys_symlink("/t", "/ts"), 0);
	dput(dir);
	dir = lookup("/ts");
	cr_assert_eq(vfs_truncate(dir->d_inode, 0), -EINVAL, "a symlink is no regular file");
	cr_assert_eq(ksys_stat("/t", &st), 0);
	cr_assert_eq(st.size, 5);
	ksys_close(fd);
	dput(dir);
	dput(f);
}

Test(vfs_attr, utimes_sets_or_keeps_each_time_and_stamps_ctime)
{
	struct dentry *d;
	struct kstat st;

	put_file("/u", "x");
	d = lookup("/u");
	vfs_utimes(d->d_inode, 1000, 2000);
	cr_assert_eq(ksys_stat("/u", &st), 0);
	cr_assert_eq(st.atime_ns, 1000);
	cr_assert_eq(st.mtime_ns, 2000);
	cr_assert_gt(st.ctime_ns, 2000, "ctime is the change's own time");
	vfs_utimes(d->d_inode, UTIME_KEEP, 3000);
	cr_assert_eq(ksys_stat("/u", &st), 0);
	cr_assert_eq(st.atime_ns, 1000);
	cr_assert_eq(st.mtime_ns, 3000);
	dput(d);
}

Test(vfs_attr, fsync_is_for_ramfs_files_and_directories)
{
	int fd, dfd, p[2];
	struct file *f;

	put_file("/s", "x");
	fd = ksys_open("/s", O_RDONLY, 0);
	dfd = ksys_open("/", O_RDONLY | O_DIRECTORY, 0);
	cr_assert_eq(ksys_pipe2(p, 0), 0);
	f = fget(fd);
	cr_assert_eq(vfs_fsync(f), 0);
	fput(f);
	f = fget(dfd);
	cr_assert_eq(vfs_fsync(f), 0);
	fput(f);
	f = fget(p[1]);
	cr_assert_eq(vfs_fsync(f), -EINVAL);
	fput(f);
}
