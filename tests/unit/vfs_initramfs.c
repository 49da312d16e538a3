/* Unit tests of the initrd unpacker against archives from the host's cpio writer. */
/* uses: host-tools/cpio.c host-tools/spoor_err.c kernel/fs/initramfs.c kernel/fs/dcache.c kernel/fs/attr.c kernel/fs/namei.c kernel/fs/open.c kernel/locking/mutex.c kernel/fs/readdir.c kernel/fs/ramfs.c kernel/fs/fdtable.c kernel/fs/sys.c kernel/fs/pipe.c kernel/sched/wait.c kernel/lib/kstring.c kernel/lib/errno.c */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include "host-tools/cpio.h"
#include <kernel/fs/initramfs.h>
#include "vfs_shim.h"

static void setup(void) { test_task_start(0); }
static void teardown(void) { test_task_end(); }
TestSuite(initramfs, .init = setup, .fini = teardown);

static char *build(size_t *len, void (*fill)(struct cpio *c))
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct cpio c;

	cpio_begin(&c, f);
	fill(&c);
	cr_assert_eq(cpio_end(&c), 0);
	fclose(f);
	return buf;
}

static char big[100000];

static void fill_sample(struct cpio *c)
{
	cpio_add_dir(c, "/etc");
	cpio_add_data(c, "/etc/motd", 0644, "welcome\n", 8);
	cpio_add_data(c, "/spoor/exec/1.sh", 0755, "echo hi\n", 8);
	cpio_add_dir(c, "/bin");
	cpio_add_entry(c, "/bin/sh-link", 0120777, "/spoor/exec/1.sh", 16);
	cpio_add_data(c, "/big", 0644, big, sizeof(big));
	cpio_add_data(c, "/empty", 0600, "", 0);
}

static const char *contents(const char *path)
{
	static char buf[200000];
	ssize_t n, len = 0;
	int fd = ksys_open(path, O_RDONLY, 0);

	cr_assert_geq(fd, 0, "open %s: %d", path, fd);
	while ((n = ksys_read(fd, buf + len, 4096)) > 0)
		len += n;
	buf[len] = '\0';
	ksys_close(fd);
	return buf;
}

Test(initramfs, unpacks_dirs_files_symlinks)
{
	struct initramfs_result res;
	struct kstat st;
	size_t len;
	char *a;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	a = build(&len, fill_sample);
	cr_assert_eq(unpack_initramfs(a, len, &res), 0, "%s", res.error);
	cr_assert_null(res.error);
	cr_assert_str_eq(contents("/etc/motd"), "welcome\n");
	cr_assert_str_eq(contents("/bin/sh-link"), "echo hi\n");
	cr_assert_eq(ksys_lstat("/bin/sh-link", &st), 0);
	cr_assert(S_ISLNK(st.mode));
	cr_assert_eq(ksys_stat("/spoor/exec/1.sh", &st), 0);
	cr_assert_eq(st.mode, S_IFREG | 0755);
	cr_assert_eq(ksys_stat("/big", &st), 0);
	cr_assert_eq(st.size, (loff_t)sizeof(big));
	cr_assert_eq(memcmp(contents("/big"), big, sizeof(big)), 0);
	cr_assert_eq(ksys_stat("/empty", &st), 0);
	cr_assert_eq(st.size, 0);
	cr_assert_eq(res.entries, 10, "every member but the trailer (etc twice)");
	free(a);
}

Test(initramfs, every_truncation_fails_cleanly_and_keeps_the_prefix)
{
	struct initramfs_result res;
	struct kstat st;
	size_t len;
	char *a = build(&len, fill_sample);

	/*
	 * Truncate at every byte of the small entries and in steps through
	 * the big one: an error each time, never a crash.
	 */
	for (size_t cut = 0; cut < len - 4; cut += cut < 1200 || cut > len - 600 ? 1 : 997) {
		char *copy = malloc(cut + 1);

		memcpy(copy, a, cut);
		int err = unpack_initramfs(copy, cut, &res);

		cr_assert_eq(err, -EINVAL, "cut at %zu: %d %s", cut, err, res.error);
		cr_assert_not_null(res.error);
		cr_assert_leq(res.error_offset, cut);
		free(copy);
	}
	/* The longest cuts kept everything before the trailer. */
	cr_assert_eq(ksys_stat("/empty", &st), 0);
	cr_assert_str_eq(contents("/etc/motd"), "welcome\n");
	free(a);
}

Test(initramfs, corrupt_headers)
{
	struct initramfs_result res;
	struct kstat st;
	size_t len;
	char *a = build(&len, fill_sample);
	char *motd = memmem(a, len, "etc/motd", 8);
	size_t entry = (size_t)(motd - a) - 110;

	memcpy(a + entry, "070707", 6);	/* old binary-ish magic */
	cr_assert_eq(unpack_initramfs(a, len, &res), -EINVAL);
	cr_assert_str_eq(res.error, "bad header (not cpio newc)");
	cr_assert_eq(res.error_offset, entry);
	cr_assert_eq(ksys_stat("/etc", &st), 0, "the entry before stays");
	cr_assert_eq(ksys_stat("/etc/motd", &st), -ENOENT);

	memcpy(a + entry, "070701", 6);
	a[entry + 6 + 8 * 6] = 'g';	/* filesize is not hex */
	cr_assert_eq(unpack_initramfs(a, len, &res), -EINVAL);
	memcpy(a + entry + 6 + 8 * 6, "7FFFFFFF", 8);	/* runs past the end */
	cr_assert_eq(unpack_initramfs(a, len, &res), -EINVAL);
	cr_assert_str_eq(res.error, "truncated data");
	memcpy(a + entry + 6 + 8 * 11, "00000003", 8);	/* name without its NUL */
	cr_assert_eq(unpack_initramfs(a, len, &res), -EINVAL);
	cr_assert_str_eq(res.error, "name not NUL-terminated");
	free(a);
}

Test(initramfs, a_file_where_a_directory_is_needed)
{
	struct initramfs_result res;
	size_t len;
	char *a;

	cr_assert_eq(ksys_open("/etc", O_WRONLY | O_CREAT, 0644), 0);
	a = build(&len, fill_sample);
	cr_assert_eq(unpack_initramfs(a, len, &res), -ENOTDIR);
	cr_assert_str_eq(res.error, "Not a directory");
	free(a);
}
