/*
 * The AF_INET socket calls: argument checks and errnos in Linux's order
 * (net/ipv4/af_inet.c, tcp_v4_connect), then the port table, the accept
 * queue or the connection. Only loopback exists: 127.0.0.0/8 and
 * INADDR_ANY are this host, any other address is EADDRNOTAVAIL to bind
 * and ENETUNREACH to connect (no route: there is no other interface).
 */
#include <kernel/errno.h>
#include <kernel/fs/fcntl.h>
#include <kernel/net/sock.h>

/* Ports and addresses arrive in network byte order. */
static u16 ntohs(u16 v)
{
	return (u16)(v >> 8 | v << 8);
}

static u32 ntohl(u32 v)
{
	return __builtin_bswap32(v);
}

int inet_create(struct socket *sock, int protocol)
{
	if (protocol != IPPROTO_IP && protocol != IPPROTO_TCP)
		return -EPROTONOSUPPORT;
	sock->sk = sk_alloc();
	return sock->sk ? 0 : -ENOMEM;
}

int inet_bind(struct socket *sock, const struct sockaddr_in *addr, int addrlen)
{
	struct sock *sk = sock->sk;
	u32 ip;
	int err;

	if (addrlen < (int)sizeof(*addr))
		return -EINVAL;
	ip = ntohl(addr->sin_addr);
	/* Linux lets AF_UNSPEC through for INADDR_ANY only (old programs send it). */
	if (addr->sin_family != AF_INET &&
	    !(addr->sin_family == AF_UNSPEC && ip == INADDR_ANY))
		return -EAFNOSUPPORT;
	if (ip != INADDR_ANY && !IN_LOOPBACKNET(ip))
		return -EADDRNOTAVAIL;
	spin_lock(&inet_lock);
	err = sk->sk_state != TCP_CLOSE || sk->sk_bound ? -EINVAL :
	      inet_hash_bind(sk, ip, ntohs(addr->sin_port));
	spin_unlock(&inet_lock);
	return err;
}

int inet_listen(struct socket *sock, int backlog)
{
	if (sock->state != SS_UNCONNECTED || sock->type != SOCK_STREAM)
		return -EINVAL;
	return inet_csk_listen_start(sock->sk, backlog);
}

/*
 * A non-blocking connect answers EINPROGRESS on Linux even over loopback,
 * where the handshake is done before the call returns; the next connect
 * then reports the connection made (0), the one after EISCONN.
 */
int inet_stream_connect(struct socket *sock, const struct sockaddr_in *addr, int addrlen,
			int flags)
{
	u32 ip;
	int err;

	if (addrlen < (int)sizeof(addr->sin_family))
		return -EINVAL;
	if (sock->state == SS_CONNECTED)
		return -EISCONN;
	if (sock->state == SS_CONNECTING) {
		sock->state = SS_CONNECTED;
		return 0;
	}
	if (READ_ONCE(sock->sk->sk_state) != TCP_CLOSE)
		return -EISCONN;
	if (addrlen < (int)sizeof(*addr))
		return -EINVAL;
	/* AF_UNSPEC would disconnect on Linux; Spoor has no disconnect. */
	if (addr->sin_family != AF_INET)
		return -EAFNOSUPPORT;
	ip = ntohl(addr->sin_addr);
	if (ip != INADDR_ANY && !IN_LOOPBACKNET(ip))
		return -ENETUNREACH;
	err = tcp_connect(sock->sk, ip, ntohs(addr->sin_port));
	if (err)
		return err;
	if (flags & O_NONBLOCK) {
		sock->state = SS_CONNECTING;
		return -EINPROGRESS;
	}
	sock->state = SS_CONNECTED;
	return 0;
}

int inet_accept(struct socket *sock, struct socket *newsock, struct proto_accept_arg *arg)
{
	struct sock *sk2;

	arg->err = -EINVAL;
	sk2 = inet_csk_accept(sock->sk, arg);
	if (!sk2)
		return arg->err;
	newsock->sk = sk2;
	newsock->state = SS_CONNECTED;
	return 0;
}

int inet_getname(struct socket *sock, struct sockaddr_in *addr, int peer)
{
	struct sock *sk = sock->sk;
	int err = 0;

	*addr = (struct sockaddr_in){ .sin_family = AF_INET };
	spin_lock(&inet_lock);
	if (peer) {
		if (sk->sk_state != TCP_ESTABLISHED) {
			err = -ENOTCONN;
		} else {
			addr->sin_port = ntohs(sk->dport);
			addr->sin_addr = ntohl(sk->daddr);
		}
	} else {
		addr->sin_port = ntohs(sk->num);
		addr->sin_addr = ntohl(sk->rcv_saddr);
	}
	spin_unlock(&inet_lock);
	return err ? err : (int)sizeof(*addr);
}

int inet_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;

	/* SHUT_RD, SHUT_WR, SHUT_RDWR become RCV_SHUTDOWN | SEND_SHUTDOWN bits. */
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	how++;
	switch (READ_ONCE(sk->sk_state)) {
	case TCP_ESTABLISHED:
		tcp_shutdown(sk, how);
		return 0;
	case TCP_LISTEN:
		/* Shutting a listener's reading side stops it listening (wakes accept). */
		if (how & RCV_SHUTDOWN)
			inet_csk_listen_stop(sk);
		return 0;
	default:
		return -ENOTCONN;
	}
}

void inet_release(struct socket *sock)
{
	if (!sock->sk)
		return;
	inet_csk_listen_stop(sock->sk);
	tcp_close(sock->sk);
	sock->sk = NULL;
}
