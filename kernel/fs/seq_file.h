/*
 * seq_file: the easy way to write a read-only pseudo file. The owner
 * prints the whole content with seq_printf() from a show function; it is
 * generated into a growing buffer at the first read (so a file opened
 * only to be written, like `echo > trace`, never generates it), and reads
 * page through it with the file offset, so outputs of any size work
 * through small reads. Seeking back to 0 generates it afresh.
 *
 *	static int cpuinfo_show(struct seq_file *m, void *v)
 *	{
 *		seq_printf(m, "processor\t: %d\n", 0);
 *		return 0;
 *	}
 *	DEFINE_SHOW_ATTRIBUTE(cpuinfo);	// -> cpuinfo_fops
 *
 * Pure.
 */
#ifndef KERNEL_FS_SEQ_FILE_H
#define KERNEL_FS_SEQ_FILE_H

#include <kernel/fs/fs.h>
#include <kernel/mutex.h>

/* One open file's generated content (file->private_data). */
struct seq_file {
	char *buf;
	size_t size;		/* allocated */
	size_t count;		/* generated */
	bool generated;		/* show has run for the content in buf */
	bool nomem;		/* the buffer could not grow: the read fails with ENOMEM */
	int (*show)(struct seq_file *m, void *v);
	void *private;		/* the data given to single_open */
	/* Held by seq_read/seq_lseek: tasks sharing the file (after fork) take turns. */
	struct mutex lock;
};

/* Attach a seq_file whose content is show(m, NULL); data goes to m->private. */
int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data);
int single_release(struct inode *inode, struct file *file);
ssize_t seq_read(struct file *file, char *buf, size_t count, loff_t *pos);
loff_t seq_lseek(struct file *file, loff_t offset, int whence);

void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);
void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap) __printf(2, 0);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
void seq_write(struct seq_file *m, const void *data, size_t len);

/*
 * For small files read straight from a buffer: copy from `from` (length
 * available) at *pos, advancing it; 0 at the end.
 */
ssize_t simple_read_from_buffer(char *to, size_t count, loff_t *pos, const void *from,
				size_t available);

/* name_fops: a read-only file showing name_show(m, inode->i_private). */
#define DEFINE_SHOW_ATTRIBUTE(name)						\
static int name##_open(struct inode *inode, struct file *file)			\
{										\
	return single_open(file, name##_show, inode->i_private);		\
}										\
static const struct file_operations name##_fops = {				\
	.open = name##_open,							\
	.read = seq_read,							\
	.llseek = seq_lseek,							\
	.release = single_release,						\
}

#endif
