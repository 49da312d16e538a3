/*
 * The socket system calls (Linux's net/socket.c ABI): socket, bind,
 * listen, connect, accept/accept4, getsockname/getpeername, sendto,
 * recvfrom, shutdown, setsockopt. Addresses cross with Linux's rules:
 * in, at most sizeof(struct sockaddr_storage) bytes (EINVAL beyond, EFAULT
 * unreadable); out, the address truncated to the caller's length, which
 * then tells the full one. Only AF_INET stream sockets exist (kernel/net/).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <kernel/net/sock.h>
#include <asm/uaccess.h>

#define SOCKADDR_STORAGE	128
#define NPROTO			46	/* address families Linux numbers (AF_MAX) */
#define SOCK_MAX		11	/* socket types Linux numbers */
#define SOCK_IO_CHUNK		65536	/* bytes per kernel bounce buffer */

SYSCALL_DEFINE3(socket, int, family, int, type, int, protocol)
{
	int flags = type & ~SOCK_TYPE_MASK, fd, err;
	struct socket *sock;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	type &= SOCK_TYPE_MASK;
	/* Linux's __sock_create order: family range, type range, then the family's own answer. */
	if (family < 0 || family >= NPROTO)
		return -EAFNOSUPPORT;
	if (type >= SOCK_MAX)
		return -EINVAL;
	if (family != AF_INET)
		return -EAFNOSUPPORT;
	/* inet_create finds no protocol switch entry for other types. */
	if (type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	sock = sock_alloc_file(flags);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	err = inet_create(sock, protocol);
	if (err) {
		fput(sock->file);
		return err;
	}
	fd = fd_install(current_files(), sock->file, 0);
	if (fd >= 0 && (flags & SOCK_CLOEXEC))
		set_close_on_exec(current_files(), fd, true);
	return fd;
}

/* Linux's move_addr_to_kernel: the address into kaddr. */
static int move_addr_to_kernel(const void *uaddr, int ulen, struct sockaddr_in *kaddr,
			       char storage[SOCKADDR_STORAGE])
{
	if (ulen < 0 || ulen > SOCKADDR_STORAGE)
		return -EINVAL;
	if (ulen && copy_from_user(storage, uaddr, (size_t)ulen))
		return -EFAULT;
	memset(storage + ulen, 0, SOCKADDR_STORAGE - (size_t)ulen);
	memcpy(kaddr, storage, sizeof(*kaddr));
	return 0;
}

/* Linux's move_addr_to_user: as much of the address as *ulen asks, then its full length. */
static int move_addr_to_user(const struct sockaddr_in *kaddr, int klen, void *uaddr, int *ulen)
{
	int len;

	if (get_user(len, ulen))
		return -EFAULT;
	if (len > klen)
		len = klen;
	if (len < 0)
		return -EINVAL;
	if (len && copy_to_user(uaddr, kaddr, (size_t)len))
		return -EFAULT;
	return put_user(klen, ulen) ? -EFAULT : 0;
}

/* The call's socket and a copy of its address: the common start of bind and connect. */
static struct socket *sock_and_addr(int fd, const void *uaddr, int addrlen,
				    struct sockaddr_in *addr, struct file **file)
{
	char storage[SOCKADDR_STORAGE];
	struct socket *sock = sockfd_lookup(fd, file);
	int err;

	if (IS_ERR(sock))
		return sock;
	err = move_addr_to_kernel(uaddr, addrlen, addr, storage);
	if (err) {
		fput(*file);
		return ERR_PTR(err);
	}
	return sock;
}

SYSCALL_DEFINE3(bind, int, fd, struct sockaddr_in *, umyaddr, int, addrlen)
{
	struct sockaddr_in addr;
	struct file *file;
	struct socket *sock = sock_and_addr(fd, umyaddr, addrlen, &addr, &file);
	int err;

	if (IS_ERR(sock))
		return PTR_ERR(sock);
	err = inet_bind(sock, &addr, addrlen);
	fput(file);
	return err;
}

SYSCALL_DEFINE3(connect, int, fd, struct sockaddr_in *, uservaddr, int, addrlen)
{
	struct sockaddr_in addr;
	struct file *file;
	struct socket *sock = sock_and_addr(fd, uservaddr, addrlen, &addr, &file);
	int err;

	if (IS_ERR(sock))
		return PTR_ERR(sock);
	err = inet_stream_connect(sock, &addr, addrlen, (int)file->f_flags);
	fput(file);
	return err;
}

SYSCALL_DEFINE2(listen, int, fd, int, backlog)
{
	struct file *file;
	struct socket *sock = sockfd_lookup(fd, &file);
	int err;

	if (IS_ERR(sock))
		return PTR_ERR(sock);
	err = inet_listen(sock, backlog);
	fput(file);
	return err;
}

/*
 * Linux's do_accept order: the new socket and its descriptor are made
 * first; a connection taken off the queue whose address cannot be copied
 * out is closed again (the peer sees EOF) and the call fails EFAULT.
 */
static long do_accept4(int fd, struct sockaddr_in *uaddr, int *ulen, int flags)
{
	struct proto_accept_arg arg = { 0 };
	struct sockaddr_in addr;
	struct socket *sock, *newsock;
	struct file *file;
	int newfd, err;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	sock = sockfd_lookup(fd, &file);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	newsock = sock_alloc_file(flags);
	if (IS_ERR(newsock)) {
		fput(file);
		return PTR_ERR(newsock);
	}
	arg.flags = (int)file->f_flags;
	err = inet_accept(sock, newsock, &arg);
	fput(file);
	if (!err && uaddr) {
		inet_getname(newsock, &addr, 1);
		err = move_addr_to_user(&addr, sizeof(addr), uaddr, ulen);
	}
	if (err) {
		fput(newsock->file);
		return err;
	}
	newfd = fd_install(current_files(), newsock->file, 0);
	if (newfd >= 0 && (flags & SOCK_CLOEXEC))
		set_close_on_exec(current_files(), newfd, true);
	return newfd;
}

SYSCALL_DEFINE3(accept, int, fd, struct sockaddr_in *, upeer_sockaddr, int *, upeer_addrlen)
{
	return do_accept4(fd, upeer_sockaddr, upeer_addrlen, 0);
}

SYSCALL_DEFINE4(accept4, int, fd, struct sockaddr_in *, upeer_sockaddr, int *, upeer_addrlen,
		int, flags)
{
	return do_accept4(fd, upeer_sockaddr, upeer_addrlen, flags);
}

static long do_getname(int fd, struct sockaddr_in *uaddr, int *ulen, int peer)
{
	struct sockaddr_in addr;
	struct file *file;
	struct socket *sock = sockfd_lookup(fd, &file);
	int len;

	if (IS_ERR(sock))
		return PTR_ERR(sock);
	len = inet_getname(sock, &addr, peer);
	fput(file);
	return len < 0 ? len : move_addr_to_user(&addr, len, uaddr, ulen);
}

SYSCALL_DEFINE3(getsockname, int, fd, struct sockaddr_in *, usockaddr, int *, usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, 0);
}

