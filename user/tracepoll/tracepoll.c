/*
 * tracepoll [FILE [empty]]: poll(2) on a tracefs reader (default
 * trace_pipe) as a tool waiting for trace data does. With the buffer
 * empty, poll must time out (with "empty", that is all); then a child
 * writes a marker after 100 ms while the parent sleeps in poll, which must
 * report POLLIN, and a read must bring the marker. Prints each step and
 * whether poll slept until the marker.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRACING "/sys/kernel/tracing/"

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	const char *file = argc > 1 ? argv[1] : TRACING "trace_pipe";
	struct pollfd p;
	char buf[4096];
	long t0, slept;
	int fd, n, status;
	ssize_t r;
	pid_t child;

	fd = open(file, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	n = poll(&p, 1, 200);
	printf("empty: poll %d revents %#x\n", n, (unsigned int)p.revents);
	if (argc > 2 && !strcmp(argv[2], "empty"))
		return 0;
	child = fork();
	if (child == 0) {
		int m = open(TRACING "trace_marker", O_WRONLY);

		usleep(100000);
		if (m < 0 || write(m, "tracepoll marker\n", 17) != 17)
			_exit(1);
		_exit(0);
	}
	t0 = now_ms();
	p.revents = 0;
	n = poll(&p, 1, 5000);
	slept = now_ms() - t0;
	printf("marker: poll %d revents %#x after %s100 ms\n", n, (unsigned int)p.revents,
	       slept >= 90 ? "" : "less than ");
	r = read(fd, buf, sizeof(buf) - 1);
	buf[r > 0 ? r : 0] = 0;
	printf("read: %s\n", strstr(buf, "tracepoll marker") ? "the marker" : "no marker");
	waitpid(child, &status, 0);
	return !(WIFEXITED(status) && !WEXITSTATUS(status));
}
