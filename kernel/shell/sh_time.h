/*
 * Calendar time for date and stat. The guest has no real-time clock, so
 * its wall clock is the Unix epoch at boot plus the monotonic clock
 * (sh_os->now_ns, and the boot-relative times stat() reports): right
 * after boot `date` says Thu Jan  1 00:00:00 UTC 1970, and times in
 * files read as times since boot. Always UTC, the C locale.
 */
#ifndef KERNEL_SHELL_SH_TIME_H
#define KERNEL_SHELL_SH_TIME_H

#include <kernel/types.h>
#include <kernel/shell/sh_buf.h>

/* Broken-down time, as C's struct tm counts (but year is the year itself). */
struct sh_tm {
	int year;		/* 1970, ... */
	int mon;		/* 0..11 */
	int mday;		/* 1..31 */
	int hour, min, sec;
	int wday;		/* 0 = Sunday */
	int yday;		/* 0..365 */
};

void sh_gmtime(u64 secs, struct sh_tm *tm);

/*
 * strftime(3) of the time ns (since the epoch) into b: C's conversions
 * plus GNU date's %N (nanoseconds) and %s (seconds since the epoch); an
 * unknown conversion is copied as written, as GNU date does.
 */
void sh_strftime(struct sh_buf *b, const char *fmt, u64 ns);

#endif
