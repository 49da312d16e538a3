/*
 * fscalls: the file system calls a ring-3 shell makes beyond open/read/
 * write: symlink, readlink, rename, link, fchdir, truncate, chmod, fsync,
 * utimensat, and the resource calls getrusage, times and time. Each call runs
 * with good and bad arguments through syscall(2), so what is printed is
 * the kernel's own answer, one line each: "WHAT: RESULT" with RESULT the
 * return value, the errno's name, or a property checked ("yes"/"no").
 * The same binary on Linux 6.12 prints what tests/boot/fscalls.sh expects.
 *
 * Usage: fscalls [DIR]  (DIR, default /tmp/fscalls, must not exist)
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>

#define BAD		((void *)8)	/* an address no program has mapped */
#define KERNEL_PTR	((void *)0xffffffff81000000UL)
#define NOFD		999
#define RENAME_NOREPLACE	1
#define RENAME_EXCHANGE		2

static const char *dir;

static const char *errname(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EBADF, "EBADF" },
		{ EFAULT, "EFAULT" }, { EEXIST, "EEXIST" }, { EXDEV, "EXDEV" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { ELOOP, "ELOOP" }, { EBUSY, "EBUSY" },
		{ ENOSYS, "ENOSYS" }, { EACCES, "EACCES" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ EROFS, "EROFS" },
	};
	static char other[16];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "errno %d", e);
	return other;
}

/* A syscall's result: its value, or the errno's name. */
static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, errname(errno));
	else
		printf("%s: %ld\n", what, r);
}

static void yes(const char *what, int cond)
{
	printf("%s: %s\n", what, cond ? "yes" : "no");
}

/* DIR/name in a static buffer (two at a time). */
static const char *at(const char *name)
{
	static char buf[2][512];
	static int i;

	i ^= 1;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void put(const char *name, const char *text)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd)) {
		printf("setup %s failed: %s\n", name, errname(errno));
		exit(1);
	}
}

static struct stat st_of(const char *name, int follow)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	if ((follow ? stat : lstat)(at(name), &st))
		st.st_mode = 0;
	return st;
}

static const char *link_text(const char *name)
{
	static char buf[256];
	long n = syscall(SYS_readlink, at(name), buf, sizeof(buf) - 1);

	buf[n < 0 ? 0 : n] = '\0';
	return n < 0 ? errname(errno) : buf;
}

