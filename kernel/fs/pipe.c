/*
 * Pipes. The buffer is a ring indexed by free-running byte counters; the
 * lock is held only to move bytes, never across a sleep.
 */
#include <kernel/fs/pipe.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/errno.h>

static bool pipe_readable(struct pipe_inode_info *pipe)
{
	return READ_ONCE(pipe->head) != READ_ONCE(pipe->tail) || !READ_ONCE(pipe->writers);
}

/* Room for a write of `want` bytes to make progress, or no reader left. */
static bool pipe_writable(struct pipe_inode_info *pipe, size_t want)
{
	return PIPE_SIZE - (READ_ONCE(pipe->head) - READ_ONCE(pipe->tail)) >= want ||
	       !READ_ONCE(pipe->readers);
}

/* Copy n bytes into the ring at byte counter `at`, wrapping at the end. */
static void ring_put(struct pipe_inode_info *pipe, u64 at, const char *buf, size_t n)
{
	size_t off = (size_t)(at % PIPE_SIZE), first = min(n, PIPE_SIZE - off);

	memcpy(pipe->buf + off, buf, first);
	memcpy(pipe->buf, buf + first, n - first);
}

static void ring_get(struct pipe_inode_info *pipe, u64 at, char *buf, size_t n)
{
	size_t off = (size_t)(at % PIPE_SIZE), first = min(n, PIPE_SIZE - off);

	memcpy(buf, pipe->buf + off, first);
	memcpy(buf + first, pipe->buf, n - first);
}

ssize_t pipe_read_buf(struct pipe_inode_info *pipe, char *buf, size_t count, bool nonblock)
{
	for (;;) {
		size_t n;

		spin_lock(&pipe->lock);
		n = min(count, (size_t)(pipe->head - pipe->tail));
		if (n) {
			ring_get(pipe, pipe->tail, buf, n);
			pipe->tail += n;
			spin_unlock(&pipe->lock);
			wake_up_interruptible(&pipe->wr_wait);
			return (ssize_t)n;
		}
		if (!pipe->writers) {
			spin_unlock(&pipe->lock);
			return 0;
		}
		spin_unlock(&pipe->lock);
		if (nonblock)
			return -EAGAIN;
		if (wait_event_interruptible(pipe->rd_wait, pipe_readable(pipe)))
			return -EINTR;
	}
}

static ssize_t pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return pipe_read_buf(file->f_inode->i_pipe, buf, count, file->f_flags & O_NONBLOCK);
}

ssize_t pipe_write_buf(struct pipe_inode_info *pipe, const char *buf, size_t count, bool nonblock)
{
	size_t done = 0;

	for (;;) {
		/* A small write goes in whole or waits; a big one in pieces. */
		size_t want = count - done <= PIPE_BUF ? count - done : 1, n = 0;

		spin_lock(&pipe->lock);
		if (!pipe->readers) {
			spin_unlock(&pipe->lock);
			return done ? (ssize_t)done : -EPIPE;
		}
		if (PIPE_SIZE - (pipe->head - pipe->tail) >= want) {
			n = min(count - done, (size_t)(PIPE_SIZE - (pipe->head - pipe->tail)));
			ring_put(pipe, pipe->head, buf + done, n);
			pipe->head += n;
			done += n;
		}
		spin_unlock(&pipe->lock);
		if (n)
			wake_up_interruptible(&pipe->rd_wait);
		if (done == count)
			return (ssize_t)done;
		if (nonblock)
			return done ? (ssize_t)done : -EAGAIN;
		want = count - done <= PIPE_BUF ? count - done : 1;
		if (wait_event_interruptible(pipe->wr_wait, pipe_writable(pipe, want)))
			return done ? (ssize_t)done : -EINTR;
	}
}

static ssize_t pipe_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return pipe_write_buf(file->f_inode->i_pipe, buf, count, file->f_flags & O_NONBLOCK);
}

bool pipe_put_ends(struct pipe_inode_info *pipe, bool reader, bool writer)
{
	bool last;

	spin_lock(&pipe->lock);
	if (reader)
		pipe->readers--;
	if (writer)
		pipe->writers--;
	last = !pipe->readers && !pipe->writers;
	/*
	 * The other end may be waiting for exactly this: EOF or EPIPE. Woken
	 * under the lock, so the last end's release (on another CPU) cannot
	 * free the pipe while these wake-ups still touch it.
	 */
	if (!last) {
		wake_up_all(&pipe->rd_wait);
		wake_up_all(&pipe->wr_wait);
	}
	spin_unlock(&pipe->lock);
	return last;
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe = inode->i_pipe;

	/* Only the two ends ever see the pipe: nobody is left to wait. */
	if (pipe_put_ends(pipe, file->f_mode & FMODE_READ, file->f_mode & FMODE_WRITE)) {
		inode->i_pipe = NULL;
		kfree(pipe);
	}
	return 0;
}

unsigned int pipe_poll_ends(struct pipe_inode_info *pipe, bool reader, bool writer)
{
	unsigned int mask = 0;

	if (reader) {
		if (READ_ONCE(pipe->head) != READ_ONCE(pipe->tail))
			mask |= POLLIN;
		if (!READ_ONCE(pipe->writers))
			mask |= POLLHUP;
	}
	if (writer) {
		if (pipe_writable(pipe, 1))
			mask |= POLLOUT;
		if (!READ_ONCE(pipe->readers))
			mask |= POLLERR;
	}
	return mask;
}

static unsigned int pipe_poll(struct file *file)
{
	return pipe_poll_ends(file->f_inode->i_pipe, file->f_mode & FMODE_READ,
			      file->f_mode & FMODE_WRITE);
}

static const struct file_operations pipe_fops = {
	.poll = pipe_poll,
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
};

struct pipe_inode_info *alloc_pipe_info(void)
{
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);

	if (!pipe)
		return NULL;
	spin_lock_init(&pipe->lock);
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	pipe->readers = pipe->writers = 1;
	return pipe;
}

int create_pipe_files(struct file *files[2], int flags)
{
	struct inode *inode = new_inode(S_IFIFO | 0600);
	struct pipe_inode_info *pipe = alloc_pipe_info();

	if (!inode || !pipe) {
		iput(inode);
		kfree(pipe);
		return -ENOMEM;
	}
	inode->i_pipe = pipe;
	inode->i_fop = &pipe_fops;
	files[0] = alloc_file(igrab(inode), O_RDONLY | (flags & O_NONBLOCK), &pipe_fops);
	if (IS_ERR(files[0])) {
		iput(inode);
		return (int)PTR_ERR(files[0]);
	}
	files[1] = alloc_file(inode, O_WRONLY | (flags & O_NONBLOCK), &pipe_fops);
	if (IS_ERR(files[1])) {
		pipe->writers = 0;	/* so the read end's release frees the pipe */
		fput(files[0]);
		return (int)PTR_ERR(files[1]);
	}
	return 0;
}
