/*
 * For unit tests that boot the guest end to end: find the build directory
 * this test binary sits in (its spoor, spoor.elf and initrd); run host
 * commands with run_cmd.h. Header-only.
 */
#ifndef TESTS_UNIT_GUEST_RUN_H
#define TESTS_UNIT_GUEST_RUN_H

#include <criterion/criterion.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/run_cmd.h"

static char build[PATH_MAX];	/* the build directory: this binary's ../ */

static inline bool have(const char *cmd)
{
	char sh[256];

	snprintf(sh, sizeof(sh), "command -v %s >/dev/null 2>&1", cmd);
	return !system(sh);
}

/* Sets build; false unless spoor, spoor.elf, QEMU and the host tool are there. */
static inline bool find_build(const char *tool)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;

	if (n <= 0)
		return false;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;			/* .../tests */
	*strrchr(exe, '/') = 0;			/* the build directory */
	snprintf(build, sizeof(build), "%s", exe);
	snprintf(path, sizeof(path), "%s/spoor.elf", build);
	if (stat(path, &st))
		return false;
	snprintf(path, sizeof(path), "%s/spoor", build);
	return !stat(path, &st) && have("qemu-system-x86_64") && have(tool);
}


static inline size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#endif
