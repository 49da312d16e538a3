/*
 * napper [SECONDS]: sleeps (default 10 s) and exits 0. A live ring-3
 * process whose /proc/PID files a test can read from the shell; it
 * touches a heap page first so the brk area ([heap]) exists.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec ts = { .tv_sec = argc > 1 ? strtol(argv[1], NULL, 0) : 10 };
	char *p = malloc(64);

	if (p)
		memset(p, 1, 64);
	while (nanosleep(&ts, &ts))
		;
	free(p);
	return 0;
}
