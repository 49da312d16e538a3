/* Unit tests of pseudo files, seq_file and the tracefs skeleton. */
/* uses: kernel/fs/pseudo.c kernel/fs/seq_file.c kernel/locking/mutex.c kernel/fs/tracefs.c kernel/fs/dcache.c kernel/fs/attr.c kernel/fs/namei.c kernel/fs/open.c kernel/fs/readdir.c kernel/fs/ramfs.c kernel/fs/fdtable.c kernel/fs/sys.c kernel/fs/pipe.c kernel/sched/wait.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/tracefs.h>
#include <kernel/string.h>
#include "vfs_shim.h"

static void setup(void) { test_task_start(0); }
static void teardown(void) { test_task_end(); }
TestSuite(pseudo, .init = setup, .fini = teardown);

static int generations;

static int lines_show(struct seq_file *m, void *v)
{
	long n = (long)m->private;

	generations++;
	for (long i = 0; i < n; i++)
		seq_printf(m, "line %ld of %ld: %s\n", i, n, "some padding to make it longer");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lines);

static char *read_all(int fd, size_t chunk, size_t *len)
{
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t n;

	*len = 0;
	for (;;) {
		if (*len + chunk > cap)
			buf = realloc(buf, cap *= 2);
		n = ksys_read(fd, buf + *len, chunk);
		cr_assert_geq(n, 0);
		if (!n)
			break;
		*len += (size_t)n;
	}
	return buf;
}

Test(pseudo, seq_file_pages_big_output_through_small_reads)
{
	struct dentry *dir = pseudo_create_dir(NULL, "proc");
	char expect[128];
	size_t len, at = 0;
	char *text;
	int fd;

	cr_assert(!IS_ERR(dir));
	cr_assert(!IS_ERR(pseudo_create_file(dir, "big", 0444, &lines_fops, (void *)5000L)));
	fd = ksys_open("/proc/big", O_RDONLY, 0);
	cr_assert_geq(fd, 0);
	text = read_all(fd, 7, &len);
	cr_assert_eq(generations, 1);
	for (long i = 0; i < 5000; i++) {
		int n = snprintf(expect, sizeof(expect), "line %ld of 5000: %s\n", i,
				 "some padding to make it longer");
		cr_assert_eq(memcmp(text + at, expect, (size_t)n), 0, "line %ld", i);
		at += (size_t)n;
	}
	cr_assert_eq(at, len);
	free(text);
	cr_assert_eq(ksys_lseek(fd, 0, SEEK_SET), 0);
	free(read_all(fd, 4096, &len));
	cr_assert_eq(generations, 2, "seeking to 0 generates afresh");
	cr_assert_eq(ksys_write(fd, "x", 1), -EBADF);
	ksys_close(fd);
	fd = ksys_open("/proc/big", O_WRONLY, 0);
	cr_assert_eq(ksys_write(fd, "x", 1), -EINVAL, "no write op");
	ksys_close(fd);
	cr_assert_eq(generations, 2, "a write-only open never generates");
}

static char last_write[64];

static ssize_t knob_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	unsigned long long v;
	char tmp[32];

	if (count >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, count);
	tmp[count] = '\0';
	if (kstrtoull(tmp, 10, &v))
		return -EINVAL;
	snprintf(last_write, sizeof(last_write), "%llu", v);
	return (ssize_t)count;
}

static const struct file_operations knob_fops = { .write = knob_write };

Test(pseudo, writes_reach_the_handler_and_its_errno_comes_back)
{
	int fd;

	cr_assert(!IS_ERR(pseudo_create_file(NULL, "knob", 0200, &knob_fops, NULL)));
	fd = ksys_open("/knob", O_WRONLY | O_TRUNC, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ksys_write(fd, "42\n", 3), 3);
	cr_assert_str_eq(last_write, "42");
	cr_assert_eq(ksys_write(fd, "forty", 5), -EINVAL);
	cr_assert_eq(ksys_read(fd, last_write, 1), -EBADF);
	cr_assert_eq(ksys_lseek(fd, 0, SEEK_SET), -ESPIPE);
	ksys_close(fd);
	fd = ksys_open("/knob", O_RDONLY, 0);
	cr_assert_eq(ksys_read(fd, last_write, 1), -EINVAL, "no read op");
	ksys_close(fd);
}

Test(pseudo, pseudo_directories_refuse_changes)
{
	struct dentry *dev = pseudo_create_dir(NULL, "dev");
	struct kstat st;

	cr_assert(!IS_ERR(pseudo_create_file(dev, "null", S_IFCHR | 0666, &knob_fops, NULL)));
	cr_assert_eq(PTR_ERR(pseudo_create_dir(NULL, "dev")), -EEXIST);
	cr_assert_eq(ksys_stat("/dev/null", &st), 0);
	cr_assert(S_ISCHR(st.mode));
	cr_assert_eq(ksys_mkdir("/dev/x", 0755), -EPERM);
	cr_assert_eq(ksys_open("/dev/new", O_WRONLY | O_CREAT, 0644), -EACCES);	/* no create: Linux's vfs_create says EACCES */
	cr_assert_eq(ksys_unlink("/dev/null"), -EPERM);
	cr_assert_eq(ksys_rmdir("/dev"), -EBUSY, "like a mount point");
	cr_assert_eq(ksys_rename("/dev", "/devices"), -EBUSY);
	cr_assert_eq(ksys_open("/dev/null", O_WRONLY | O_TRUNC, 0), 0,
		     "O_TRUNC leaves pseudo files to their owner");
	pseudo_remove(dev);
	cr_assert_eq(ksys_stat("/dev/null", &st), -ENOENT);
	cr_assert_eq(ksys_close(0), 0, "a file open across removal closes cleanly");
}

