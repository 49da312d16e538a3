/* Unit tests of the VFS core: paths, ramfs files, descriptors, directories, pipes. */
/* uses: kernel/fs/dcache.c kernel/fs/attr.c kernel/fs/namei.c kernel/fs/open.c kernel/locking/mutex.c kernel/fs/readdir.c kernel/fs/ramfs.c kernel/fs/fdtable.c kernel/fs/sys.c kernel/fs/pipe.c kernel/sched/wait.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include "vfs_shim.h"

static void setup(void) { test_task_start(0); }
static void teardown(void) { test_task_end(); }
TestSuite(vfs, .init = setup, .fini = teardown);

static int put_file(const char *path, const char *text, int flags)
{
	int fd = ksys_open(path, O_WRONLY | O_CREAT | flags, 0644);

	if (fd < 0)
		return fd;
	cr_assert_eq(ksys_write(fd, text, strlen(text)), (ssize_t)strlen(text));
	return ksys_close(fd);
}

/* The whole file through reads of `chunk` bytes, NUL-terminated (static buffer). */
static const char *slurp(const char *path, size_t chunk)
{
	static char buf[8192];
	size_t len = 0;
	ssize_t n;
	int fd = ksys_open(path, O_RDONLY, 0);

	cr_assert_geq(fd, 0, "open %s: %d", path, fd);
	while ((n = ksys_read(fd, buf + len, min(chunk, sizeof(buf) - 1 - len))) > 0)
		len += (size_t)n;
	cr_assert_eq(n, 0);
	ksys_close(fd);
	buf[len] = '\0';
	return buf;
}

Test(vfs, mkdir_and_lookup_forms)
{
	struct kstat st;

	cr_assert_eq(ksys_mkdir("/a", 0755), 0);
	cr_assert_eq(ksys_mkdir("/a/b", 0755), 0);
	cr_assert_eq(ksys_mkdir("a/b/c/", 0755), 0);
	cr_assert_eq(put_file("/a/b/f", "x", 0), 0);
	cr_assert_eq(ksys_stat("//a///b/./c/../c", &st), 0);
	cr_assert(S_ISDIR(st.mode));
	cr_assert_eq(ksys_stat("/a/b/c/../../b/f", &st), 0);
	cr_assert(S_ISREG(st.mode));
	cr_assert_eq(st.size, 1);
	cr_assert_eq(ksys_stat("/..", &st), 0, "the root's parent is the root");
	cr_assert_eq(ksys_stat("/a/b", &st), 0);
	cr_assert_eq(st.nlink, 3, "., its entry and c/..");
}

