/*
 * forkloop [N]: N cycles (default 1000) of fork, child _exit, parent
 * waitpid. A test compares MemFree before and after: every cycle builds
 * and tears down a whole address space, so a leak per fork adds up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1000;
	long done = 0;

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0) {
			perror("fork");
			break;
		}
		if (pid == 0)
			_exit(i & 0x7f);
		if (waitpid(pid, &status, 0) != pid) {
			perror("waitpid");
			break;
		}
		/* The exit code is per cycle, so a status from the wrong child shows. */
		if (!WIFEXITED(status) || WEXITSTATUS(status) != (i & 0x7f)) {
			printf("cycle %ld: bad status 0x%x\n", i, status);
			break;
		}
		done++;
	}
	printf("forkloop: %ld of %ld cycles\n", done, n);
	return done == n ? 0 : 1;
}