static void symlinks(int dfd, int filefd)
{
	char buf[64];
	long n;

	show("symlink", syscall(SYS_symlink, "target", at("l")));
	printf("symlink: reads back %s\n", link_text("l"));
	show("symlink existing", syscall(SYS_symlink, "target", at("l")));
	show("symlink bad target", syscall(SYS_symlink, BAD, at("l2")));
	show("symlink bad path", syscall(SYS_symlink, "target", BAD));
	show("symlink empty target", syscall(SYS_symlink, "", at("l2")));
	show("symlink no parent", syscall(SYS_symlink, "t", at("nodir/l")));
	show("symlink parent a file", syscall(SYS_symlink, "t", at("file/l")));
	show("symlink trailing slash", syscall(SYS_symlink, "t", at("sl/")));
	show("symlink trailing slash existing", syscall(SYS_symlink, "t", at("l/")));
	show("mkdir trailing slash", syscall(SYS_mkdir, at("sd/"), 0755));
	show("symlinkat", syscall(SYS_symlinkat, "target2", dfd, "l2"));
	printf("symlinkat: reads back %s\n", link_text("l2"));
	show("symlinkat bad dirfd", syscall(SYS_symlinkat, "x", NOFD, "l3"));
	show("symlinkat file dirfd", syscall(SYS_symlinkat, "x", filefd, "l3"));
	show("symlinkat absolute ignores dirfd", syscall(SYS_symlinkat, "x", NOFD, at("l3")));
	show("symlink loop1", syscall(SYS_symlink, "loop2", at("loop1")));
	show("symlink loop2", syscall(SYS_symlink, "loop1", at("loop2")));
	show("stat of a loop", syscall(SYS_stat, at("loop1"), buf));
	printf("readlink of a loop: %s\n", link_text("loop1"));
	show("readlink through a loop", syscall(SYS_readlink, at("loop1/x"), buf, sizeof(buf)));

	n = syscall(SYS_readlinkat, dfd, "l", buf, sizeof(buf));
	show("readlinkat", n);
	printf("readlinkat: text %.*s\n", n > 0 ? (int)n : 0, buf);
	n = syscall(SYS_readlinkat, dfd, "l", buf, 3);
	printf("readlinkat short buffer: %ld %.*s\n", n, n > 0 ? (int)n : 0, buf);
	show("readlinkat not a link", syscall(SYS_readlinkat, dfd, "file", buf, sizeof(buf)));
	show("readlinkat size 0", syscall(SYS_readlinkat, dfd, "l", buf, 0));
	show("readlinkat size -1", syscall(SYS_readlinkat, dfd, "l", buf, -1L));
	show("readlinkat bad buffer", syscall(SYS_readlinkat, dfd, "l", BAD, sizeof(buf)));
	show("readlinkat kernel buffer", syscall(SYS_readlinkat, dfd, "l", KERNEL_PTR, sizeof(buf)));
	show("readlinkat bad path", syscall(SYS_readlinkat, dfd, BAD, buf, sizeof(buf)));
	show("readlinkat bad dirfd", syscall(SYS_readlinkat, NOFD, "l", buf, sizeof(buf)));
	show("readlinkat file dirfd", syscall(SYS_readlinkat, filefd, "l", buf, sizeof(buf)));
	show("readlinkat missing", syscall(SYS_readlinkat, dfd, "missing", buf, sizeof(buf)));
	show("readlinkat empty path", syscall(SYS_readlinkat, dfd, "", buf, sizeof(buf)));
	show("readlinkat empty path bad dirfd", syscall(SYS_readlinkat, NOFD, "", buf, sizeof(buf)));
	show("readlinkat empty path file dirfd", syscall(SYS_readlinkat, filefd, "", buf, sizeof(buf)));
	show("readlink empty path", syscall(SYS_readlink, "", buf, sizeof(buf)));
}

static void renames(int dfd)
{
	put("a", "A");
	show("renameat", syscall(SYS_renameat, dfd, "a", dfd, "b"));
	yes("renameat: old name gone", st_of("a", 0).st_mode == 0);
	yes("renameat: new name there", S_ISREG(st_of("b", 0).st_mode));
	show("renameat missing", syscall(SYS_renameat, dfd, "missing", dfd, "c"));
	show("renameat bad old dirfd", syscall(SYS_renameat, NOFD, "b", dfd, "c"));
	show("renameat bad new dirfd", syscall(SYS_renameat, dfd, "b", NOFD, "c"));
	show("renameat bad old path", syscall(SYS_renameat, dfd, BAD, dfd, "c"));
	show("renameat bad new path", syscall(SYS_renameat, dfd, "b", dfd, BAD));
	show("renameat under a file", syscall(SYS_renameat, dfd, "b", dfd, "file/x"));
	syscall(SYS_mkdir, at("d1"), 0755);
	syscall(SYS_mkdir, at("d2"), 0755);
	syscall(SYS_mkdir, at("d2/sub"), 0755);
	show("renameat dir onto non-empty dir", syscall(SYS_renameat, dfd, "d1", dfd, "d2"));
	show("renameat dir onto file", syscall(SYS_renameat, dfd, "d1", dfd, "b"));
	show("renameat file onto dir", syscall(SYS_renameat, dfd, "b", dfd, "d1"));
	show("renameat dir into itself", syscall(SYS_renameat, dfd, "d2", dfd, "d2/sub/x"));
	show("renameat dir onto empty dir", syscall(SYS_renameat, dfd, "d1", dfd, "d2/sub"));
	show("renameat2 noreplace existing", syscall(SYS_renameat2, dfd, "b", dfd, "file",
						     RENAME_NOREPLACE));
	show("renameat2 noreplace", syscall(SYS_renameat2, dfd, "b", dfd, "c", RENAME_NOREPLACE));
	yes("renameat2 noreplace: moved", S_ISREG(st_of("c", 0).st_mode) && !st_of("b", 0).st_mode);
	show("renameat2 flags 0", syscall(SYS_renameat2, dfd, "c", dfd, "b", 0));
	show("renameat2 unknown flag", syscall(SYS_renameat2, dfd, "b", dfd, "c", 8));
	show("renameat2 noreplace|exchange", syscall(SYS_renameat2, dfd, "b", dfd, "c",
						     RENAME_NOREPLACE | RENAME_EXCHANGE));
	show("renameat2 unknown flag bad path", syscall(SYS_renameat2, dfd, BAD, dfd, "c", 8));
	show("rename a file with a trailing slash", syscall(SYS_rename, at("b/"), at("c")));
	show("rename a file to a trailing slash", syscall(SYS_rename, at("b"), at("c/")));
	show("rename onto itself", syscall(SYS_rename, at("b"), at("b")));
	show("renameat2 noreplace onto itself", syscall(SYS_renameat2, dfd, "b", dfd, "b",
							RENAME_NOREPLACE));
}

