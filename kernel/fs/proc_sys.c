/*
 * /proc/sys: the sysctls scripts written for Linux read and set. Spoor's
 * scheduler has no real-time class, so kernel/sched_rt_runtime_us only
 * keeps the value it is given (ftracetest saves, sets -1 and restores
 * it); Linux's range is -1..INT_MAX. kernel/stack_tracer_enabled starts
 * and stops the stack tracer (trace/trace_stack.c), any int as Linux's.
 * debug/kprobes-optimization (0 or 1) turns jump-optimized kprobes off
 * and on (kernel/kprobes.h).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/proc_internal.h>
#include <kernel/ftrace.h>
#include <kernel/kprobes.h>

/* name_fops: a sysctl shown by name_show and set by name_write. */
#define SYSCTL_FILE(name)							\
static int name##_open(struct inode *inode, struct file *file)			\
{										\
	return single_open(file, name##_show, NULL);				\
}										\
static const struct file_operations name##_fops = {				\
	.open = name##_open,							\
	.read = seq_read,							\
	.write = name##_write,							\
	.llseek = seq_lseek,							\
	.release = single_release,						\
}

static long sched_rt_runtime_us = 950000;

static int rt_runtime_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%ld\n", READ_ONCE(sched_rt_runtime_us));
	return 0;
}

/* A decimal number in min..INT_MAX, a trailing newline allowed: 0 or -EINVAL. */
static int sysctl_parse_int(const char *buf, size_t count, long long min, int *val)
{
	char text[24];
	long long v;
	size_t n = count < sizeof(text) - 1 ? count : sizeof(text) - 1;

	memcpy(text, buf, n);
	text[n] = '\0';
	if (n && text[n - 1] == '\n')
		text[n - 1] = '\0';
	if (kstrtoll(text, 10, &v) || v < min || v > 0x7fffffff)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

static ssize_t rt_runtime_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int v, ret = sysctl_parse_int(buf, count, -1, &v);

	if (ret)
		return ret;
	WRITE_ONCE(sched_rt_runtime_us, v);
	return (ssize_t)count;
}

SYSCTL_FILE(rt_runtime);

static int stack_tracer_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", stack_tracer_enabled());
	return 0;
}

static ssize_t stack_tracer_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int v, ret = sysctl_parse_int(buf, count, -0x80000000LL, &v);

	if (!ret)
		ret = stack_tracer_set(v);
	return ret ? ret : (ssize_t)count;
}

SYSCTL_FILE(stack_tracer);

static int kprobes_opt_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", kprobes_optimization_get());
	return 0;
}

static ssize_t kprobes_opt_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int v, ret = sysctl_parse_int(buf, count, 0, &v);

	if (ret || v > 1)
		return -EINVAL;
	kprobes_optimization_set(v);
	return (ssize_t)count;
}

SYSCTL_FILE(kprobes_opt);

int proc_sys_init(struct dentry *proc)
{
	struct dentry *sys = pseudo_create_dir(proc, "sys"), *kernel, *debug, *f;

	if (IS_ERR(sys))
		return (int)PTR_ERR(sys);
	kernel = pseudo_create_dir(sys, "kernel");
	if (IS_ERR(kernel))
		return (int)PTR_ERR(kernel);
	f = pseudo_create_file(kernel, "sched_rt_runtime_us", 0644, &rt_runtime_fops, NULL);
	if (!IS_ERR(f))
		f = pseudo_create_file(kernel, "stack_tracer_enabled", 0644, &stack_tracer_fops,
				       NULL);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	debug = pseudo_create_dir(sys, "debug");
	if (IS_ERR(debug))
		return (int)PTR_ERR(debug);
	f = pseudo_create_file(debug, "kprobes-optimization", 0644, &kprobes_opt_fops, NULL);
	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}
