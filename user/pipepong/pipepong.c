/*
 * pipepong [ROUNDS]: a parent and a forked child pass one byte back and
 * forth over two pipes ROUNDS times (default 1000), so on one CPU every
 * round trip is two context switches and two wake-ups: a workload for
 * measuring what the scheduler's events cost, the same program on Spoor
 * and on Linux. Exits 0 when every byte came back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000;
	int ping[2], pong[2], status;
	char c = 'x';
	pid_t pid;

	if (pipe(ping) || pipe(pong)) {
		perror("pipepong: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("pipepong: fork");
		return 1;
	}
	if (pid == 0) {
		close(ping[1]);	/* else its read never sees the parent's end */
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1 && write(pong[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	for (long i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) {
			fprintf(stderr, "pipepong: lost the byte at round %ld\n", i);
			return 1;
		}
	close(ping[1]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