static void chdirs(int dfd, int filefd)
{
	char cwd[512];
	int p[2];

	show("fchdir", syscall(SYS_fchdir, dfd));
	yes("fchdir: getcwd is the dir", getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, dir));
	yes("fchdir: relative paths follow", S_ISREG(st_of("file", 1).st_mode) &&
	    access("file", F_OK) == 0);
	show("fchdir bad fd", syscall(SYS_fchdir, NOFD));
	show("fchdir file", syscall(SYS_fchdir, filefd));
	if (pipe(p) == 0) {
		show("fchdir pipe", syscall(SYS_fchdir, p[0]));
		close(p[0]);
		close(p[1]);
	}
	{
		struct stat st, want;

		stat(dir, &want);
		show("fstatat empty path of AT_FDCWD", syscall(SYS_newfstatat, AT_FDCWD, "", &st,
								AT_EMPTY_PATH));
		yes("fstatat empty path of AT_FDCWD: the working directory", st.st_ino == want.st_ino);
		show("fstatat empty path of a file", syscall(SYS_newfstatat, filefd, "", &st,
							      AT_EMPTY_PATH));
		show("fstatat empty path, bad fd", syscall(SYS_newfstatat, NOFD, "", &st,
							    AT_EMPTY_PATH));
	}
	show("chdir back to /", syscall(SYS_chdir, "/"));
}

static void links(int dfd)
{
	struct stat a, b;
	int fd;

	put("lfile", "linked");
	show("link", syscall(SYS_link, at("lfile"), at("hard")));
	a = st_of("lfile", 0);
	b = st_of("hard", 0);
	yes("link: same inode", a.st_ino == b.st_ino && a.st_ino != 0);
	printf("link: nlink %lu %lu\n", (unsigned long)a.st_nlink, (unsigned long)b.st_nlink);
	show("link existing", syscall(SYS_link, at("lfile"), at("hard")));
	show("link missing", syscall(SYS_link, at("missing"), at("h2")));
	show("link a directory", syscall(SYS_link, dir, at("h2")));
	show("link bad old path", syscall(SYS_link, BAD, at("h2")));
	show("link bad new path", syscall(SYS_link, at("lfile"), BAD));
	show("link under a file", syscall(SYS_link, at("lfile"), at("file/x")));
	show("link into a missing dir", syscall(SYS_link, at("lfile"), at("nodir/x")));
	show("link to a trailing slash", syscall(SYS_link, at("lfile"), at("nl/")));
	show("link to /proc", syscall(SYS_link, "/proc/self/status", at("p")));
	syscall(SYS_symlink, "lfile", at("lsym"));
	show("link a symlink", syscall(SYS_link, at("lsym"), at("lsym2")));
	yes("link a symlink: the link itself", S_ISLNK(st_of("lsym2", 0).st_mode));
	show("linkat follow", syscall(SYS_linkat, dfd, "lsym", dfd, "lfollow", AT_SYMLINK_FOLLOW));
	yes("linkat follow: the target", S_ISREG(st_of("lfollow", 0).st_mode));
	printf("linkat follow: nlink %lu\n", (unsigned long)st_of("lfile", 0).st_nlink);
	show("linkat bad flags", syscall(SYS_linkat, dfd, "lfile", dfd, "x", 0x2));
	show("linkat bad dirfd", syscall(SYS_linkat, NOFD, "lfile", dfd, "x", 0));
	show("linkat follow loop", syscall(SYS_linkat, dfd, "loop1", dfd, "x", AT_SYMLINK_FOLLOW));
	show("unlink a name", syscall(SYS_unlink, at("lfile")));
	printf("unlink a name: nlink %lu, data %s\n", (unsigned long)st_of("hard", 0).st_nlink,
	       st_of("hard", 0).st_size == 6 ? "kept" : "lost");
	fd = open(at("hard"), O_RDONLY);
	show("linkat empty path", syscall(SYS_linkat, fd, "", dfd, "again", AT_EMPTY_PATH));
	show("linkat empty path without the flag", syscall(SYS_linkat, fd, "", dfd, "x", 0));
	syscall(SYS_unlink, at("hard"));
	syscall(SYS_unlink, at("lfollow"));
	syscall(SYS_unlink, at("again"));
	fstat(fd, &a);
	printf("all names gone: nlink %lu\n", (unsigned long)a.st_nlink);
	show("linkat of an unlinked file", syscall(SYS_linkat, fd, "", dfd, "back", AT_EMPTY_PATH));
	close(fd);
}

