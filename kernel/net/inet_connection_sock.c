/*
 * Listening sockets and their accept queues. A connect makes the server's
 * sock at once (tcp.c) and queues it here; accept takes the oldest off in
 * inet_csk_accept, the function Linux's accept path goes through too, so
 * a kretprobe on it sees the accepted struct sock (or NULL) as $retval.
 */
#include <kernel/errno.h>
#include <kernel/fs/fcntl.h>
#include <kernel/net/sock.h>

int inet_csk_listen_start(struct sock *sk, int backlog)
{
	int err;

	/* Linux caps the backlog at somaxconn (a negative one too, read unsigned). */
	if ((unsigned int)backlog > SOMAXCONN)
		backlog = SOMAXCONN;
	spin_lock(&inet_lock);
	if (sk->sk_state == TCP_LISTEN) {
		/* listen again: a new backlog only */
		sk->max_ack_backlog = (unsigned int)backlog;
		spin_unlock(&inet_lock);
		return 0;
	}
	err = sk->sk_bound ? inet_listen_conflict(sk) : inet_hash_bind(sk, INADDR_ANY, 0);
	if (!err) {
		sk->max_ack_backlog = (unsigned int)backlog;
		sk->sk_state = TCP_LISTEN;
	}
	spin_unlock(&inet_lock);
	return err;
}

static bool accept_ready(struct sock *sk)
{
	return READ_ONCE(sk->sk_state) != TCP_LISTEN || !list_empty(&sk->accept_queue);
}

/* Sleeps until a connection is queued or the socket stops listening; -EINTR on a signal. */
static int inet_csk_wait_for_connect(struct sock *sk)
{
	return wait_event_interruptible(sk->sk_wq, accept_ready(sk));
}

/* Not static, not inlined: the accept path's function Linux users put probes on. */
noinline struct sock *inet_csk_accept(struct sock *sk, struct proto_accept_arg *arg)
{
	struct sock *newsk = NULL;
	int error;

	spin_lock(&inet_lock);
	for (;;) {
		error = -EINVAL;
		if (sk->sk_state != TCP_LISTEN)
			break;
		newsk = list_first_entry_or_null(&sk->accept_queue, struct sock, accept_node);
		if (newsk) {
			list_del(&newsk->accept_node);
			sk->ack_backlog--;
			arg->is_empty = list_empty(&sk->accept_queue);
			break;
		}
		error = -EAGAIN;
		if (arg->flags & O_NONBLOCK)
			break;
		spin_unlock(&inet_lock);
		error = inet_csk_wait_for_connect(sk);
		spin_lock(&inet_lock);
		if (error)
			break;
	}
	spin_unlock(&inet_lock);
	if (!newsk)
		arg->err = error;
	return newsk;
}

void inet_csk_listen_stop(struct sock *sk)
{
	struct sock *child, *next;
	LIST_HEAD(orphans);

	spin_lock(&inet_lock);
	if (sk->sk_state == TCP_LISTEN) {
		sk->sk_state = TCP_CLOSE;
		list_for_each_entry_safe(child, next, &sk->accept_queue, accept_node) {
			list_del(&child->accept_node);
			list_add_tail(&child->accept_node, &orphans);
		}
		sk->ack_backlog = 0;
		/* Accept waiters find the socket no longer listening: EINVAL. */
		wake_up_all(&sk->sk_wq);
	}
	spin_unlock(&inet_lock);
	list_for_each_entry_safe(child, next, &orphans, accept_node)
		tcp_close(child);
}