Test(vfs, lookup_errors_are_linux_errnos)
{
	struct kstat st;
	char longname[300];

	cr_assert_eq(put_file("/f", "data", 0), 0);
	cr_assert_eq(ksys_stat("/nope", &st), -ENOENT);
	cr_assert_eq(ksys_stat("", &st), -ENOENT);
	cr_assert_eq(ksys_stat("/f/x", &st), -ENOTDIR);
	cr_assert_eq(ksys_stat("/f/", &st), -ENOTDIR);
	cr_assert_eq(ksys_mkdir("/f", 0755), -EEXIST);
	cr_assert_eq(ksys_mkdir("/", 0755), -EEXIST);
	cr_assert_eq(ksys_mkdir("/x/y", 0755), -ENOENT);
	memset(longname, 'n', sizeof(longname));
	longname[0] = '/';
	longname[299] = '\0';
	cr_assert_eq(ksys_stat(longname, &st), -ENAMETOOLONG);
	cr_assert_eq(ksys_mkdir(longname, 0755), -ENAMETOOLONG);
	cr_assert_eq(ksys_open("/", O_WRONLY, 0), -EISDIR);
	cr_assert_eq(ksys_open("/", O_RDONLY | O_CREAT, 0), -EISDIR);
	cr_assert_eq(ksys_open("/newdir/", O_WRONLY | O_CREAT, 0644), -EISDIR);
	cr_assert_eq(ksys_open("/f", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	cr_assert_eq(ksys_open("/f", O_RDWR | O_CREAT | O_EXCL, 0644), -EEXIST);
	cr_assert_eq(ksys_open("/f", O_ACCMODE, 0), -EINVAL);
	cr_assert_eq(ksys_unlink("/"), -EISDIR);
	cr_assert_eq(ksys_rmdir("/f"), -ENOTDIR);
	cr_assert_eq(ksys_rmdir("/"), -EBUSY);
	cr_assert_eq(ksys_mkdir("/d", 0755), 0);
	cr_assert_eq(ksys_rmdir("/d/."), -EINVAL);
	cr_assert_eq(ksys_rmdir("/d/.."), -ENOTEMPTY);
	cr_assert_eq(ksys_rename("/d/.", "/e"), -EBUSY);
}

Test(vfs, offsets_short_reads_append_trunc)
{
	char buf[16] = { 0 };
	int fd;

	cr_assert_eq(put_file("/t", "hello world", 0), 0);
	fd = ksys_open("/t", O_RDONLY, 0);
	cr_assert_eq(ksys_read(fd, buf, 5), 5);
	cr_assert_eq(memcmp(buf, "hello", 5), 0);
	cr_assert_eq(ksys_read(fd, buf, sizeof(buf)), 6, "a short read at the end");
	cr_assert_eq(memcmp(buf, " world", 6), 0);
	cr_assert_eq(ksys_read(fd, buf, sizeof(buf)), 0);
	cr_assert_eq(ksys_lseek(fd, -5, SEEK_END), 6);
	cr_assert_eq(ksys_read(fd, buf, 3), 3);
	cr_assert_eq(memcmp(buf, "wor", 3), 0);
	cr_assert_eq(ksys_lseek(fd, -100, SEEK_CUR), -EINVAL);
	cr_assert_eq(ksys_lseek(fd, 0, 7), -EINVAL);
	cr_assert_eq(ksys_write(fd, "x", 1), -EBADF);
	ksys_close(fd);

	cr_assert_eq(put_file("/t", " again\n", O_APPEND), 0);
	cr_assert_str_eq(slurp("/t", 3), "hello world again\n");
	cr_assert_eq(put_file("/t", "new\n", O_TRUNC), 0);
	cr_assert_str_eq(slurp("/t", 1), "new\n");
	cr_assert_eq(put_file("/t", "N", 0), 0);
	cr_assert_str_eq(slurp("/t", 100), "New\n", "no O_TRUNC overwrites in place");
}

Test(vfs, holes_read_as_zeros)
{
	char buf[8];
	int fd = ksys_open("/h", O_RDWR | O_CREAT, 0644);
	struct kstat st;

	cr_assert_eq(ksys_lseek(fd, 10000, SEEK_SET), 10000);
	cr_assert_eq(ksys_write(fd, "end", 3), 3);
	cr_assert_eq(ksys_fstat(fd, &st), 0);
	cr_assert_eq(st.size, 10003);
	cr_assert_eq(ksys_lseek(fd, 4095, SEEK_SET), 4095);
	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(ksys_read(fd, buf, 8), 8);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(buf[i], 0);
	ksys_close(fd);
}

Test(vfs, megabyte_file_through_small_reads)
{
	const size_t size = 1 << 20;
	char *data = malloc(size), *back = malloc(size);
	size_t got = 0;
	ssize_t n;
	int fd;

	for (size_t i = 0; i < size; i++)
		data[i] = (char)(i * 7 + i / 4096);
	fd = ksys_open("/big", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (size_t off = 0; off < size; off += 1000)
		cr_assert_eq(ksys_write(fd, data + off, min((size_t)1000, size - off)),
			     (ssize_t)min((size_t)1000, size - off));
	ksys_close(fd);
	fd = ksys_open("/big", O_RDONLY, 0);
	while ((n = ksys_read(fd, back + got, min((size_t)333, size - got))) > 0)
		got += (size_t)n;
	cr_assert_eq(n, 0);
	cr_assert_eq(got, size);
	cr_assert_eq(memcmp(data, back, size), 0);
	ksys_close(fd);
	free(data);
	free(back);
}

Test(vfs, dup_shares_the_offset)
{
	char c;
	int fd, fd2;

	cr_assert_eq(put_file("/d", "abcdef", 0), 0);
	fd = ksys_open("/d", O_RDONLY, 0);
	fd2 = ksys_dup(fd);
	cr_assert_gt(fd2, fd);
	cr_assert_eq(ksys_read(fd, &c, 1), 1);
	cr_assert_eq(ksys_read(fd2, &c, 1), 1);
	cr_assert_eq(c, 'b');
	cr_assert_eq(ksys_dup2(fd, 10), 10);
	cr_assert_eq(ksys_read(10, &c, 1), 1);
	cr_assert_eq(c, 'c');
	cr_assert_eq(ksys_dupfd(fd, 20), 20);
	cr_assert_eq(ksys_close(fd), 0);
	cr_assert_eq(ksys_close(fd), -EBADF);
	cr_assert_eq(ksys_read(fd2, &c, 1), 1);
	cr_assert_eq(c, 'd');
	cr_assert_eq(ksys_dup2(99, 3), -EBADF);
	cr_assert_eq(ksys_dup2(fd2, NR_OPEN), -EBADF);
	cr_assert_eq(ksys_read(-1, &c, 1), -EBADF);
}

Test(vfs, dup_fd_copies_table_with_references)
{
	struct files_struct *child;
	char c;
	int fd;

	cr_assert_eq(put_file("/s", "xy", 0), 0);
	fd = ksys_open("/s", O_RDONLY, 0);
	child = dup_fd(test_files);
	ksys_close(fd);
	struct file *f = files_fget(child, fd);
	cr_assert_not_null(f, "the child's copy survives the parent's close");
	cr_assert_eq(vfs_read(f, &c, 1, &f->f_pos), 1);
	cr_assert_eq(c, 'x');
	fput(f);
	put_files_struct(child);
}

Test(vfs, descriptor_table_fills_up)
{
	int fd = 0;

	cr_assert_eq(put_file("/m", "", 0), 0);
	for (int i = 0; i < NR_OPEN; i++)
		cr_assert_geq(fd = ksys_open("/m", O_RDONLY, 0), 0);
	cr_assert_eq(ksys_open("/m", O_RDONLY, 0), -EMFILE);
	cr_assert_eq(ksys_close(fd), 0);
	cr_assert_eq(ksys_open("/m", O_RDONLY, 0), fd);
}

struct names {
	char all[512];
	int count;
};

static bool collect(struct dir_context *ctx, const char *name, int len, loff_t pos, u64 ino,
		    unsigned int type)
{
	struct names *n = (struct names *)(ctx + 1);

	strncat(n->all, name, (size_t)len);
	strcat(n->all, type == DT_DIR ? "/ " : " ");
	n->count++;
	return true;
}

Test(vfs, readdir_and_getdents64)
{
	struct { struct dir_context ctx; struct names n; } rd = { .ctx.actor = collect };
	char buf[4096];
	struct file *f;
	ssize_t len;
	int fd, count = 0;

	cr_assert_eq(ksys_mkdir("/dir", 0755), 0);
	cr_assert_eq(put_file("/dir/one", "1", 0), 0);
	cr_assert_eq(ksys_mkdir("/dir/two", 0755), 0);
	cr_assert_eq(put_file("/dir/three", "3", 0), 0);
	f = vfs_open(NULL, "/dir", O_RDONLY | O_DIRECTORY, 0);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(vfs_readdir(f, &rd.ctx), 0);
	cr_assert_str_eq(rd.n.all, "./ ../ one two/ three ");
	fput(f);

	fd = ksys_open("/dir", O_RDONLY, 0);
	cr_assert_eq(ksys_getdents64(fd, buf, 10), -EINVAL, "no entry fits");
	while ((len = ksys_getdents64(fd, buf, 48)) > 0) {
		for (ssize_t off = 0; off < len;) {
			struct linux_dirent64 *de = (struct linux_dirent64 *)(buf + off);

			cr_assert_eq(de->d_reclen % 8, 0);
			off += de->d_reclen;
			count++;
		}
	}
	cr_assert_eq(len, 0);
	cr_assert_eq(count, 5);
	cr_assert_eq(ksys_read(fd, buf, 1), -EISDIR);
	ksys_close(fd);
}

Test(vfs, unlink_rmdir_rename)
{
	char buf[8] = { 0 };
	struct kstat st;
	int fd;

	cr_assert_eq(ksys_mkdir("/r", 0755), 0);
	cr_assert_eq(put_file("/r/f", "keep", 0), 0);
	fd = ksys_open("/r/f", O_RDONLY, 0);
	cr_assert_eq(ksys_rmdir("/r"), -ENOTEMPTY);
	cr_assert_eq(ksys_unlink("/r/f"), 0);
	cr_assert_eq(ksys_stat("/r/f", &st), -ENOENT);
	cr_assert_eq(ksys_read(fd, buf, sizeof(buf)), 4, "an unlinked open file stays readable");
	ksys_close(fd);
	cr_assert_eq(ksys_rmdir("/r"), 0);
	cr_assert_eq(ksys_rmdir("/r"), -ENOENT);

	cr_assert_eq(ksys_mkdir("/p", 0755), 0);
	cr_assert_eq(ksys_mkdir("/p/q", 0755), 0);
	cr_assert_eq(put_file("/p/q/f", "moved", 0), 0);
	cr_assert_eq(ksys_rename("/p", "/p/q/inside"), -EINVAL);
	cr_assert_eq(ksys_rename("/p/q", "/q2"), 0);
	cr_assert_str_eq(slurp("/q2/f", 2), "moved");
	cr_assert_eq(put_file("/other", "old", 0), 0);
	cr_assert_eq(ksys_rename("/q2/f", "/other"), 0, "replaces a file");
	cr_assert_str_eq(slurp("/other", 2), "moved");
	cr_assert_eq(ksys_rename("/other", "/q2"), -EISDIR);
	cr_assert_eq(ksys_rename("/q2", "/other"), -ENOTDIR);
	cr_assert_eq(ksys_mkdir("/e", 0755), 0);
	cr_assert_eq(ksys_rename("/p", "/e"), 0, "replaces an empty directory");
	cr_assert_eq(ksys_stat("/p", &st), -ENOENT);
	cr_assert_eq(ksys_rename("/missing", "/x"), -ENOENT);
}

Test(vfs, cwd_relative_paths_and_getcwd)
{
	char buf[64];

	cr_assert_eq(ksys_mkdir("/home", 0755), 0);
	cr_assert_eq(ksys_mkdir("/home/user", 0755), 0);
	cr_assert_eq(ksys_chdir("/home/user"), 0);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 10);
	cr_assert_str_eq(buf, "/home/user");
	cr_assert_eq(put_file("note", "rel", 0), 0);
	cr_assert_str_eq(slurp("/home/user/note", 10), "rel");
	cr_assert_eq(ksys_chdir(".."), 0);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 5);
	cr_assert_str_eq(buf, "/home");
	cr_assert_eq(ksys_getcwd(buf, 3), -ERANGE);
	cr_assert_eq(ksys_chdir("user/note"), -ENOTDIR);
	cr_assert_eq(ksys_chdir("/"), 0);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 1);
	cr_assert_str_eq(buf, "/");
}

