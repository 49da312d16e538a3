/* Calendar time from the guest's clock (sh_time.h). */
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/shell/sh_time.h>

static const char *const day_names[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};
static const char *const month_names[] = {
	"January", "February", "March", "April", "May", "June", "July", "August",
	"September", "October", "November", "December",
};

static bool is_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int month_days(int year, int mon)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return days[mon] + (mon == 1 && is_leap(year));
}

void sh_gmtime(u64 secs, struct sh_tm *tm)
{
	u64 days = secs / 86400;
	unsigned int rest = (unsigned int)(secs % 86400);

	tm->hour = (int)(rest / 3600);
	tm->min = (int)(rest / 60 % 60);
	tm->sec = (int)(rest % 60);
	tm->wday = (int)((days + 4) % 7);	/* 1970-01-01 was a Thursday */
	/* A walk by years and months: the guest's clock starts in 1970. */
	for (tm->year = 1970; days >= (u64)(365 + is_leap(tm->year)); tm->year++)
		days -= (u64)(365 + is_leap(tm->year));
	tm->yday = (int)days;
	for (tm->mon = 0; days >= (u64)month_days(tm->year, tm->mon); tm->mon++)
		days -= (u64)month_days(tm->year, tm->mon);
	tm->mday = (int)days + 1;
}

void sh_strftime(struct sh_buf *b, const char *fmt, u64 ns)
{
	u64 secs = ns / NSEC_PER_SEC;
	struct sh_tm tm;

	sh_gmtime(secs, &tm);
	for (; *fmt; fmt++) {
		if (*fmt != '%' || !fmt[1]) {
			sh_buf_putc(b, *fmt);
			continue;
		}
		switch (*++fmt) {
		case 'a': sh_buf_printf(b, "%.3s", day_names[tm.wday]); break;
		case 'A': sh_buf_puts(b, day_names[tm.wday]); break;
		case 'b':
		case 'h': sh_buf_printf(b, "%.3s", month_names[tm.mon]); break;
		case 'B': sh_buf_puts(b, month_names[tm.mon]); break;
		case 'c': sh_strftime(b, "%a %b %e %H:%M:%S %Y", ns); break;
		case 'C': sh_buf_printf(b, "%02d", tm.year / 100); break;
		case 'd': sh_buf_printf(b, "%02d", tm.mday); break;
		case 'D': sh_strftime(b, "%m/%d/%y", ns); break;
		case 'e': sh_buf_printf(b, "%2d", tm.mday); break;
		case 'F': sh_strftime(b, "%Y-%m-%d", ns); break;
		case 'H': sh_buf_printf(b, "%02d", tm.hour); break;
		case 'I': sh_buf_printf(b, "%02d", (tm.hour + 11) % 12 + 1); break;
		case 'j': sh_buf_printf(b, "%03d", tm.yday + 1); break;
		case 'k': sh_buf_printf(b, "%2d", tm.hour); break;
		case 'l': sh_buf_printf(b, "%2d", (tm.hour + 11) % 12 + 1); break;
		case 'm': sh_buf_printf(b, "%02d", tm.mon + 1); break;
		case 'M': sh_buf_printf(b, "%02d", tm.min); break;
		case 'n': sh_buf_putc(b, '\n'); break;
		case 'N': sh_buf_printf(b, "%09lu", (unsigned long)(ns % NSEC_PER_SEC)); break;
		case 'p': sh_buf_puts(b, tm.hour < 12 ? "AM" : "PM"); break;
		case 'R': sh_strftime(b, "%H:%M", ns); break;
		case 's': sh_buf_printf(b, "%lu", (unsigned long)secs); break;
		case 'S': sh_buf_printf(b, "%02d", tm.sec); break;
		case 't': sh_buf_putc(b, '\t'); break;
		case 'T': sh_strftime(b, "%H:%M:%S", ns); break;
		case 'u': sh_buf_printf(b, "%d", tm.wday ? tm.wday : 7); break;
		case 'w': sh_buf_printf(b, "%d", tm.wday); break;
		case 'y': sh_buf_printf(b, "%02d", tm.year % 100); break;
		case 'Y': sh_buf_printf(b, "%d", tm.year); break;
		case 'z': sh_buf_puts(b, "+0000"); break;
		case 'Z': sh_buf_puts(b, "UTC"); break;
		case '%': sh_buf_putc(b, '%'); break;
		default: sh_buf_printf(b, "%%%c", *fmt); break;
		}
	}
}
