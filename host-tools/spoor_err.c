/*
 * spoor_err: how every part of the host tool reports a problem. Its own
 * file so that unit tests linking those parts report the same way.
 */
#include <stdarg.h>
#include <stdio.h>
#include "host-tools/spoor.h"

void spoor_err(const char *fmt, ...)
{
	va_list ap;

	fputs("spoor: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
