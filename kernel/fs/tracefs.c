/*
 * The tracefs skeleton. The tree is made of pseudo files (pseudo.h);
 * this file only decides where things go and which of them are
 * placeholders waiting for the tracing core.
 */
#include <kernel/fs/tracefs.h>
#include <kernel/fs/pseudo.h>
#include <kernel/percpu.h>
#include <kernel/string.h>
#include <kernel/errno.h>

#define TRACEFS_PATH	"/sys/kernel/tracing"

static struct dentry *tracefs_root, *events_dir, *per_cpu_dir, *instances_dir;
static int (*instance_mkdir)(const char *name);
static int (*instance_rmdir)(const char *name);

static ssize_t placeholder_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return 0;
}

static ssize_t placeholder_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return -ENODEV;
}

/* What a skeleton file does until the tracing core replaces it. */
static const struct file_operations placeholder_fops = {
	.read = placeholder_read,
	.write = placeholder_write,
};

struct dentry *tracefs_create_dir(const char *name, struct dentry *parent)
{
	if (!tracefs_root)
		return ERR_PTR(-ENODEV);
	return pseudo_create_dir(parent ? parent : tracefs_root, name);
}

struct dentry *tracefs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	struct dentry *old;

	if (!tracefs_root)
		return ERR_PTR(-ENODEV);
	parent = parent ? parent : tracefs_root;
	old = d_lookup(parent, name, strlen(name));
	if (old) {
		if (old->d_inode->i_fop == &placeholder_fops)
			pseudo_remove(old);
		dput(old);
	}
	return pseudo_create_file(parent, name, mode & S_IALLUGO, fops, data);
}

void tracefs_remove(struct dentry *d)
{
	pseudo_remove(d);
}

struct dentry *tracefs_events_dir(void)
{
	return events_dir;
}

struct dentry *tracefs_instances_dir(void)
{
	return instances_dir;
}

struct dentry *tracefs_per_cpu_dir(int cpu)
{
	char name[16];
	struct dentry *d;

	if (!per_cpu_dir || cpu < 0 || cpu >= (int)nr_cpu_ids)
		return NULL;
	snprintf(name, sizeof(name), "cpu%d", cpu);
	d = d_lookup(per_cpu_dir, name, strlen(name));
	dput(d);	/* the tree keeps it: hand out a handle like the create calls */
	return d;
}

static int instances_mkdir(struct dentry *dir, const char *name, umode_t mode)
{
	return instance_mkdir ? instance_mkdir(name) : -EPERM;
}

static int instances_rmdir(struct dentry *dir, struct dentry *victim)
{
	return instance_rmdir ? instance_rmdir(victim->d_name) : -EPERM;
}

static const struct inode_operations instances_iops = {
	.mkdir = instances_mkdir,
	.rmdir = instances_rmdir,
};

void tracefs_set_instance_ops(int (*mkdir)(const char *name), int (*rmdir)(const char *name))
{
	instance_mkdir = mkdir;
	instance_rmdir = rmdir;
}

/* /sys/kernel, made if missing (sysfs has nothing else yet). */
static struct dentry *sys_kernel_dir(void)
{
	struct dentry *sys = pseudo_lookup("/sys"), *kernel;

	if (IS_ERR(sys)) {
		sys = pseudo_create_dir(NULL, "sys");
		if (IS_ERR(sys))
			return sys;
		dget(sys);
	}
	kernel = pseudo_create_dir(sys, "kernel");
	dput(sys);
	return kernel;
}

static const struct {
	const char *name;
	umode_t mode;
} skeleton_files[] = {
	{ "README", TRACE_MODE_READ },
	{ "available_events", TRACE_MODE_READ },
	{ "buffer_size_kb", TRACE_MODE_WRITE },
	{ "error_log", TRACE_MODE_WRITE },
	{ "set_event", TRACE_MODE_WRITE },
	{ "trace", TRACE_MODE_WRITE },
	{ "trace_pipe", TRACE_MODE_READ },
	{ "tracing_on", TRACE_MODE_WRITE },
};

int tracefs_init(void)
{
	struct dentry *kernel, *debug, *d;
	char name[16];

	if (tracefs_root)
		return 0;
	kernel = sys_kernel_dir();
	if (IS_ERR(kernel))
		return (int)PTR_ERR(kernel);
	tracefs_root = pseudo_create_dir(kernel, "tracing");
	debug = pseudo_create_dir(kernel, "debug");
	if (IS_ERR(tracefs_root) || IS_ERR(debug))
		goto fail;
	d = pseudo_create_symlink(debug, "tracing", TRACEFS_PATH);
	events_dir = pseudo_create_dir(tracefs_root, "events");
	per_cpu_dir = pseudo_create_dir(tracefs_root, "per_cpu");
	instances_dir = pseudo_create_dir_ops(tracefs_root, "instances", &instances_iops, NULL);
	if (IS_ERR(d) || IS_ERR(events_dir) || IS_ERR(per_cpu_dir) || IS_ERR(instances_dir))
		goto fail;
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		if (IS_ERR(pseudo_create_dir(per_cpu_dir, name)))
			goto fail;
	}
	for (size_t i = 0; i < ARRAY_SIZE(skeleton_files); i++)
		if (IS_ERR(pseudo_create_file(tracefs_root, skeleton_files[i].name,
					      skeleton_files[i].mode, &placeholder_fops, NULL)))
			goto fail;
	return 0;
fail:
	pseudo_remove(kernel);
	tracefs_root = events_dir = per_cpu_dir = instances_dir = NULL;
	return -ENOMEM;
}
