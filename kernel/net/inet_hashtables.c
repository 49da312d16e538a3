/*
 * The port table: every bound sock (bound by bind, by listen or connect
 * on an unbound socket, and the server halves of connections, which
 * share their listener's port as on Linux). A list: a loopback-only
 * stack has a handful of sockets.
 */
#include <kernel/errno.h>
#include <kernel/net/sock.h>

DEFINE_SPINLOCK(inet_lock);
static LIST_HEAD(bound_socks);
static u16 port_rover = EPHEMERAL_LOW;

static bool addr_overlap(u32 a, u32 b)
{
	return a == INADDR_ANY || b == INADDR_ANY || a == b;
}

/*
 * Linux's rule (inet_csk_bind_conflict), at bind and again at listen: two
 * socks may share a port and address only if both asked for SO_REUSEADDR
 * and the other one is not listening.
 */
static bool bind_conflict(struct sock *sk, u32 addr, u16 port)
{
	struct sock *o;

	list_for_each_entry(o, &bound_socks, bind_node) {
		if (o == sk || o->num != port || !addr_overlap(o->rcv_saddr, addr))
			continue;
		if (!(sk->sk_reuse && o->sk_reuse && o->sk_state != TCP_LISTEN))
			return true;
	}
	return false;
}

static bool port_in_use(u16 port)
{
	struct sock *o;

	list_for_each_entry(o, &bound_socks, bind_node)
		if (o->num == port)
			return true;
	return false;
}

int inet_hash_bind(struct sock *sk, u32 addr, u16 port)
{
	if (!port) {
		/* The next free port of the ephemeral range, wrapping once. */
		for (unsigned int i = 0; i <= EPHEMERAL_HIGH - EPHEMERAL_LOW; i++) {
			u16 p = port_rover;

			port_rover = p == EPHEMERAL_HIGH ? EPHEMERAL_LOW : p + 1;
			if (!port_in_use(p)) {
				port = p;
				break;
			}
		}
		if (!port)
			return -EADDRINUSE;
	} else if (bind_conflict(sk, addr, port)) {
		return -EADDRINUSE;
	}
	sk->rcv_saddr = addr;
	sk->num = port;
	sk->sk_bound = true;
	list_add_tail(&sk->bind_node, &bound_socks);
	return 0;
}

void inet_unhash(struct sock *sk)
{
	if (sk->sk_bound) {
		list_del(&sk->bind_node);
		sk->sk_bound = false;
	}
}

int inet_listen_conflict(struct sock *sk)
{
	return bind_conflict(sk, sk->rcv_saddr, sk->num) ? -EADDRINUSE : 0;
}

struct sock *inet_lookup_listener(u32 addr, u16 port)
{
	struct sock *o, *wild = NULL;

	list_for_each_entry(o, &bound_socks, bind_node) {
		if (o->num != port || o->sk_state != TCP_LISTEN)
			continue;
		if (o->rcv_saddr == addr)
			return o;
		if (o->rcv_saddr == INADDR_ANY)
			wild = o;
	}
	return wild;
}
