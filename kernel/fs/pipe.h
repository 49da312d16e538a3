/*
 * Pipes: a bounded byte buffer between a read end and a write end. Reads
 * block while it is empty and a writer exists (then EOF); writes block
 * while it is full and a reader exists (then EPIPE; there are no signals
 * to raise SIGPIPE with). Writes of up to PIPE_BUF bytes are atomic.
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

#endif