static int comm_show(struct seq_file *m, void *v)
{
	seq_printf(m, "task%ld\n", (long)m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(comm);

static const struct pseudo_entry pid_entries[] = {
	{ "comm", 0444, &comm_fops },
	{ "stat", 0444, &comm_fops },
};

static struct dentry *pid_lookup(struct dentry *dir, const char *name)
{
	return pseudo_table_lookup(dir, name, pid_entries, ARRAY_SIZE(pid_entries));
}

static int pid_iterate(struct dentry *dir, struct dir_context *ctx)
{
	return pseudo_table_iterate(dir, ctx, pid_entries, ARRAY_SIZE(pid_entries));
}

static const struct inode_operations pid_iops = { .lookup = pid_lookup, .iterate = pid_iterate };

/* Dynamic /proc: pids 1..3 exist. */
static struct dentry *proc_lookup(struct dentry *dir, const char *name)
{
	long pid = strtol(name, NULL, 10);

	if (pid < 1 || pid > 3)
		return NULL;
	return pseudo_new_dir(dir, name, &pid_iops, (void *)pid);
}

static int proc_iterate(struct dentry *dir, struct dir_context *ctx)
{
	char name[8];

	for (; ctx->pos < 3; ctx->pos++) {
		int n = snprintf(name, sizeof(name), "%ld", (long)ctx->pos + 1);

		if (!dir_emit(ctx, name, n, 1000 + (u64)ctx->pos, DT_DIR))
			break;
	}
	return 0;
}

static const struct inode_operations proc_iops = { .lookup = proc_lookup, .iterate = proc_iterate };

static bool collect(struct dir_context *ctx, const char *name, int len, loff_t pos, u64 ino,
		    unsigned int type)
{
	char *all = (char *)(ctx + 1);

	strncat(all, name, (size_t)len);
	strcat(all, " ");
	return true;
}

Test(pseudo, dynamic_directories)
{
	struct { struct dir_context ctx; char all[256]; } rd = { .ctx.actor = collect };
	struct dentry *proc = pseudo_create_dir_ops(NULL, "proc", &proc_iops, NULL);
	char buf[32] = { 0 };
	struct file *f;
	int fd;

	cr_assert(!IS_ERR(pseudo_create_file(proc, "version", 0444, &comm_fops, (void *)9L)));
	f = vfs_open(NULL, "/proc", O_RDONLY, 0);
	cr_assert_eq(vfs_readdir(f, &rd.ctx), 0);
	cr_assert_str_eq(rd.all, ". .. version 1 2 3 ");
	fput(f);
	memset(rd.all, 0, sizeof(rd.all));
	f = vfs_open(NULL, "/proc/2", O_RDONLY | O_DIRECTORY, 0);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(vfs_readdir(f, &rd.ctx), 0);
	cr_assert_str_eq(rd.all, ". .. comm stat ");
	fput(f);
	fd = ksys_open("/proc/2/comm", O_RDONLY, 0);
	cr_assert_eq(ksys_read(fd, buf, sizeof(buf)), 6);
	cr_assert_str_eq(buf, "task2\n");
	ksys_close(fd);
	cr_assert_eq(ksys_chdir("/proc/3"), 0);
	cr_assert_eq(ksys_getcwd(buf, sizeof(buf)), 7);
	cr_assert_str_eq(buf, "/proc/3");
	cr_assert_eq(ksys_open("../2/comm", O_RDONLY, 0), 0);
	cr_assert_eq(ksys_open("/proc/4/comm", O_RDONLY, 0), -ENOENT);
	cr_assert_eq(ksys_open("/proc/1/nope", O_RDONLY, 0), -ENOENT);
	/* /proc's lookups make every name there is: Linux answers ENOENT for any other. */
	cr_assert_eq(ksys_mkdir("/proc/1/x", 0755), -ENOENT);
	cr_assert_eq(ksys_symlink("x", "/proc/x"), -ENOENT);
	cr_assert_eq(ksys_rename("/proc/2/comm", "/proc/2/c"), -ENOENT);
	cr_assert_eq(ksys_rename("/proc/2/comm", "/proc/2/stat"), -EPERM);
	{
		struct dentry *d = path_lookup(NULL, "/proc/2/comm", 0);

		cr_assert_eq(vfs_chmod(d->d_inode, 0600), -EPERM, "made on demand: no mode to keep");
		dput(d);
		d = path_lookup(NULL, "/proc/version", 0);
		cr_assert_eq(vfs_chmod(d->d_inode, 0600), 0, "a file in the tree keeps its mode");
		dput(d);
	}
}

static int instances;
static struct dentry *foo_dir;

static int inst_mkdir(const char *name)
{
	foo_dir = tracefs_create_dir(name, tracefs_instances_dir());
	if (IS_ERR(foo_dir))
		return (int)PTR_ERR(foo_dir);
	instances++;
	return 0;
}

static int inst_rmdir(const char *name)
{
	if (!strcmp(name, "busy"))
		return -EBUSY;
	tracefs_remove(foo_dir);
	instances--;
	return 0;
}

Test(pseudo, tracefs_skeleton_placeholders_and_instances)
{
	static const char *const files[] = { "trace", "trace_pipe", "tracing_on",
		"available_events", "set_event", "buffer_size_kb", "error_log", "README" };
	struct kstat st;
	char path[128], c;
	int fd;

	cr_assert_eq(tracefs_init(), 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/tracing/%s", files[i]);
		cr_assert_eq(ksys_stat(path, &st), 0, "%s", path);
		cr_assert(S_ISREG(st.mode));
	}
	cr_assert_eq(ksys_stat("/sys/kernel/tracing/events", &st), 0);
	cr_assert_eq(ksys_stat("/sys/kernel/tracing/per_cpu/cpu0", &st), 0);
	snprintf(path, sizeof(path), "/sys/kernel/tracing/per_cpu/cpu%u", nr_cpu_ids - 1);
	cr_assert_eq(ksys_stat(path, &st), 0);
	cr_assert_not_null(tracefs_per_cpu_dir(0));
	cr_assert_null(tracefs_per_cpu_dir((int)nr_cpu_ids));

	fd = ksys_open("/sys/kernel/tracing/tracing_on", O_RDWR, 0);
	cr_assert_eq(ksys_read(fd, &c, 1), 0, "placeholders read empty");
	cr_assert_eq(ksys_write(fd, "1", 1), -ENODEV, "and refuse writes");
	ksys_close(fd);
	cr_assert(!IS_ERR(tracefs_create_file("tracing_on", TRACE_MODE_WRITE, NULL, NULL,
					      &knob_fops)));
	fd = ksys_open("/sys/kernel/tracing/tracing_on", O_WRONLY, 0);
	cr_assert_eq(ksys_write(fd, "7", 1), 1, "the real file replaced the placeholder");
	cr_assert_str_eq(last_write, "7");
	ksys_close(fd);
	cr_assert_eq(PTR_ERR(tracefs_create_file("tracing_on", 0640, NULL, NULL, &knob_fops)),
		     -EEXIST, "only placeholders are replaced");

	cr_assert_eq(ksys_mkdir("/sys/kernel/tracing/instances/foo", 0755), -EPERM);
	tracefs_set_instance_ops(inst_mkdir, inst_rmdir);
	cr_assert_eq(ksys_chdir("/sys/kernel/debug/tracing"), 0);
	cr_assert_eq(ksys_mkdir("instances/foo", 0755), 0);
	cr_assert_eq(instances, 1);
	cr_assert_eq(ksys_mkdir("instances/foo", 0755), -EEXIST);
	cr_assert_eq(ksys_stat("instances/foo", &st), 0);
	cr_assert_eq(ksys_rmdir("instances/foo"), 0);
	cr_assert_eq(instances, 0);
	cr_assert_eq(ksys_stat("instances/foo", &st), -ENOENT);
	cr_assert_eq(ksys_mkdir("instances/busy", 0755), 0);
	cr_assert_eq(ksys_rmdir("instances/busy"), -EBUSY);
	cr_assert_eq(ksys_mkdir("events/x", 0755), -EPERM);
}
