/*
 * forkwait [N]: N children (default 8), child i exits with code 10 + i;
 * then one more child that waits in pause() until the parent kills it with
 * SIGKILL. The parent reaps them in whatever order they end (waitpid(-1))
 * and checks each status against the pid it belongs to.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXKIDS 64

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pid_t kids[MAXKIDS], victim;
	int bad = 0, reaped = 0;

	if (n < 1 || n > MAXKIDS) {
		fprintf(stderr, "forkwait: N must be 1..%d\n", MAXKIDS);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (kids[i] == 0)
			_exit(10 + i);
	}
	victim = fork();
	if (victim < 0) {
		perror("fork");
		return 1;
	}
	if (victim == 0) {
		for (;;)
			pause();
	}
	if (kill(victim, SIGKILL) < 0) {
		perror("kill");
		return 1;
	}
	for (;;) {
		int status, i;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0)
			break;	/* ECHILD: all reaped */
		reaped++;
		if (pid == victim) {
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
				printf("killed child: signal %d\n", WTERMSIG(status));
			} else {
				printf("killed child: bad status 0x%x\n", status);
				bad++;
			}
			continue;
		}
		for (i = 0; i < n && kids[i] != pid; i++)
			;
		if (i == n) {
			printf("unknown child %d\n", (int)pid);
			bad++;
		} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 10 + i) {
			printf("child %d: bad status 0x%x\n", i, status);
			bad++;
		}
	}
	printf("forkwait: %d children reaped, %d bad\n", reaped, bad);
	return bad || reaped != n + 1 ? 1 : 0;
}
