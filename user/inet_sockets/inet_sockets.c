/*
 * inet_sockets: AF_INET stream sockets over loopback, a server and a
 * client in one process (fork). Each check prints one line "WHAT: RESULT"
 * with RESULT a value, an error's text or a property ("yes"/"no"), so
 * tests/boot/inet_sockets.sh compares lines; the last line counts the
 * accept calls made and how many took a connection off the queue (a
 * kretprobe on inet_csk_accept sees each call once, returning the
 * connection's struct sock or NULL).
 *
 * Usage: inet_sockets              the checks
 *        inet_sockets storm C R    C client processes, R connections each
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#define BAD		((void *)8)	/* an address no program has mapped */
#define BIG		100000		/* bytes each way: more than a pipe buffer */

static int accepts, accepted;
static volatile sig_atomic_t sigpipes, alarms;

/* A call's result: its value, or the error's text (musl's, the same on Linux and Spoor). */
static void result(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, strerror(errno));
	else
		printf("%s: %ld\n", what, r);
}

static void yesno(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "yes" : "no");
}

static struct sockaddr_in loopback(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static unsigned short local_port(int fd)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);

	return getsockname(fd, (struct sockaddr *)&a, &len) ? 0 : ntohs(a.sin_port);
}

static int do_accept(int fd, struct sockaddr_in *peer, int flags)
{
	socklen_t len = sizeof(*peer);
	int r = accept4(fd, (struct sockaddr *)peer, peer ? &len : NULL, flags);

	accepts++;
	if (r >= 0)
		accepted++;
	return r;
}

static int full_io(int fd, char *buf, size_t n, int writing)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = writing ? write(fd, buf + done, n - done) : read(fd, buf + done, n - done);

		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

static void fill(char *buf, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(seed + i * 7 + i / 251);
}

/* The client half: runs in the child, reports through its exit status. */
static int client(unsigned short port)
{
	static char big[BIG], want[BIG];
	struct sockaddr_in a = loopback(port);
	char buf[16];
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP), bad = 0;

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		return 10;
	if (sendto(fd, "ping", 4, 0, NULL, 0) != 4)
		bad |= 1;
	if (recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL) != 4 || memcmp(buf, "pong", 4))
		bad |= 2;
	fill(big, BIG, 1);
	if (full_io(fd, big, BIG, 1))
		bad |= 4;
	fill(want, BIG, 2);
	if (full_io(fd, big, BIG, 0) || memcmp(big, want, BIG))
		bad |= 8;
	if (read(fd, buf, sizeof(buf)) != 0)	/* the server's SHUT_WR */
		bad |= 16;
	close(fd);
	return bad;
}

static void on_signal(int sig)
{
	if (sig == SIGPIPE)
		sigpipes++;
	else
		alarms++;
}

/*
 * storm: `clients` processes connect `rounds` times each to one listener
 * and send a number the server echoes back; the server accepts every
 * connection in turn. Exercises the port table, the queue and the
 * connection teardown on every CPU at once (and leaks nothing: the boot
 * test compares Slab before and after).
 */
static int storm(int clients, int rounds)
{
	struct sockaddr_in a = loopback(0);
	int lfd = socket(AF_INET, SOCK_STREAM, 0), echoes = 0, failed = 0, status;

	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 64))
		return 1;
	a = loopback(local_port(lfd));
	fflush(stdout);
	for (int c = 0; c < clients; c++) {
		if (fork() == 0) {
			int bad = 0;

			for (int r = 0; r < rounds; r++) {
				int fd = socket(AF_INET, SOCK_STREAM, 0), v = c * rounds + r, back = -1;

				if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
				    write(fd, &v, sizeof(v)) != sizeof(v) ||
				    read(fd, &back, sizeof(back)) != sizeof(back) || back != v)
					bad++;
				close(fd);
			}
			_exit(bad ? 1 : 0);
		}
	}
	for (int i = 0; i < clients * rounds; i++) {
		int fd = do_accept(lfd, NULL, 0), v;

		if (fd >= 0 && read(fd, &v, sizeof(v)) == sizeof(v) && write(fd, &v, sizeof(v)) == sizeof(v))
			echoes++;
		close(fd);
	}
	while (wait(&status) > 0)
		failed += !WIFEXITED(status) || WEXITSTATUS(status);
	close(lfd);
	printf("storm: %d connections, %d echoed, %d clients failed\n", accepted, echoes, failed);
	return 0;
}

