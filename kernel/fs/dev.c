/*
 * /dev: the character devices null, zero and console, with Linux's
 * numbers (1:3, 1:5, 5:1). Kernel only (the console).
 */
#include <kernel/fs/dev.h>
#include <kernel/fs/pseudo.h>
#include <kernel/console.h>
#include <kernel/string.h>
#include <kernel/errno.h>

static ssize_t null_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return 0;
}

/* Writes to null and zero vanish. */
static ssize_t sink_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return (ssize_t)count;
}

static ssize_t zero_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	memset(buf, 0, count);
	return (ssize_t)count;
}

static ssize_t console_dev_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return console_read(buf, count);
}

/* private_data of a console file whose writes are the stderr stream. */
static const char console_stderr_mark[] = "stderr";

static ssize_t console_dev_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	console_lock();
	console_write_stream(file->private_data == console_stderr_mark ? CONSOLE_STDERR :
			     CONSOLE_STDOUT, buf, count);
	console_unlock();
	return (ssize_t)count;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = sink_write,
	.llseek = noop_llseek,
};

static const struct file_operations zero_fops = {
	.read = zero_read,
	.write = sink_write,
	.llseek = noop_llseek,
};

static const struct file_operations console_fops = {
	.read = console_dev_read,
	.write = console_dev_write,
};

bool dev_is_console(const struct file *f)
{
	return f->f_op == &console_fops;
}

struct file *dev_open_console_stderr(void)
{
	struct file *f = vfs_open(NULL, "/dev/console", O_RDWR, 0);

	if (!IS_ERR(f))
		f->private_data = (void *)console_stderr_mark;
	return f;
}

static const struct {
	const char *name;
	umode_t mode;
	u32 rdev;
	const struct file_operations *fops;
} devices[] = {
	{ "null", 0666, MKDEV(1, 3), &null_fops },
	{ "zero", 0666, MKDEV(1, 5), &zero_fops },
	{ "console", 0600, MKDEV(5, 1), &console_fops },
};

int dev_init(void)
{
	struct dentry *dev = pseudo_create_dir(NULL, "dev");

	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++) {
		struct dentry *d = pseudo_create_file(dev, devices[i].name,
						      S_IFCHR | devices[i].mode, devices[i].fops, NULL);

		if (IS_ERR(d))
			return (int)PTR_ERR(d);
		d->d_inode->i_rdev = devices[i].rdev;
	}
	return 0;
}
