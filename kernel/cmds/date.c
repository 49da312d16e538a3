/*
 * date [-u] [+FORMAT]: the guest's wall clock, which starts at the Unix
 * epoch at boot (no real-time clock: sh_time.h), as GNU date prints it
 * ("Thu Jan  1 00:00:12 UTC 1970") or in FORMAT (strftime conversions,
 * %N and %s). Always UTC, so -u changes nothing; the clock cannot be set.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <kernel/shell/sh_time.h>

int cmd_date(int argc, char **argv, char **envp)
{
	const char *fmt = "%a %b %e %H:%M:%S %Z %Y";
	struct sh_getopt g = { 0 };
	struct sh_buf b = { 0 };
	struct sh_out o;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "u")) != -1)
		if (c == '?')
			return 1;
	if (g.ind < argc && argv[g.ind][0] == '+')
		fmt = argv[g.ind++] + 1;
	if (g.ind < argc) {
		sh_eprintf("date: extra operand '%s'\n", argv[g.ind]);
		return 1;
	}
	sh_strftime(&b, fmt, sh_os->now_ns());
	sh_buf_putc(&b, '\n');
	if (b.oom) {
		sh_buf_free(&b);
		sh_eprintf("date: %s\n", errno_text(ENOMEM));
		return 1;
	}
	out_init(&o, 1);
	out_put(&o, b.s, b.len);
	sh_buf_free(&b);
	return out_finish(&o, "date", 0);
}
