/*
 * Socket files: a nameless S_IFSOCK inode whose file carries a struct
 * socket, so read, write, poll and close work on a socket descriptor as
 * on any other; and the send/receive entry points the system calls share
 * with read and write (MSG_DONTWAIT, MSG_NOSIGNAL, SIGPIPE).
 */
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <kernel/net/sock.h>

ssize_t sock_recvmsg(struct socket *sock, char *buf, size_t len, unsigned int flags)
{
	bool nonblock = (sock->file->f_flags & O_NONBLOCK) || (flags & MSG_DONTWAIT);

	return tcp_recvmsg(sock->sk, buf, len, nonblock);
}

ssize_t sock_sendmsg(struct socket *sock, const char *buf, size_t len, unsigned int flags)
{
	bool nonblock = (sock->file->f_flags & O_NONBLOCK) || (flags & MSG_DONTWAIT);
	ssize_t r = tcp_sendmsg(sock->sk, buf, len, nonblock);

	/* Linux's sk_stream_error: EPIPE comes with SIGPIPE to the writing thread. */
	if (r == -EPIPE && !(flags & MSG_NOSIGNAL)) {
		struct ksiginfo info = { .code = SI_USER, .pid = current->tgid };

		send_sig_info(SIGPIPE, &info, current, false);
	}
	return r;
}

static ssize_t sock_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return sock_recvmsg(file->private_data, buf, count, 0);
}

static ssize_t sock_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return sock_sendmsg(file->private_data, buf, count, 0);
}

static unsigned int sock_poll(struct file *file)
{
	struct socket *sock = file->private_data;

	return tcp_poll(sock->sk);
}

static int sock_close(struct inode *inode, struct file *file)
{
	struct socket *sock = file->private_data;

	inet_release(sock);
	kfree(sock);
	return 0;
}

static const struct file_operations socket_file_ops = {
	.read = sock_read,
	.write = sock_write,
	.poll = sock_poll,
	.release = sock_close,
};

struct socket *sock_alloc_file(int flags)
{
	struct inode *inode = new_inode(S_IFSOCK | 0777);
	struct socket *sock = kzalloc(sizeof(*sock), GFP_KERNEL);
	struct file *file;

	if (!inode || !sock) {
		iput(inode);
		kfree(sock);
		return ERR_PTR(-ENOMEM);
	}
	file = alloc_file(inode, O_RDWR | (flags & O_NONBLOCK), &socket_file_ops);
	if (IS_ERR(file)) {
		kfree(sock);
		return (struct socket *)file;	/* the same ERR_PTR */
	}
	sock->state = SS_UNCONNECTED;
	sock->type = SOCK_STREAM;
	sock->file = file;
	file->private_data = sock;
	return sock;
}

struct socket *sockfd_lookup(int fd, struct file **filep)
{
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	if (file->f_op != &socket_file_ops) {
		fput(file);
		return ERR_PTR(-ENOTSOCK);
	}
	*filep = file;
	return file->private_data;
}
