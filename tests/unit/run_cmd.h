/* For unit tests: a host command's whole output. Header-only. */
#ifndef TESTS_UNIT_RUN_CMD_H
#define TESTS_UNIT_RUN_CMD_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

/* A command's whole output (free it); *status as pclose gives it. */
static inline char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *out = NULL;
	size_t cap = 0, n = 0, r;

	cr_assert_not_null(p);
	do {
		cap += 1 << 20;
		out = realloc(out, cap + 1);
		r = fread(out + n, 1, cap - n, p);
		n += r;
	} while (r);
	out[n] = 0;
	*status = pclose(p);
	return out;
}

#endif