static void truncates(int dfd)
{
	char buf[16] = { 0 };
	int fd, ro, p[2];

	put("t", "0123456789abcdef");
	show("truncate grow", syscall(SYS_truncate, at("t"), 8192));
	printf("truncate grow: size %ld\n", (long)st_of("t", 1).st_size);
	show("truncate shrink", syscall(SYS_truncate, at("t"), 10));
	fd = open(at("t"), O_RDWR);
	printf("truncate shrink: size %ld, reads %.*s\n", (long)st_of("t", 1).st_size,
	       (int)read(fd, buf, sizeof(buf)), buf);
	show("truncate negative", syscall(SYS_truncate, at("t"), -1L));
	show("truncate dir", syscall(SYS_truncate, dir, 0));
	show("truncate missing", syscall(SYS_truncate, at("missing"), 0));
	show("truncate bad path", syscall(SYS_truncate, BAD, 0));
	show("truncate under a file", syscall(SYS_truncate, at("file/x"), 0));
	show("truncate loop", syscall(SYS_truncate, at("loop1"), 0));
	show("truncate negative bad path", syscall(SYS_truncate, BAD, -1L));
	show("ftruncate", syscall(SYS_ftruncate, fd, 4));
	syscall(SYS_ftruncate, fd, 6);
	memset(buf, 'x', sizeof(buf));
	printf("ftruncate: size %ld, regrown bytes %s\n", (long)st_of("t", 1).st_size,
	       pread(fd, buf, 6, 0) == 6 && !memcmp(buf, "0123\0\0", 6) ? "zero" : "stale");
	ro = open(at("t"), O_RDONLY);
	show("ftruncate read-only fd", syscall(SYS_ftruncate, ro, 0));
	show("ftruncate bad fd", syscall(SYS_ftruncate, NOFD, 0));
	show("ftruncate dir", syscall(SYS_ftruncate, dfd, 0));
	show("ftruncate negative", syscall(SYS_ftruncate, fd, -1L));
	show("ftruncate negative bad fd", syscall(SYS_ftruncate, NOFD, -1L));
	if (pipe(p) == 0) {
		show("ftruncate pipe", syscall(SYS_ftruncate, p[1], 0));
		show("fsync pipe", syscall(SYS_fsync, p[1]));
		close(p[0]);
		close(p[1]);
	}
	show("fsync", syscall(SYS_fsync, fd));
	show("fdatasync", syscall(SYS_fdatasync, fd));
	show("fsync read-only fd", syscall(SYS_fsync, ro));
	show("fsync dir", syscall(SYS_fsync, dfd));
	show("fsync bad fd", syscall(SYS_fsync, NOFD));
	show("fdatasync bad fd", syscall(SYS_fdatasync, NOFD));
	close(fd);
	close(ro);
	fd = open("/dev/null", O_WRONLY);
	show("fsync /dev/null", syscall(SYS_fsync, fd));
	show("ftruncate /dev/null", syscall(SYS_ftruncate, fd, 0));
	close(fd);
}

