/*
 * /proc/sys: the sysctls scripts written for Linux read and set. Spoor's
 * scheduler has no real-time class, so kernel/sched_rt_runtime_us only
 * keeps the value it is given (ftracetest saves, sets -1 and restores
 * it); Linux's range is -1..INT_MAX.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/proc_internal.h>

static long sched_rt_runtime_us = 950000;

static int rt_runtime_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%ld\n", READ_ONCE(sched_rt_runtime_us));
	return 0;
}

static int rt_runtime_open(struct inode *inode, struct file *file)
{
	return single_open(file, rt_runtime_show, NULL);
}

static ssize_t rt_runtime_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	char text[24];
	long long v;
	size_t n = count < sizeof(text) - 1 ? count : sizeof(text) - 1;

	memcpy(text, buf, n);
	text[n] = '\0';
	if (n && text[n - 1] == '\n')
		text[n - 1] = '\0';
	if (kstrtoll(text, 10, &v) || v < -1 || v > 0x7fffffff)
		return -EINVAL;
	WRITE_ONCE(sched_rt_runtime_us, (long)v);
	return (ssize_t)count;
}

static const struct file_operations rt_runtime_fops = {
	.open = rt_runtime_open,
	.read = seq_read,
	.write = rt_runtime_write,
	.llseek = seq_lseek,
	.release = single_release,
};

int proc_sys_init(struct dentry *proc)
{
	struct dentry *sys = pseudo_create_dir(proc, "sys"), *kernel;

	if (IS_ERR(sys))
		return (int)PTR_ERR(sys);
	kernel = pseudo_create_dir(sys, "kernel");
	if (IS_ERR(kernel))
		return (int)PTR_ERR(kernel);
	kernel = pseudo_create_file(kernel, "sched_rt_runtime_us", 0644, &rt_runtime_fops, NULL);
	return IS_ERR(kernel) ? (int)PTR_ERR(kernel) : 0;
}
