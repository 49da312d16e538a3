/*
 * libFuzzer target for spoor report's reader: the whole path from the
 * container (v6/v7, compression) through format and print-fmt parsing to
 * page walking and rendering, on arbitrary bytes. Build and run with
 * tests/fuzz/run.sh (clang's -fsanitize=fuzzer,address,undefined).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "host-tools/report.h"
#include "host-tools/spoor.h"

void spoor_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	va_end(ap);
}

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	/* Diagnostics are the point of bad input, not of fuzzing. */
	tdat_set_quiet(!getenv("REPORT_FUZZ_VERBOSE"));
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* Raw and rendered views walk different code; alternate on a byte of the input. */
	struct report_opts opt = { .raw = size && (data[size - 1] & 1),
				   .trace_layout = size && (data[size - 1] & 2) };

	report_run("fuzz", data, size, &opt, devnull);
	return 0;
}
