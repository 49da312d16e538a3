/*
 * The command perf runs: forked at once, but held in a read() on a pipe
 * until the events that follow it are open, so with enable_on_exec the
 * counting starts exactly at its exec, as perf's does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "perf.h"

int workload_prepare(struct workload *w, char **argv)
{
	int go[2];
	char c;

	if (pipe(go)) {
		perror("perf: pipe");
		return -1;
	}
	w->pid = fork();
	if (w->pid < 0) {
		perror("perf: fork");
		return -1;
	}
	if (!w->pid) {
		close(go[1]);
		/* end of file instead of a byte: perf gave up, so do not run */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "perf: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	w->go_fd = go[1];
	return 0;
}

void workload_start(struct workload *w)
{
	if (write(w->go_fd, "", 1) != 1)
		perror("perf: starting the workload");
	close(w->go_fd);
	w->go_fd = -1;
}

int workload_wait(struct workload *w)
{
	int status;

	if (w->go_fd >= 0)
		close(w->go_fd);	/* never started: the child sees end of file and exits */
	while (waitpid(w->pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