int main(int argc, char **argv)
{
	static char big[BIG], want[BIG];
	struct sockaddr_in a = loopback(0), peer, got;
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct pollfd pfd;
	socklen_t len;
	char buf[16];
	int one = 1, lfd, fd, cfd, status;
	unsigned short port;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines in order with the child's */
	if (argc == 4 && !strcmp(argv[1], "storm"))
		return storm(atoi(argv[2]), atoi(argv[3]));
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);

	result("socket AF_INET6", socket(AF_INET6, SOCK_STREAM, 0));
	result("socket SOCK_DGRAM", socket(AF_INET, SOCK_DGRAM, 0));
	result("socket IPPROTO_UDP", socket(AF_INET, SOCK_STREAM, IPPROTO_UDP));
	result("socket bad flags", socket(AF_INET, SOCK_STREAM | 0x1000, 0));
	result("accept on a pipe", accept(0, NULL, NULL));

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	yesno("socket", lfd >= 0);
	yesno("close-on-exec", fcntl(lfd, F_GETFD) == FD_CLOEXEC);
	result("setsockopt SO_REUSEADDR", setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)));
	result("setsockopt SO_REUSEADDR short", setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, 2));
	result("bind bad address", bind(lfd, BAD, sizeof(a)));
	result("bind short", bind(lfd, (struct sockaddr *)&a, 8));
	a.sin_addr.s_addr = htonl(0x0a000001);
	result("bind 10.0.0.1", bind(lfd, (struct sockaddr *)&a, sizeof(a)));
	a = loopback(0);
	result("bind 127.0.0.1:0", bind(lfd, (struct sockaddr *)&a, sizeof(a)));
	port = local_port(lfd);
	yesno("ephemeral port", port >= 32768 && port <= 60999);
	result("bind again", bind(lfd, (struct sockaddr *)&a, sizeof(a)));
	len = sizeof(got);
	result("getpeername unconnected", getpeername(lfd, (struct sockaddr *)&got, &len));
	result("getsockname bad length pointer", getsockname(lfd, (struct sockaddr *)&got, BAD));
	len = sizeof(got);
	result("getsockname bad address", getsockname(lfd, BAD, &len));
	len = 4;
	getsockname(lfd, (struct sockaddr *)&got, &len);
	result("getsockname truncated: full length", len);

	/* Not listening yet: refused. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	a = loopback(port);
	result("connect before listen", connect(fd, (struct sockaddr *)&a, sizeof(a)));
	result("read unconnected", read(fd, buf, 1));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	result("write unconnected", write(fd, "x", 1));
	sa.sa_handler = on_signal;
	sigaction(SIGPIPE, &sa, NULL);
	a.sin_addr.s_addr = htonl(0x0a000001);
	result("connect 10.0.0.1", connect(fd, (struct sockaddr *)&a, sizeof(a)));
	close(fd);

	result("listen", listen(lfd, 4));
	fd = socket(AF_INET, SOCK_STREAM, 0);
	a = loopback(port);
	result("bind a listening port", bind(fd, (struct sockaddr *)&a, sizeof(a)));
	a.sin_addr.s_addr = htonl(INADDR_ANY);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	result("bind INADDR_ANY on it, SO_REUSEADDR", bind(fd, (struct sockaddr *)&a, sizeof(a)));
	close(fd);

	fcntl(lfd, F_SETFL, O_NONBLOCK);
	result("accept O_NONBLOCK, nothing queued", do_accept(lfd, NULL, 0));
	fcntl(lfd, F_SETFL, 0);
	pfd = (struct pollfd){ .fd = lfd, .events = POLLIN };
	result("poll listener, nothing queued", poll(&pfd, 1, 0));

	/* A blocking accept that a signal (no SA_RESTART) interrupts. */
	setitimer(ITIMER_REAL, &(struct itimerval){ .it_value = { 0, 50000 } }, NULL);
	result("accept interrupted", do_accept(lfd, NULL, 0));
	yesno("SIGALRM seen", alarms == 1);

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(client(port));
	cfd = do_accept(lfd, &peer, SOCK_CLOEXEC);
	yesno("accept", cfd >= 0);
	yesno("accepted peer is 127.0.0.1", peer.sin_family == AF_INET &&
	      peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	len = sizeof(got);
	getpeername(cfd, (struct sockaddr *)&got, &len);
	yesno("getpeername = accept's address", got.sin_port == peer.sin_port && len == sizeof(got));
	yesno("peer port ephemeral", ntohs(peer.sin_port) >= 32768);
	yesno("accepted socket's port is the listener's", local_port(cfd) == port);
	pfd = (struct pollfd){ .fd = cfd, .events = POLLOUT };
	result("poll connected: writable", poll(&pfd, 1, 0));
	pfd = (struct pollfd){ .fd = cfd, .events = POLLIN };
	poll(&pfd, 1, 5000);
	yesno("poll connected: readable once the client wrote", pfd.revents == POLLIN);
	result("recvfrom bad buffer", recvfrom(cfd, BAD, 4, 0, NULL, NULL));
	result("recvfrom MSG_PEEK", recvfrom(cfd, buf, 4, MSG_PEEK, NULL, NULL));
	len = sizeof(got);
	result("recvfrom", recvfrom(cfd, buf, sizeof(buf), 0, (struct sockaddr *)&got, &len));
	yesno("server got ping", !memcmp(buf, "ping", 4));
	result("recvfrom: address length", len);
	result("write bad buffer", write(cfd, BAD, 4));
	result("write", write(cfd, "pong", 4));
	fill(want, BIG, 1);
	yesno("server got 100000 bytes", !full_io(cfd, big, BIG, 0) && !memcmp(big, want, BIG));
	fill(big, BIG, 2);
	yesno("server sent 100000 bytes", !full_io(cfd, big, BIG, 1));
	result("shutdown SHUT_WR", shutdown(cfd, SHUT_WR));
	result("shutdown bad how", shutdown(cfd, 7));
	result("read: EOF from the client", read(cfd, buf, sizeof(buf)));
	waitpid(pid, &status, 0);
	result("client exit status", WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status));
	result("recv nonblocking after EOF", recvfrom(cfd, buf, 4, MSG_DONTWAIT, NULL, NULL));
	close(cfd);

	/* A client that closes: writes to it after SHUT_WR and after the peer's close. */
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	result("connect non-blocking", connect(fd, (struct sockaddr *)&a, sizeof(a)));
	result("connect again: the connection made", connect(fd, (struct sockaddr *)&a, sizeof(a)));
	result("connect a third time", connect(fd, (struct sockaddr *)&a, sizeof(a)));
	result("read nonblocking, no data", read(fd, buf, 1));
	cfd = do_accept(lfd, NULL, SOCK_NONBLOCK);
	yesno("accept4 SOCK_NONBLOCK (no address asked)", cfd >= 0 && (fcntl(cfd, F_GETFL) & O_NONBLOCK));
	close(cfd);
	result("read after the peer's close", read(fd, buf, 1));
	result("first write after the peer's close", write(fd, "a", 1));
	result("second write after the peer's close", write(fd, "b", 1));
	yesno("one SIGPIPE", sigpipes == 1);
	result("send MSG_NOSIGNAL", sendto(fd, "c", 1, MSG_NOSIGNAL, NULL, 0));
	yesno("still one SIGPIPE", sigpipes == 1);
	close(fd);

	/* A queued connection whose address cannot be copied out is dropped. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	connect(fd, (struct sockaddr *)&a, sizeof(a));
	len = sizeof(got);
	result("accept bad address", do_accept(lfd, BAD, 0) < 0 ? -1 : 0);
	accepted++;	/* inet_csk_accept did take it off the queue */
	result("read: the dropped connection's EOF", read(fd, buf, 1));
	close(fd);

	close(lfd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	result("connect after the listener's close", connect(fd, (struct sockaddr *)&a, sizeof(a)));
	close(fd);
	printf("accept calls: %d, connections taken: %d\n", accepts, accepted);
	return 0;
}
