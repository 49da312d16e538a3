/*
 * exitcode HOW: end in a chosen way, for tests of wait statuses and of
 * the shell's $?. HOW is a number (exit with it), or the fault to take:
 * segv (write to NULL), abort (SIGABRT), ill (ud2), fpe (divide by zero).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "0";

	if (!strcmp(how, "segv")) {
		*(volatile int *)0 = 1;
	} else if (!strcmp(how, "abort")) {
		abort();
	} else if (!strcmp(how, "ill")) {
		__asm__ volatile("ud2");
	} else if (!strcmp(how, "fpe")) {
		/* volatile: the compiler must not fold or drop the division. */
		volatile int zero = 0, x = 1;

		x = x / zero;
	} else {
		char *end;
		long n = strtol(how, &end, 0);

		if (*end || end == how) {
			fprintf(stderr, "usage: exitcode N|segv|abort|ill|fpe\n");
			return 2;
		}
		exit((int)n);
	}
	printf("exitcode: %s did not end the program\n", how);
	return 1;
}