static void chmods(int dfd, int filefd)
{
	int fd;

	put("m", "mode");
	show("chmod", syscall(SYS_chmod, at("m"), 0600));
	printf("chmod: mode %o\n", st_of("m", 1).st_mode);
	show("chmod setuid", syscall(SYS_chmod, at("m"), 04755));
	printf("chmod setuid: mode %o\n", st_of("m", 1).st_mode);
	show("chmod type bits ignored", syscall(SYS_chmod, at("m"), 0170644));
	printf("chmod type bits ignored: mode %o\n", st_of("m", 1).st_mode);
	show("chmod missing", syscall(SYS_chmod, at("missing"), 0644));
	show("chmod bad path", syscall(SYS_chmod, BAD, 0644));
	show("chmod loop", syscall(SYS_chmod, at("loop1"), 0644));
	syscall(SYS_symlink, "m", at("msym"));
	show("chmod through a symlink", syscall(SYS_chmod, at("msym"), 0640));
	printf("chmod through a symlink: target %o, link %o\n", st_of("m", 1).st_mode,
	       st_of("msym", 0).st_mode);
	fd = open(at("m"), O_RDONLY);
	show("fchmod", syscall(SYS_fchmod, fd, 0444));
	printf("fchmod: mode %o\n", st_of("m", 1).st_mode);
	show("fchmod bad fd", syscall(SYS_fchmod, NOFD, 0444));
	close(fd);
	show("fchmodat", syscall(SYS_fchmodat, dfd, "m", 0604));
	printf("fchmodat: mode %o\n", st_of("m", 1).st_mode);
	show("fchmodat bad dirfd", syscall(SYS_fchmodat, NOFD, "m", 0644));
	show("fchmodat file dirfd", syscall(SYS_fchmodat, filefd, "m", 0644));
	show("fchmodat bad path", syscall(SYS_fchmodat, dfd, BAD, 0644));
	syscall(SYS_mkdir, at("md"), 0755);
	show("chmod dir", syscall(SYS_chmod, at("md"), 0700));
	printf("chmod dir: mode %o\n", st_of("md", 1).st_mode);
	umask(022);
	fd = open(at("created"), O_WRONLY | O_CREAT, 0664);
	printf("create 0664 under umask 022: mode %o\n", st_of("created", 1).st_mode);
	close(fd);
}

/* Files of other file systems: tracefs and /proc, against the test's own. */
static void pseudo_files(void)
{
	const char *marker = "/sys/kernel/tracing/trace_marker";
	struct stat st;
	int fd;

	show("truncate a tracefs file", syscall(SYS_truncate, "/sys/kernel/tracing/trace", 0L));
	show("truncate a /proc file", syscall(SYS_truncate, "/proc/self/status", 0L));
	fd = open(marker, O_WRONLY);
	show("ftruncate a tracefs file", syscall(SYS_ftruncate, fd, 0L));
	show("fsync a tracefs file", syscall(SYS_fsync, fd));
	show("fchmod a tracefs file", syscall(SYS_fchmod, fd, 0640));
	memset(&st, 0, sizeof(st));
	fstat(fd, &st);
	printf("fchmod a tracefs file: mode %o\n", st.st_mode);
	syscall(SYS_fchmod, fd, 0200);
	close(fd);
	show("chmod a /proc/PID file", syscall(SYS_chmod, "/proc/self/status", 0600));
	put("x", "x");
	show("rename into /proc", syscall(SYS_rename, at("x"), "/proc/x"));
	show("rename out of /proc", syscall(SYS_rename, "/proc/self/status", at("s")));
	show("rename within /proc", syscall(SYS_rename, "/proc/self/status", "/proc/self/s"));
	show("link into /proc", syscall(SYS_link, at("x"), "/proc/x"));
	show("symlink in /proc", syscall(SYS_symlink, "x", "/proc/x"));
	show("utimensat a /proc file", syscall(SYS_utimensat, AT_FDCWD, "/proc/self/status", NULL, 0));
}

static int ts_eq(struct timespec t, long sec, long nsec)
{
	return t.tv_sec == sec && t.tv_nsec == nsec;
}

