/*
 * napper [SECONDS [THREADS]]: sleeps (default 10 s) in THREADS threads
 * (default 1), then exits 0. A live ring-3 process whose /proc/PID files
 * a test can read from the shell; it touches a heap page first so the
 * brk area ([heap]) exists.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long seconds = 10;

static void *nap(void *arg)
{
	struct timespec ts = { .tv_sec = seconds };

	while (nanosleep(&ts, &ts))
		;
	return arg;
}

int main(int argc, char **argv)
{
	long threads = argc > 2 ? strtol(argv[2], NULL, 0) : 1;
	pthread_t t[64];
	long started = 0;
	char *p = malloc(64);

	if (argc > 1)
		seconds = strtol(argv[1], NULL, 0);
	if (p)
		memset(p, 1, 64);
	while (started < threads - 1 && started < 64 && !pthread_create(&t[started], NULL, nap, NULL))
		started++;
	nap(NULL);
	while (started > 0)
		pthread_join(t[--started], NULL);
	free(p);
	return 0;
}
