/*
 * tpoll FILE MS: poll(2) FILE (opened read-only, non-blocking) for POLLIN
 * for up to MS milliseconds. Prints "ready" and exits 0 when it is
 * readable, "timeout" and exits 1 when not; 2 on a usage or open error.
 * For boot tests of poll on tracefs files (trace_pipe, trace_pipe_raw).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct pollfd pfd = { .events = POLLIN };
	int n;

	if (argc != 3) {
		fprintf(stderr, "usage: tpoll FILE MS\n");
		return 2;
	}
	pfd.fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (pfd.fd < 0) {
		fprintf(stderr, "tpoll: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	n = poll(&pfd, 1, atoi(argv[2]));
	if (n < 0) {
		fprintf(stderr, "tpoll: poll: %s\n", strerror(errno));
		return 2;
	}
	puts(n && (pfd.revents & POLLIN) ? "ready" : "timeout");
	close(pfd.fd);
	return n && (pfd.revents & POLLIN) ? 0 : 1;
}
