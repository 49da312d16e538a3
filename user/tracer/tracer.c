/*
 * tracer [SYSTEM/EVENT]: a ring-3 user of tracefs. Enables the event
 * (default sched/sched_process_fork), forks a child that exits at once,
 * disables the event, then drains trace_pipe without blocking (O_NONBLOCK:
 * EAGAIN once empty; an alarm guards a kernel that would block anyway) and
 * prints the lines that name the child's pid. Exits 0 if one did.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tracefs = "/sys/kernel/tracing";

/* write_file: O_TRUNC as the shell's '>' does; on `trace` it is what clears. */
static int write_file(const char *rel, const char *val)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", tracefs, rel);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		fprintf(stderr, "tracer: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	if (!ok)
		fprintf(stderr, "tracer: write %s: %s\n", path, strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

/* names_pid: LINE has "pid=PID" not followed by another digit. */
static int names_pid(const char *line, const char *pidstr)
{
	size_t n = strlen(pidstr);

	for (const char *p = line; (p = strstr(p, pidstr)); p += n)
		if (p[n] < '0' || p[n] > '9')
			return 1;
	return 0;
}

static void on_alarm(int sig)
{
	/* nothing: its only job is to make a blocked read return EINTR */
}

int main(int argc, char **argv)
{
	const char *event = argc > 1 ? argv[1] : "sched/sched_process_fork";
	char enable[256], pidstr[32], buf[8192], line[1024];
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	size_t len = 0;
	int fd, found = 0, status;
	pid_t child;
	ssize_t r;

	snprintf(enable, sizeof(enable), "events/%s/enable", event);
	/* Events recorded before ours would fill the pipe: start empty. */
	if (write_file("trace", "") < 0 || write_file(enable, "1") < 0)
		return 1;
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, &status, 0);
	write_file(enable, "0");
	snprintf(pidstr, sizeof(pidstr), "pid=%d", (int)child);

	snprintf(buf, sizeof(buf), "%s/trace_pipe", tracefs);
	fd = open(buf, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "tracer: %s: %s\n", buf, strerror(errno));
		return 1;
	}
	sigaction(SIGALRM, &sa, NULL);
	alarm(5);
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		/* Split into lines; a line longer than the buffer is cut. */
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			len = 0;
			if (names_pid(line, pidstr)) {
				printf("%s\n", line);
				found++;
			}
		}
	}
	alarm(0);
	close(fd);
	printf("tracer: %s, %d lines for child %d\n", event, found, (int)child);
	return found ? 0 : 1;
}
