/*
 * What the files of a trace array share (trace/trace_files.c and the files
 * split out of it by topic: snapshot, options, cpumask, pid filters, ...):
 * the i_private record, the open/release pair that holds the instance, the
 * parsing of a user's number, and the tables the files are created from.
 */
#ifndef TRACE_TRACE_FILES_H
#define TRACE_TRACE_FILES_H

#include <kernel/types.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/seq_file.h>
#include <trace/trace.h>

/* What a file's i_private points at: the array, and the CPU of a per_cpu file. */
struct trace_file_data {
	struct trace_array *tr;
	int cpu;		/* RING_BUFFER_ALL_CPUS for the array's own files */
};

static inline struct trace_file_data *file_data(struct file *file)
{
	return file->f_inode->i_private;
}

/* One file of a table; tables end with a NULL name. */
struct trace_file_spec {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};

/*
 * A user's number: decimal, a trailing newline allowed, as Linux's
 * kstrtoul_from_user (blanks around it are EINVAL there too).
 */
int trace_parse_ulong(const char *buf, size_t count, unsigned long *val);
/* A read of a file that shows one number, "val\n". */
ssize_t trace_read_ulong(char *buf, size_t count, loff_t *pos, unsigned long val);
/* A user's word (clock name, tracer name): blanks and newline stripped. */
int trace_parse_word(const char *buf, size_t count, char *word, size_t size);

/* Open/release holding the instance (rmdir: EBUSY while open). */
int tr_open(struct inode *inode, struct file *file);
int tr_release(struct inode *inode, struct file *file);
int tr_single_open(struct inode *inode, struct file *file,
		   int (*show)(struct seq_file *m, void *v));
int tr_single_release(struct inode *inode, struct file *file);

/* A seq_file shown from the array's data, holding the instance while open. */
#define TRACE_SHOW_FILE(name)							\
	static int name##_open(struct inode *inode, struct file *file)		\
	{									\
		return tr_single_open(inode, file, name##_show);		\
	}

/*
 * The text readers of a buffer (trace, snapshot): open an iterator on the
 * live buffer or the snapshot (private_data NULL when there is none),
 * truncating it on O_TRUNC; read lines from it; close it.
 */
int trace_open_buffer(struct inode *inode, struct file *file, bool snapshot);
ssize_t trace_iter_read(struct trace_iterator *iter, char *buf, size_t count);
int trace_iter_release(struct inode *inode, struct file *file);

/* The tables of the files split out of trace_files.c. */
extern const struct trace_file_spec trace_snapshot_files[];
extern const struct trace_file_spec trace_snapshot_cpu_files[];	/* per_cpu/cpuN */
extern const struct trace_file_spec trace_options_files[];	/* trace_options */
extern const struct trace_file_spec trace_cpumask_files[];
extern const struct trace_file_spec trace_pid_files[];
/* tracing_max_latency, buffer_percent, ...; tracing_thresh (trace/trace_tunables.c). */
extern const struct trace_file_spec trace_tunable_files[];
extern const struct trace_file_spec trace_marker_raw_files[];
extern const struct trace_file_spec trace_tgids_files[];	/* top level */
extern const struct trace_file_spec trace_tunable_top_files[];
/* options/: one file per option (trace/trace_options.c). */
int trace_create_options_dir(struct trace_array *tr, struct dentry *dir);
void trace_free_options(struct trace_array *tr);

#endif