SYSCALL_DEFINE3(getpeername, int, fd, struct sockaddr_in *, usockaddr, int *, usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, 1);
}

/* The flags sendto and recvfrom take; others (MSG_PEEK, MSG_OOB, ...) are not there: EINVAL. */
#define MSG_KNOWN	(MSG_DONTWAIT | MSG_NOSIGNAL)

/* A connected stream ignores sendto's address, as Linux's TCP does. */
SYSCALL_DEFINE6(sendto, int, fd, const char *, buff, size_t, len, unsigned int, flags,
		struct sockaddr_in *, addr, int, addr_len)
{
	struct file *file;
	struct socket *sock;
	size_t done = 0;
	char *k;
	ssize_t r = 0;

	if (flags & ~MSG_KNOWN)
		return -EINVAL;
	sock = sockfd_lookup(fd, &file);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	k = kmalloc(min(len, (size_t)SOCK_IO_CHUNK) + 1, GFP_KERNEL);
	if (!k) {
		fput(file);
		return -ENOMEM;
	}
	do {
		size_t n = min(len - done, (size_t)SOCK_IO_CHUNK);

		if (copy_from_user(k, buff + done, n)) {
			r = -EFAULT;
			break;
		}
		r = sock_sendmsg(sock, k, n, flags);
		if (r > 0)
			done += (size_t)r;
	} while (r == (ssize_t)SOCK_IO_CHUNK && done < len);
	kfree(k);
	fput(file);
	return done ? (long)done : (long)r;
}

/* A stream has no source address to give: *addr_len becomes 0, as on Linux. */
SYSCALL_DEFINE6(recvfrom, int, fd, char *, ubuf, size_t, size, unsigned int, flags,
		struct sockaddr_in *, addr, int *, addr_len)
{
	struct file *file;
	struct socket *sock;
	size_t n = min(size, (size_t)SOCK_IO_CHUNK);
	char *k;
	ssize_t r;

	if (flags & ~MSG_KNOWN)
		return -EINVAL;
	/*
	 * The buffer is probed before any byte leaves the stream: a bad one
	 * fails EFAULT and the data stays for the next call, as on Linux.
	 */
	if (clear_user(ubuf, n))
		return -EFAULT;
	sock = sockfd_lookup(fd, &file);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	k = kmalloc(n + 1, GFP_KERNEL);
	r = k ? sock_recvmsg(sock, k, n, flags) : -ENOMEM;
	if (r > 0 && copy_to_user(ubuf, k, (size_t)r))
		r = -EFAULT;
	if (r >= 0 && addr && move_addr_to_user(NULL, 0, addr, addr_len))
		r = -EFAULT;
	kfree(k);
	fput(file);
	return r;
}

SYSCALL_DEFINE2(shutdown, int, fd, int, how)
{
	struct file *file;
	struct socket *sock = sockfd_lookup(fd, &file);
	int err;

	if (IS_ERR(sock))
		return PTR_ERR(sock);
	err = inet_shutdown(sock, how);
	fput(file);
	return err;
}

/*
 * SO_REUSEADDR is the one option there; the others are ENOPROTOOPT. A
 * SOL_SOCKET value is read before its name is looked at, as Linux's
 * sk_setsockopt does (a short or unreadable one fails first).
 */
SYSCALL_DEFINE5(setsockopt, int, fd, int, level, int, optname, const int *, optval,
		int, optlen)
{
	struct file *file;
	struct socket *sock = sockfd_lookup(fd, &file);
	int val, err = 0;

	if (IS_ERR(sock))
		return PTR_ERR(sock);
	if (optlen < 0)
		err = -EINVAL;
	else if (level != SOL_SOCKET)
		err = -ENOPROTOOPT;
	else if (optlen < (int)sizeof(int))
		err = -EINVAL;
	else if (get_user(val, optval))
		err = -EFAULT;
	else if (optname != SO_REUSEADDR)
		err = -ENOPROTOOPT;
	else
		sock->sk->sk_reuse = val != 0;
	fput(file);
	return err;
}