static void times_of_files(int dfd)
{
	struct timespec ts[2] = { { 1000, 500 }, { 2000, 600 } }, omit_a[2], omit_both[2], bad[2];
	struct timespec before, now;
	struct stat st;
	int fd;

	put("u", "times");
	clock_gettime(CLOCK_REALTIME, &before);
	show("utimensat set", syscall(SYS_utimensat, AT_FDCWD, at("u"), ts, 0));
	st = st_of("u", 1);
	yes("utimensat set: atime and mtime as given", ts_eq(st.st_atim, 1000, 500) &&
	    ts_eq(st.st_mtim, 2000, 600));
	yes("utimensat set: ctime now", st.st_ctim.tv_sec >= before.tv_sec);
	omit_a[0] = (struct timespec){ 0, UTIME_OMIT };
	omit_a[1] = (struct timespec){ 3000, 0 };
	show("utimensat omit atime", syscall(SYS_utimensat, dfd, "u", omit_a, 0));
	st = st_of("u", 1);
	yes("utimensat omit atime: atime kept", ts_eq(st.st_atim, 1000, 500) &&
	    ts_eq(st.st_mtim, 3000, 0));
	show("utimensat now", syscall(SYS_utimensat, AT_FDCWD, at("u"), NULL, 0));
	clock_gettime(CLOCK_REALTIME, &now);
	st = st_of("u", 1);
	yes("utimensat now: both now", st.st_mtim.tv_sec >= before.tv_sec &&
	    st.st_mtim.tv_sec <= now.tv_sec && st.st_atim.tv_sec == st.st_mtim.tv_sec);
	omit_both[0] = omit_both[1] = (struct timespec){ 0, UTIME_OMIT };
	show("utimensat omit both, missing path", syscall(SYS_utimensat, AT_FDCWD, at("missing"),
							   omit_both, 0));
	bad[0] = (struct timespec){ 0, 1000000000 };
	bad[1] = (struct timespec){ 0, 0 };
	show("utimensat nsec out of range", syscall(SYS_utimensat, AT_FDCWD, at("u"), bad, 0));
	show("utimensat nsec out of range, missing", syscall(SYS_utimensat, AT_FDCWD,
							      at("missing"), bad, 0));
	show("utimensat bad times", syscall(SYS_utimensat, AT_FDCWD, at("u"), BAD, 0));
	show("utimensat bad path", syscall(SYS_utimensat, AT_FDCWD, BAD, NULL, 0));
	show("utimensat missing", syscall(SYS_utimensat, AT_FDCWD, at("missing"), NULL, 0));
	show("utimensat bad flags", syscall(SYS_utimensat, AT_FDCWD, at("u"), NULL, 0x2));
	show("utimensat bad dirfd", syscall(SYS_utimensat, NOFD, "u", NULL, 0));
	show("utimensat loop", syscall(SYS_utimensat, AT_FDCWD, at("loop1"), NULL, 0));
	syscall(SYS_symlink, "u", at("usym"));
	show("utimensat nofollow", syscall(SYS_utimensat, dfd, "usym", ts, AT_SYMLINK_NOFOLLOW));
	yes("utimensat nofollow: the link's times",
	    ts_eq(st_of("usym", 0).st_mtim, 2000, 600) && !ts_eq(st_of("u", 1).st_mtim, 2000, 600));
	fd = open(at("u"), O_RDONLY);
	show("futimens", syscall(SYS_utimensat, fd, NULL, ts, 0));
	yes("futimens: set", ts_eq(st_of("u", 1).st_mtim, 2000, 600));
	show("futimens with flags", syscall(SYS_utimensat, fd, NULL, ts, AT_SYMLINK_NOFOLLOW));
	show("utimensat empty path", syscall(SYS_utimensat, fd, "", NULL, AT_EMPTY_PATH));
	show("utimensat empty path without the flag", syscall(SYS_utimensat, fd, "", NULL, 0));
	close(fd);
	show("futimens bad fd", syscall(SYS_utimensat, NOFD, NULL, ts, 0));
	show("utimensat NULL path, AT_FDCWD", syscall(SYS_utimensat, AT_FDCWD, NULL, ts, 0));
}

