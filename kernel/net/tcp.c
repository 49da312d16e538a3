/*
 * Stream connections over loopback. A connect finds the listener, makes
 * the server's sock and a pair of pipe buffers (one per direction) and
 * queues the sock for accept: the handshake Linux runs through SYN,
 * SYN-ACK and ACK is one step here. Data, EOF and EPIPE are the pipes'
 * (kernel/fs/pipe.c); what is TCP's own is on top: SHUT_RD, and the one
 * write a closed peer still takes before its reset arrives.
 */
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/pipe.h>
#include <kernel/net/sock.h>

struct sock *sk_alloc(void)
{
	struct sock *sk = kzalloc(sizeof(*sk), GFP_KERNEL);

	if (!sk)
		return NULL;
	sk->sk_state = TCP_CLOSE;
	INIT_LIST_HEAD(&sk->bind_node);
	INIT_LIST_HEAD(&sk->accept_queue);
	INIT_LIST_HEAD(&sk->accept_node);
	init_waitqueue_head(&sk->sk_wq);
	return sk;
}

static struct pipe_inode_info *sk_rx(struct sock *sk)
{
	return sk->pair->stream[sk->side];
}

static struct pipe_inode_info *sk_tx(struct sock *sk)
{
	return sk->pair->stream[!sk->side];
}

static struct tcp_pair *tcp_pair_alloc(void)
{
	struct tcp_pair *pair = kzalloc(sizeof(*pair), GFP_KERNEL);

	if (!pair)
		return NULL;
	pair->stream[0] = alloc_pipe_info();
	pair->stream[1] = alloc_pipe_info();
	if (!pair->stream[0] || !pair->stream[1]) {
		kfree(pair->stream[0]);
		kfree(pair->stream[1]);
		kfree(pair);
		return NULL;
	}
	atomic_set(&pair->refs, 2);
	return pair;
}

static void tcp_pair_put(struct tcp_pair *pair)
{
	if (atomic_dec_and_test(&pair->refs)) {
		kfree(pair->stream[0]);
		kfree(pair->stream[1]);
		kfree(pair);
	}
}

int tcp_connect(struct sock *sk, u32 daddr, u16 dport)
{
	struct sock *child = sk_alloc(), *listener;
	struct tcp_pair *pair = tcp_pair_alloc();
	int err = -ENOMEM;

	if (!child || !pair)
		goto fail;
	/* 0.0.0.0 means this host, as on Linux. */
	if (daddr == INADDR_ANY)
		daddr = INADDR_LOOPBACK;
	spin_lock(&inet_lock);
	err = -EISCONN;
	if (sk->sk_state != TCP_CLOSE)
		goto unlock;
	listener = inet_lookup_listener(daddr, dport);
	/* No SYN retries to wait through: a full backlog refuses like a closed port. */
	err = -ECONNREFUSED;
	if (!listener || listener->ack_backlog > listener->max_ack_backlog)
		goto unlock;
	if (!sk->sk_bound) {
		err = inet_hash_bind(sk, INADDR_LOOPBACK, 0);
		if (err)
			goto unlock;
	} else if (sk->rcv_saddr == INADDR_ANY) {
		sk->rcv_saddr = INADDR_LOOPBACK;	/* the route's source address */
	}
	child->sk_reuse = listener->sk_reuse;
	child->rcv_saddr = daddr;
	child->num = dport;
	/* In the port table next to its listener, as Linux's child shares the bind bucket. */
	child->sk_bound = true;
	list_add(&child->bind_node, &listener->bind_node);
	child->daddr = sk->rcv_saddr;
	child->dport = sk->num;
	child->pair = pair;
	child->side = 0;
	child->sk_state = TCP_ESTABLISHED;
	sk->daddr = daddr;
	sk->dport = dport;
	sk->pair = pair;
	sk->side = 1;
	sk->sk_state = TCP_ESTABLISHED;
	list_add_tail(&child->accept_node, &listener->accept_queue);
	listener->ack_backlog++;
	wake_up_interruptible(&listener->sk_wq);
	spin_unlock(&inet_lock);
	return 0;
unlock:
	spin_unlock(&inet_lock);
fail:
	kfree(child);
	if (pair) {
		atomic_set(&pair->refs, 1);
		tcp_pair_put(pair);
	}
	return err;
}

ssize_t tcp_recvmsg(struct sock *sk, char *buf, size_t len, bool nonblock)
{
	ssize_t r;

	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED)
		return -ENOTCONN;
	/* After SHUT_RD, what is queued still comes out, then EOF instead of a wait. */
	if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) {
		r = pipe_read_buf(sk_rx(sk), buf, len, true);
		return r == -EAGAIN ? 0 : r;
	}
	return pipe_read_buf(sk_rx(sk), buf, len, nonblock);
}

ssize_t tcp_sendmsg(struct sock *sk, const char *buf, size_t len, bool nonblock)
{
	ssize_t r;

	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED ||
	    (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN))
		return -EPIPE;
	r = pipe_write_buf(sk_tx(sk), buf, len, nonblock);
	/*
	 * On Linux the first segment to a closed peer goes out and the reset
	 * it draws turns the next write into EPIPE: the first one succeeds.
	 */
	if (r == -EPIPE && !sk->sk_reset) {
		sk->sk_reset = true;
		return (ssize_t)len;
	}
	return r;
}

void tcp_shutdown(struct sock *sk, int how)
{
	bool drop_tx;

	spin_lock(&inet_lock);
	drop_tx = (how & SEND_SHUTDOWN) && !(sk->sk_shutdown & SEND_SHUTDOWN) &&
		  sk->sk_state == TCP_ESTABLISHED;
	sk->sk_shutdown |= how;
	spin_unlock(&inet_lock);
	/* The peer reads EOF once the queued bytes are out. */
	if (drop_tx)
		pipe_put_ends(sk_tx(sk), false, true);
}

unsigned int tcp_poll(struct sock *sk)
{
	unsigned int mask = 0, rx, tx;

	switch (READ_ONCE(sk->sk_state)) {
	case TCP_LISTEN:
		return list_empty(&sk->accept_queue) ? 0 : POLLIN | POLLRDNORM;
	case TCP_CLOSE:
		/* Linux's tcp_poll: an unconnected socket is writable and hung up. */
		return POLLOUT | POLLHUP;
	}
	rx = pipe_poll_ends(sk_rx(sk), true, false);
	tx = pipe_poll_ends(sk_tx(sk), false, true);
	/* Data, the peer's EOF (POLLHUP of the pipe) or SHUT_RD: a read would not block. */
	if (rx || (sk->sk_shutdown & RCV_SHUTDOWN))
		mask |= POLLIN | POLLRDNORM;
	if ((tx & POLLOUT) && !(sk->sk_shutdown & SEND_SHUTDOWN))
		mask |= POLLOUT;
	/* Hung up once neither direction can carry anything. */
	if ((rx & POLLHUP) && ((tx & POLLERR) || (sk->sk_shutdown & SEND_SHUTDOWN)))
		mask |= POLLHUP;
	return mask;
}

void tcp_close(struct sock *sk)
{
	spin_lock(&inet_lock);
	inet_unhash(sk);
	spin_unlock(&inet_lock);
	if (sk->pair) {
		pipe_put_ends(sk_rx(sk), true, false);
		if (!(sk->sk_shutdown & SEND_SHUTDOWN))
			pipe_put_ends(sk_tx(sk), false, true);
		tcp_pair_put(sk->pair);
	}
	kfree(sk);
}
