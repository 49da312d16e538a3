/* Command I/O over sh_os (sh_io.h). */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_io.h>

const struct sh_os *sh_os;

int sh_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = sh_os->write(fd, p, len);

		if (n < 0)
			return (int)n;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void out_init(struct sh_out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->len = 0;
}

int out_flush(struct sh_out *o)
{
	if (o->len && !o->err)
		o->err = sh_write_all(o->fd, o->buf, o->len);
	o->len = 0;
	return o->err;
}

void out_put_whole(struct sh_out *o, const void *s, size_t n)
{
	if (out_flush(o) || !n)
		return;
	o->err = sh_write_all(o->fd, s, n);
}

void out_put(struct sh_out *o, const void *s, size_t n)
{
	const char *p = s;

	if (o->err)
		return;
	while (n) {
		size_t room = sizeof(o->buf) - o->len;
		size_t k = n < room ? n : room;

		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
		if (o->len == sizeof(o->buf) && out_flush(o))
			return;
	}
}

void out_puts(struct sh_out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

void out_putc(struct sh_out *o, char c)
{
	out_put(o, &c, 1);
}

void out_printf(struct sh_out *o, const char *fmt, ...)
{
	struct sh_buf b = { 0 };
	va_list ap;
	char tmp[256];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		out_put(o, tmp, (size_t)n);
		return;
	}
	if (!(b.s = kmalloc((size_t)n + 1, GFP_KERNEL))) {
		o->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b.s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	out_put(o, b.s, (size_t)n);
	kfree(b.s);
}

int out_finish(struct sh_out *o, const char *name, int status)
{
	int err = out_flush(o);

	if (!err)
		return status;
	/* A reader that went away is not worth a message, as with SIGPIPE. */
	if (err != -EPIPE)
		sh_eprintf("%s: write error: %s\n", name, errno_text(-err));
	return 1;
}

void sh_eprintf(const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	sh_write_all(2, tmp, (size_t)n);
}

void in_init(struct sh_in *in, int fd)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
}

ssize_t in_getline(struct sh_in *in, char **line, bool *had_nl)
{
	for (;;) {
		char *s = in->b.s ? in->b.s + in->start : NULL;
		char *nl = in->end > in->start ? memchr(s, '\n', in->end - in->start) : NULL;

		if (nl || ((in->eof || in->err) && in->end > in->start)) {
			size_t n = nl ? (size_t)(nl - s) : in->end - in->start;

			s[n] = '\0';
			in->start += n + (nl ? 1 : 0);
			*line = s;
			if (had_nl)
				*had_nl = nl != NULL;
			return (ssize_t)n;
		}
		if (in->eof || in->err)
			return -1;
		/* Move the partial line to the front, then read more. */
		if (in->start && in->b.s) {
			memmove(in->b.s, in->b.s + in->start, in->end - in->start);
			in->end -= in->start;
			in->start = 0;
			in->b.len = in->end;
		}
		char chunk[512];
		/* Every line-reading command stops here on Ctrl-C, whatever the input's size. */
		ssize_t n = sh_os->interrupted() ? -EINTR : sh_os->read(in->fd, chunk, sizeof(chunk));

		if (n < 0) {
			in->err = (int)n;
		} else if (n == 0) {
			in->eof = true;
		} else {
			sh_buf_put(&in->b, chunk, (size_t)n);
			if (in->b.oom)
				in->err = -ENOMEM;
			else
				in->end = in->b.len;
		}
	}
}

void in_free(struct sh_in *in)
{
	sh_buf_free(&in->b);
}

int sh_read_all(int fd, struct sh_buf *b)
{
	char chunk[512];

	for (;;) {
		ssize_t n = sh_os->read(fd, chunk, sizeof(chunk));

		if (n < 0)
			return (int)n;
		if (n == 0)
			return b->oom ? -ENOMEM : 0;
		sh_buf_put(b, chunk, (size_t)n);
	}
}

int sh_open_input(const char *name, const char *path)
{
	int fd;

	if (!strcmp(path, "-"))
		return sh_os->dup(0, 3);
	fd = sh_os->open(path, SH_O_RDONLY, 0);
	if (fd < 0)
		sh_eprintf("%s: %s: %s\n", name, path, errno_text(-fd));
	return fd;
}
