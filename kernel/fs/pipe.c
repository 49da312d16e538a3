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

static ssize_t pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *pipe = file->f_inode->i_pipe;

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
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(pipe->rd_wait, pipe_readable(pipe)))
			return -EINTR;
	}
}

static ssize_t pipe_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *pipe = file->f_inode->i_pipe;
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
		if (file->f_flags & O_NONBLOCK)
			return done ? (ssize_t)done : -EAGAIN;
		want = count - done <= PIPE_BUF ? count - done : 1;
		if (wait_event_interruptible(pipe->wr_wait, pipe_writable(pipe, want)))
			return done ? (ssize_t)done : -EINTR;
	}
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe = inode->i_pipe;
	bool last;

	spin_lock(&pipe->lock);
	if (file->f_mode & FMODE_READ)
		pipe->readers--;
	if (file->f_mode & FMODE_WRITE)
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
	if (last) {
		/* Only the two ends ever see the pipe: nobody is left to wait. */
		inode->i_pipe = NULL;
		kfree(pipe);
	}
	return 0;
}

/* poll(2)'s view: POLLIN when a read would not block, POLLOUT for a write of one byte, POLLHUP, POLLERR. */
static unsigned int pipe_poll(struct file *file)
{
	struct pipe_inode_info *pipe = file->f_inode->i_pipe;
	unsigned int mask = 0;

	if (file->f_mode & FMODE_READ) {
		if (READ_ONCE(pipe->head) != READ_ONCE(pipe->tail))
			mask |= POLLIN;
		if (!READ_ONCE(pipe->writers))
			mask |= POLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		if (pipe_writable(pipe, 1))
			mask |= POLLOUT;
		if (!READ_ONCE(pipe->readers))
			mask |= POLLERR;
	}
	return mask;
}

static const struct file_operations pipe_fops = {
	.poll = pipe_poll,
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
};

int create_pipe_files(struct file *files[2], int flags)
{
	struct inode *inode = new_inode(S_IFIFO | 0600);
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);

	if (!inode || !pipe) {
		iput(inode);
		kfree(pipe);
		return -ENOMEM;
	}
	spin_lock_init(&pipe->lock);
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	pipe->readers = pipe->writers = 1;
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