static long cpu_ms(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Burns ms of this thread's CPU time. */
static void burn(long ms)
{
	long end = cpu_ms(CLOCK_THREAD_CPUTIME_ID) + ms;
	volatile unsigned long x = 0;

	while (cpu_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
}

static void *burner(void *arg)
{
	burn(60);
	return arg;
}

static long tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void resource_usage(void)
{
	struct rusage ru, before;
	struct tms t0, t1;
	long ticks0, ticks1, wall0, wall1;
	int status;
	pid_t pid;

	ticks0 = syscall(SYS_times, &t0);
	wall0 = cpu_ms(CLOCK_MONOTONIC);
	show("getrusage self", syscall(SYS_getrusage, RUSAGE_SELF, &before));
	burn(60);
	syscall(SYS_getrusage, RUSAGE_SELF, &ru);
	yes("getrusage self: 60 ms burnt show",
	    tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime) - tv_ms(before.ru_utime) -
	    tv_ms(before.ru_stime) >= 50);
	yes("getrusage self: page faults counted", ru.ru_minflt > 0);
	show("getrusage thread", syscall(SYS_getrusage, 1 /* RUSAGE_THREAD */, &ru));
	yes("getrusage thread: time shows", tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime) >= 50);
	{
		long cpu0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
		pthread_t th;

		syscall(SYS_getrusage, RUSAGE_SELF, &before);
		pthread_create(&th, NULL, burner, NULL);
		pthread_join(th, NULL);
		syscall(SYS_getrusage, RUSAGE_SELF, &ru);
		yes("getrusage self: an exited thread's 60 ms show",
		    tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime) - tv_ms(before.ru_utime) -
		    tv_ms(before.ru_stime) >= 50);
		yes("process CPU clock: an exited thread's 60 ms show",
		    cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0 >= 50);
	}
	show("getrusage children", syscall(SYS_getrusage, RUSAGE_CHILDREN, &before));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		burn(60);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	syscall(SYS_getrusage, RUSAGE_CHILDREN, &ru);
	yes("getrusage children: a waited child's 60 ms show",
	    tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime) - tv_ms(before.ru_utime) -
	    tv_ms(before.ru_stime) >= 50);
	show("getrusage bad who", syscall(SYS_getrusage, 5, &ru));
	show("getrusage bad pointer", syscall(SYS_getrusage, RUSAGE_SELF, BAD));
	ticks1 = syscall(SYS_times, &t1);
	wall1 = cpu_ms(CLOCK_MONOTONIC);
	/* clock_t is 1/100 s; allow a tick either way. */
	yes("times: return value counts 1/100 s",
	    ticks1 - ticks0 >= (wall1 - wall0) / 10 - 2 && ticks1 - ticks0 <= (wall1 - wall0) / 10 + 2);
	yes("times: own CPU time", t1.tms_utime + t1.tms_stime - t0.tms_utime - t0.tms_stime >= 5);
	yes("times: children's CPU time", t1.tms_cutime + t1.tms_cstime -
	    t0.tms_cutime - t0.tms_cstime >= 5);
	yes("times NULL", syscall(SYS_times, NULL) >= ticks1);
	show("times bad pointer", syscall(SYS_times, BAD));
	{
		struct timespec rt;
		time_t stored = 0;
		long sec;

		clock_gettime(CLOCK_REALTIME, &rt);
		sec = syscall(SYS_time, &stored);
		yes("time: the realtime clock's seconds, stored too",
		    sec >= rt.tv_sec && sec <= rt.tv_sec + 1 && stored == sec);
		yes("time NULL", syscall(SYS_time, NULL) >= sec);
		show("time bad pointer", syscall(SYS_time, BAD));
	}
}

int main(int argc, char **argv)
{
	int dfd, filefd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	dir = argc > 1 ? argv[1] : "/tmp/fscalls";
	if (mkdir(dir, 0755)) {
		printf("fscalls: mkdir %s: %s\n", dir, errname(errno));
		return 1;
	}
	put("file", "plain");
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	filefd = open(at("file"), O_RDONLY);
	symlinks(dfd, filefd);
	renames(dfd);
	chdirs(dfd, filefd);
	links(dfd);
	truncates(dfd);
	chmods(dfd, filefd);
	times_of_files(dfd);
	pseudo_files();
	resource_usage();
	printf("fscalls: done\n");
	return 0;
}
