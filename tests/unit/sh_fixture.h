/*
 * What the shell's unit tests share: `sh -c SCRIPT` run on the host sh_os
 * (tests/host/sh_os_host.c) with stdin from a string, its stdout, stderr
 * and exit status kept in out, err and status, and expect() checking all
 * three. Suites set it up with .init = sh_setup, .fini = sh_teardown.
 */
#ifndef TESTS_UNIT_SH_FIXTURE_H
#define TESTS_UNIT_SH_FIXTURE_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <kernel/shell/sh.h>
#include <kernel/cmds/cmds.h>
#include "tests/host/sh_os_host.h"

static int status;
static char *out, *err;

static void sh_setup(void)
{
	host_os_init();
}

static void sh_teardown(void)
{
	host_os_exit();
}

static int run_sh_c(void *arg)
{
	char *argv[] = { "sh", "-c", arg, NULL };

	return cmd_sh(3, argv, NULL);
}

/* Run script with stdin reading in (NULL: empty). */
static void run(const char *script, const char *in)
{
	free(out);
	free(err);
	status = host_run(run_sh_c, (void *)script, in, &out, &err);
}

#define expect(script, in, want_out, want_err, want_status) do {			\
	run(script, in);								\
	cr_expect_str_eq(out, want_out, "stdout of: %s\n got: [%s]", script, out);	\
	cr_expect_str_eq(err, want_err, "stderr of: %s\n got: [%s]", script, err);	\
	cr_expect_eq(status, want_status, "status of: %s: %d", script, status);	\
} while (0)

#endif
