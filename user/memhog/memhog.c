/*
 * memhog MIB [PAUSE_MS]: maps MIB MiB of anonymous memory and writes to
 * every page, so each write is a demand fault that takes a free page; then
 * prints "memhog: MIB MiB touched" and, with PAUSE_MS, sleeps that long
 * holding it all before exiting 0. Asked for more than the machine has, it
 * should never print: the page faults that find no memory run the OOM
 * killer, which kills the biggest process (this one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 0, ms = argc > 2 ? atol(argv[2]) : 0;
	size_t len = (size_t)mib << 20;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	char *p;

	if (mib <= 0) {
		fprintf(stderr, "usage: memhog MIB [PAUSE_MS]\n");
		return 2;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("memhog: mmap");
		return 1;
	}
	for (size_t off = 0; off < len; off += 4096)
		p[off] = 1;
	printf("memhog: %ld MiB touched\n", mib);
	fflush(stdout);
	while (ms && nanosleep(&ts, &ts))
		;
	return 0;
}
