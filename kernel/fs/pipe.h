/*
 * Pipes: a bounded byte buffer between a read end and a write end. Reads
 * block while it is empty and a writer exists (then EOF); writes block
 * while it is full and a reader exists (then EPIPE; pipe files raise no
 * SIGPIPE yet). Writes of up to PIPE_BUF bytes are atomic.
 *
 * The buffer is also a plain byte stream for others (a connected socket
 * holds one per direction, kernel/net/): the *_buf and *_ends calls take
 * the pipe itself, with counts of ends instead of files.
 */
#ifndef KERNEL_FS_PIPE_H
#define KERNEL_FS_PIPE_H

#include <kernel/fs/fs.h>
#include <kernel/wait.h>

#define PIPE_SIZE	16384
#ifndef PIPE_BUF
#define PIPE_BUF	4096
#endif

/* The shared state of one pipe, hung off its inode. */
struct pipe_inode_info {
	spinlock_t lock;		/* everything below */
	wait_queue_head_t rd_wait;	/* readers waiting for data or EOF */
	wait_queue_head_t wr_wait;	/* writers waiting for room or EPIPE */
	u64 head, tail;			/* bytes ever written / read; buf holds [tail, head) */
	unsigned int readers, writers;	/* open read and write ends */
	char buf[PIPE_SIZE];
};

/* A pipe with one reader and one writer end (kzalloc'd), or NULL. */
struct pipe_inode_info *alloc_pipe_info(void);
/* Bytes read (0: EOF, no writer left), -EAGAIN if nonblock and empty, -EINTR. */
ssize_t pipe_read_buf(struct pipe_inode_info *pipe, char *buf, size_t count, bool nonblock);
/* Bytes written, -EPIPE with no reader left, -EAGAIN if nonblock and full, -EINTR. */
ssize_t pipe_write_buf(struct pipe_inode_info *pipe, const char *buf, size_t count,
		       bool nonblock);
/*
 * Drop a read and/or a write end, waking the other side. True when no end
 * is left: the holder then frees the pipe (kfree) once nobody touches it.
 */
bool pipe_put_ends(struct pipe_inode_info *pipe, bool reader, bool writer);
/* poll(2) bits for a holder of these ends (POLLIN/POLLHUP, POLLOUT/POLLERR). */
unsigned int pipe_poll_ends(struct pipe_inode_info *pipe, bool reader, bool writer);

#endif