Test(vfs, symlinks_and_loops)
{
	char buf[32];
	struct kstat st;

	cr_assert_eq(ksys_mkdir("/real", 0755), 0);
	cr_assert_eq(put_file("/real/f", "via link", 0), 0);
	cr_assert_eq(ksys_mkdir("/sys", 0755), 0);
	cr_assert_eq(ksys_symlink("../real", "/sys/alias"), 0);
	cr_assert_str_eq(slurp("/sys/alias/f", 4), "via link");
	cr_assert_eq(ksys_chdir("/sys/alias"), 0);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 5);
	cr_assert_eq(ksys_lstat("/sys/alias", &st), 0);
	cr_assert(S_ISLNK(st.mode));
	cr_assert_eq(ksys_stat("/sys/alias", &st), 0);
	cr_assert(S_ISDIR(st.mode));
	cr_assert_eq(ksys_readlink("/sys/alias", buf, sizeof(buf)), 7);
	cr_assert_eq(ksys_symlink("/loop2", "/loop1"), 0);
	cr_assert_eq(ksys_symlink("/loop1", "/loop2"), 0);
	cr_assert_eq(ksys_stat("/loop1", &st), -ELOOP);
	cr_assert_eq(ksys_open("/loop1", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	cr_assert_eq(ksys_unlink("/loop1"), 0, "unlink removes the link itself");
	cr_assert_eq(ksys_symlink("/nowhere", "/dangling"), 0);
	cr_assert_eq(ksys_stat("/dangling", &st), -ENOENT);
}

Test(vfs, pipe_eof_epipe_nonblock)
{
	int fds[2];
	char buf[8];

	cr_assert_eq(ksys_pipe2(fds, O_NONBLOCK), 0);
	cr_assert_eq(ksys_read(fds[0], buf, 8), -EAGAIN);
	cr_assert_eq(ksys_write(fds[1], "abc", 3), 3);
	cr_assert_eq(ksys_lseek(fds[0], 0, SEEK_SET), -ESPIPE);
	cr_assert_eq(ksys_read(fds[0], buf, 8), 3);
	cr_assert_eq(ksys_write(fds[0], "x", 1), -EBADF);
	cr_assert_eq(ksys_read(fds[1], buf, 1), -EBADF);
	cr_assert_eq(ksys_close(fds[1]), 0);
	cr_assert_eq(ksys_read(fds[0], buf, 8), 0, "EOF once the writers are gone");
	ksys_close(fds[0]);

	static char page[4096];

	cr_assert_eq(ksys_pipe2(fds, O_NONBLOCK), 0);
	for (int i = 0; i < PIPE_SIZE / 4096; i++)
		cr_assert_eq(ksys_write(fds[1], page, 4096), 4096);
	cr_assert_eq(ksys_write(fds[1], "x", 1), -EAGAIN, "full");
	cr_assert_eq(ksys_close(fds[0]), 0);
	cr_assert_eq(ksys_write(fds[1], "x", 1), -EPIPE);
	ksys_close(fds[1]);
}

struct pipe_job {
	struct file *f;
	size_t size;
	unsigned int sum;
};

static void *pipe_writer(void *arg)
{
	struct pipe_job *job = arg;
	char chunk[1500];

	host_cpu_id = 1;
	this_cpu_write(current_task, &test_task);
	for (size_t done = 0; done < job->size;) {
		size_t n = min(sizeof(chunk), job->size - done);

		for (size_t i = 0; i < n; i++)
			chunk[i] = (char)(done + i);
		cr_assert_eq(vfs_write(job->f, chunk, n, &job->f->f_pos), (ssize_t)n);
		done += n;
	}
	fput(job->f);
	return NULL;
}

Test(vfs, blocking_pipe_between_threads)
{
	struct pipe_job job = { .size = 1 << 20 };
	struct file *f[2];
	pthread_t t;
	char buf[700];
	size_t got = 0;
	ssize_t n;

	cr_assert_eq(create_pipe_files(f, 0), 0);
	job.f = f[1];
	pthread_create(&t, NULL, pipe_writer, &job);
	while ((n = vfs_read(f[0], buf, sizeof(buf), &f[0]->f_pos)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			cr_assert_eq(buf[i], (char)(got + (size_t)i));
		got += (size_t)n;
	}
	pthread_join(t, NULL);
	cr_assert_eq(n, 0);
	cr_assert_eq(got, job.size);
	fput(f[0]);
}
