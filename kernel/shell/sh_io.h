/*
 * I/O for commands, over sh_os: buffered output that remembers the first
 * write error, line input, and the error messages commands print.
 */
#ifndef KERNEL_SHELL_SH_IO_H
#define KERNEL_SHELL_SH_IO_H

#include <kernel/types.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_buf.h>

/* Buffered output to one fd. err: the first write error (-errno), sticky. */
struct sh_out {
	int fd;
	int err;
	size_t len;
	char buf[512];
};

void out_init(struct sh_out *o, int fd);
void out_put(struct sh_out *o, const void *s, size_t n);
void out_puts(struct sh_out *o, const char *s);
void out_putc(struct sh_out *o, char c);
void out_printf(struct sh_out *o, const char *fmt, ...) __printf(2, 3);
/* Flush; returns o->err. */
int out_flush(struct sh_out *o);
/*
 * Flush, then write s in a single write() however long it is: a pseudo
 * file takes each write as one command (a long trigger must not arrive
 * cut in two).
 */
void out_put_whole(struct sh_out *o, const void *s, size_t n);
/*
 * Flush; on an error print "NAME: write error: TEXT" and return 1,
 * else return status. The usual end of a command's main.
 */
int out_finish(struct sh_out *o, const char *name, int status);

/* Write everything; 0 or -errno. */
int sh_write_all(int fd, const void *buf, size_t len);

/* Line input from one fd. */
struct sh_in {
	int fd;
	int err;		/* read error, -errno */
	bool eof;
	size_t start, end;
	struct sh_buf b;
};

void in_init(struct sh_in *in, int fd);
/*
 * The next line, NUL-terminated, without its newline (*had_nl says if it
 * had one); valid until the next call. Returns its length, -1 at end of
 * input or on an error (in->err).
 */
ssize_t in_getline(struct sh_in *in, char **line, bool *had_nl);
void in_free(struct sh_in *in);

/* Read an fd to its end into b; 0 or -errno. */
int sh_read_all(int fd, struct sh_buf *b);
/* Open path (or stdin for "-") for reading; prints "NAME: PATH: TEXT" on failure. */
int sh_open_input(const char *name, const char *path);

/* Print to stderr, for error messages. */
void sh_eprintf(const char *fmt, ...) __printf(1, 2);

#endif
