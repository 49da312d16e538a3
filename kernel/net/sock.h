/*
 * Sockets: AF_INET stream sockets over loopback, with Linux's system-call
 * ABI and the names of Linux's accept path (inet_accept ->
 * inet_csk_accept), so probes and the function tracer see what they see
 * on Linux. There is no IP or TCP wire format and no other host: a
 * connect to a listening loopback port makes the server's half at once,
 * and each direction of a connection is a pipe buffer (kernel/fs/pipe.h).
 *
 * A struct socket is the file's side (one per socket file); a struct
 * sock is the protocol's side (Linux's split): a listener's accept queue
 * holds socks that have no socket until accept grafts one.
 *
 * Locking: inet_lock (inet_hashtables.c) guards the port table, every
 * sock's state, addresses and shutdown bits, and the accept queues. Data
 * moves under each pipe's own lock.
 */
#ifndef KERNEL_NET_SOCK_H
#define KERNEL_NET_SOCK_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/atomic.h>
#include <kernel/spinlock.h>
#include <kernel/wait.h>

struct file;
struct pipe_inode_info;

/* Linux's uapi values. */
#define AF_UNSPEC	0
#define AF_INET		2
#define SOCK_STREAM	1
#define SOCK_TYPE_MASK	0xf
#define SOCK_NONBLOCK	00004000	/* O_NONBLOCK */
#define SOCK_CLOEXEC	02000000	/* O_CLOEXEC */
#define IPPROTO_IP	0
#define IPPROTO_TCP	6
#define SOL_SOCKET	1
#define SO_REUSEADDR	2
#define SHUT_RD		0
#define SHUT_WR		1
#define SHUT_RDWR	2
#define MSG_DONTWAIT	0x40
#define MSG_NOSIGNAL	0x4000
#define SOMAXCONN	4096		/* net.core.somaxconn's default */

#define INADDR_ANY		0x00000000u
#define INADDR_LOOPBACK		0x7f000001u	/* 127.0.0.1 */
#define IN_LOOPBACKNET(a)	(((a) >> 24) == 127)	/* 127.0.0.0/8, all local */
#define EPHEMERAL_LOW		32768	/* net.ipv4.ip_local_port_range's default */
#define EPHEMERAL_HIGH		60999

/* struct sockaddr_in: port and address in network byte order. */
struct sockaddr_in {
	u16 sin_family;
	u16 sin_port;
	u32 sin_addr;
	u8 sin_zero[8];
};

/* TCP states, Linux's numbers; Spoor's socks pass through these three only. */
#define TCP_ESTABLISHED	1
#define TCP_CLOSE	7
#define TCP_LISTEN	10

/* sk_shutdown bits (SHUT_RD + 1, SHUT_WR + 1, as Linux counts them). */
#define RCV_SHUTDOWN	1
#define SEND_SHUTDOWN	2

/* The two byte streams of one connection; the two socks share it and the last frees it. */
struct tcp_pair {
	atomic_t refs;
	struct pipe_inode_info *stream[2];	/* stream[i]: what sock side i reads */
};

/* The protocol side of a socket. Addresses and ports in host byte order. */
struct sock {
	int sk_state;			/* TCP_* */
	unsigned char sk_shutdown;	/* RCV_SHUTDOWN | SEND_SHUTDOWN done on this side */
	bool sk_reuse;			/* SO_REUSEADDR */
	bool sk_bound;			/* in the port table (bind_node) */
	bool sk_reset;			/* a write met the closed peer once (Linux's RST) */
	u32 rcv_saddr;			/* local address */
	u16 num;			/* local port */
	u32 daddr;			/* peer address, when connected */
	u16 dport;			/* peer port */
	struct list_head bind_node;	/* in the port table */
	/* Connected (TCP_ESTABLISHED) */
	struct tcp_pair *pair;
	int side;			/* reads pair->stream[side], writes the other */
	/* Listening (TCP_LISTEN) */
	struct list_head accept_queue;	/* connected socks not yet accepted, oldest first */
	unsigned int ack_backlog, max_ack_backlog;
	wait_queue_head_t sk_wq;	/* accept waiters */
	struct list_head accept_node;	/* a new sock: on its listener's accept_queue */
};

