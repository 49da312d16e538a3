/*
 * seq_file: generated content in a buffer that doubles as it fills.
 */
#include <kernel/fs/seq_file.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/errno.h>

int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data)
{
	struct seq_file *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return -ENOMEM;
	m->show = show;
	m->private = data;
	mutex_init(&m->lock);
	file->private_data = m;
	return 0;
}

int single_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->buf);
	kfree(m);
	return 0;
}

/* Make room for `more` bytes beyond count (and a NUL for vsnprintf). */
static bool seq_reserve(struct seq_file *m, size_t more)
{
	size_t size = m->size ? m->size : 4096;
	char *buf;

	if (m->nomem)
		return false;
	if (m->count + more < m->size)
		return true;
	while (size <= m->count + more)
		size *= 2;
	buf = krealloc(m->buf, size, GFP_KERNEL);
	if (!buf) {
		m->nomem = true;
		return false;
	}
	m->buf = buf;
	m->size = size;
	return true;
}

void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	if (!seq_reserve(m, 1))
		return;
	va_copy(again, ap);
	n = vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
	if (n > 0 && (size_t)n >= m->size - m->count) {
		if (seq_reserve(m, (size_t)n))
			vsnprintf(m->buf + m->count, m->size - m->count, fmt, again);
		else
			n = 0;
	}
	va_end(again);
	if (n > 0)
		m->count += (size_t)n;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}

void seq_write(struct seq_file *m, const void *data, size_t len)
{
	if (!seq_reserve(m, len))
		return;
	memcpy(m->buf + m->count, data, len);
	m->count += len;
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_write(m, s, strlen(s));
}

void seq_putc(struct seq_file *m, char c)
{
	seq_write(m, &c, 1);
}

ssize_t simple_read_from_buffer(char *to, size_t count, loff_t *pos, const void *from,
				size_t available)
{
	size_t n;

	if (*pos < 0)
		return -EINVAL;
	if ((u64)*pos >= available)
		return 0;
	n = min(count, available - (size_t)*pos);
	memcpy(to, (const char *)from + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

ssize_t seq_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct seq_file *m = file->private_data;
	ssize_t ret = 0;

	/* One reader at a time: a second would see (or free) the buffer mid-growth. */
	mutex_lock(&m->lock);
	if (!m->generated) {
		int err;

		m->count = 0;
		m->nomem = false;
		err = m->show(m, NULL);
		if (err >= 0 && m->nomem)
			err = -ENOMEM;
		if (err < 0)
			ret = err;
		else
			m->generated = true;
	}
	if (!ret)
		ret = simple_read_from_buffer(buf, count, pos, m->buf, m->count);
	mutex_unlock(&m->lock);
	return ret;
}

loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	struct seq_file *m = file->private_data;
	loff_t pos;

	switch (whence) {
	case SEEK_SET:
		pos = offset;
		break;
	case SEEK_CUR:
		pos = file->f_pos + offset;
		break;
	default:
		return -EINVAL;
	}
	if (pos < 0)
		return -EINVAL;
	mutex_lock(&m->lock);
	if (pos == 0)
		m->generated = false;
	file->f_pos = pos;
	mutex_unlock(&m->lock);
	return pos;
}
