/*
 * tracefs: the tracing file tree at /sys/kernel/tracing, also reachable
 * as /sys/kernel/debug/tracing (a symlink to it). Pure.
 *
 * tracefs_init() builds the skeleton Linux users expect: events/,
 * per_cpu/cpuN/, instances/, and the top-level files trace, trace_pipe,
 * tracing_on, available_events, set_event, buffer_size_kb, error_log and
 * README. Those files are PLACEHOLDERS until the tracing core creates the
 * real ones: a placeholder reads as empty and refuses writes with ENODEV.
 * tracefs_create_file() with a placeholder's name replaces it, so the
 * tracing core just creates its files; nothing here implements tracing.
 *
 * The calls mirror Linux's tracefs API: parent NULL means the tracefs
 * root, mode is TRACE_MODE_READ (0440) or TRACE_MODE_WRITE (0640), and
 * the result is a handle (ERR_PTR on failure) valid until tracefs_remove().
 */
#ifndef KERNEL_FS_TRACEFS_H
#define KERNEL_FS_TRACEFS_H

#include <kernel/fs/fs.h>

#define TRACE_MODE_WRITE	0640
#define TRACE_MODE_READ		0440

int tracefs_init(void);
struct dentry *tracefs_create_dir(const char *name, struct dentry *parent);
struct dentry *tracefs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
void tracefs_remove(struct dentry *d);

/* Skeleton directories the tracing core fills. */
struct dentry *tracefs_events_dir(void);
struct dentry *tracefs_per_cpu_dir(int cpu);	/* per_cpu/cpuN, NULL past nr_cpu_ids */
struct dentry *tracefs_instances_dir(void);

/*
 * `mkdir instances/NAME` calls mkdir(NAME), which creates the instance's
 * directory itself (tracefs_create_dir(NAME, tracefs_instances_dir()));
 * `rmdir instances/NAME` calls rmdir(NAME), which removes it or returns
 * -EBUSY (files open). Until they are set both fail with EPERM.
 */
void tracefs_set_instance_ops(int (*mkdir)(const char *name), int (*rmdir)(const char *name));

#endif