/* struct socket's state: Linux's socket_state values. */
#define SS_UNCONNECTED	1
#define SS_CONNECTING	2
#define SS_CONNECTED	3

/* The file side of a socket: file->private_data of a socket file. */
struct socket {
	int state;		/* SS_* */
	short type;		/* SOCK_STREAM */
	struct sock *sk;
	struct file *file;
};

/* What accept hands down to the protocol (Linux 6.12's struct proto_accept_arg). */
struct proto_accept_arg {
	int flags;		/* the listener's file flags: O_NONBLOCK */
	int err;		/* why no sock came back */
	int is_empty;		/* the queue is empty after this accept */
	bool kern;		/* a kernel socket (never, here) */
};

/* ---- inet_hashtables.c: the port table ---- */
extern spinlock_t inet_lock;
/* Bind sk to addr:port (port 0: an ephemeral one); caller holds inet_lock. */
int inet_hash_bind(struct sock *sk, u32 addr, u16 port);
void inet_unhash(struct sock *sk);
/* Another sock's claim on sk's port that listen must respect: -EADDRINUSE or 0. */
int inet_listen_conflict(struct sock *sk);
/* The sock listening on addr:port (exact address first, then INADDR_ANY), or NULL. */
struct sock *inet_lookup_listener(u32 addr, u16 port);

/* ---- inet_connection_sock.c: listening and accepting ---- */
int inet_csk_listen_start(struct sock *sk, int backlog);
/* Take the oldest connection off a listener's queue, waiting unless O_NONBLOCK. */
struct sock *inet_csk_accept(struct sock *sk, struct proto_accept_arg *arg);
/* Stop listening; the socks still queued are destroyed (their peers see EOF). */
void inet_csk_listen_stop(struct sock *sk);

/* ---- tcp.c: connections ---- */
struct sock *sk_alloc(void);
/* Connect sk to the listener on daddr:dport: -ECONNREFUSED when there is none. */
int tcp_connect(struct sock *sk, u32 daddr, u16 dport);
ssize_t tcp_recvmsg(struct sock *sk, char *buf, size_t len, bool nonblock);
/* -EPIPE once the peer or this side's SHUT_WR ended the stream (the caller raises SIGPIPE). */
ssize_t tcp_sendmsg(struct sock *sk, const char *buf, size_t len, bool nonblock);
void tcp_shutdown(struct sock *sk, int how);
unsigned int tcp_poll(struct sock *sk);
/* The sock's last reference: unbind, drop its stream ends, free. */
void tcp_close(struct sock *sk);

/* ---- af_inet.c: the AF_INET socket calls ---- */
int inet_create(struct socket *sock, int protocol);
int inet_bind(struct socket *sock, const struct sockaddr_in *addr, int addrlen);
int inet_listen(struct socket *sock, int backlog);
/* flags: the file's (O_NONBLOCK). */
int inet_stream_connect(struct socket *sock, const struct sockaddr_in *addr, int addrlen,
			int flags);
int inet_accept(struct socket *sock, struct socket *newsock, struct proto_accept_arg *arg);
/* The local (peer = 0) or peer address; -ENOTCONN for the peer of an unconnected socket. */
int inet_getname(struct socket *sock, struct sockaddr_in *addr, int peer);
int inet_shutdown(struct socket *sock, int how);
void inet_release(struct socket *sock);

/* ---- socket.c: socket files ---- */
/* A socket file for a new socket (sk NULL: none yet); flags O_NONBLOCK. */
struct socket *sock_alloc_file(int flags);
/* The socket behind fd, its file referenced in *filep: -EBADF, -ENOTSOCK. */
struct socket *sockfd_lookup(int fd, struct file **filep);
/* read(2)/recvfrom(2) and write(2)/sendto(2) on a socket; flags MSG_DONTWAIT, MSG_NOSIGNAL. */
ssize_t sock_recvmsg(struct socket *sock, char *buf, size_t len, unsigned int flags);
ssize_t sock_sendmsg(struct socket *sock, const char *buf, size_t len, unsigned int flags);

#endif
