/*
 * A glibc static program: glibc's start-up asks more of the kernel than
 * musl's (rseq, prlimit64, readlink of /proc/self/exe, getrandom), and
 * its library uses sendfile and threads. Prints one line per check and
 * exits with the number of failures.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

static void check(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAIL");
	failures += !ok;
}

static void *twice(void *arg)
{
	return (void *)((long)arg * 2);
}

int main(int argc, char **argv)
{
	char exe[256], buf[64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct rlimit rl;
	pthread_t t;
	void *ret = NULL;
	int in, out, status = -1;
	pid_t pid;

	exe[n > 0 ? n : 0] = '\0';
	check("exe", n > 0 && strstr(exe, "hello_glibc") != NULL);
	check("getrandom", getrandom(buf, sizeof(buf), 0) == sizeof(buf));
	check("getrlimit", getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur > 0);
	check("thread", pthread_create(&t, NULL, twice, (void *)21) == 0 &&
	      pthread_join(t, &ret) == 0 && ret == (void *)42);
	pid = fork();
	if (pid == 0)
		_exit(7);
	check("fork", pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 7);
	in = open(argc > 1 ? argv[1] : "/proc/version", O_RDONLY);
	out = open("/tmp/hello_glibc.copy", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	n = in >= 0 && out >= 0 ? sendfile(out, in, NULL, 4096) : -1;
	check("sendfile", n > 0);
	printf("hello_glibc: %d failed\n", failures);
	return failures;
}
