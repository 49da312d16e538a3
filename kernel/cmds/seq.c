/* seq [FIRST [INCR]] LAST: integers, one per line. */
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

int cmd_seq(int argc, char **argv, char **envp)
{
	long long v[3] = { 1, 1, 0 }, first, incr, last;
	struct sh_out o;

	if (argc < 2 || argc > 4) {
		sh_eprintf("seq: usage: seq [FIRST [INCR]] LAST\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		int slot = argc == 2 ? 2 : argc == 3 ? (i == 1 ? 0 : 2) : i - 1;

		if (sh_parse_int(argv[i], &v[slot])) {
			sh_eprintf("seq: invalid number: '%s'\n", argv[i]);
			return 2;
		}
	}
	first = v[0];
	incr = v[1];
	last = v[2];
	if (incr == 0) {
		sh_eprintf("seq: increment must not be 0\n");
		return 2;
	}
	out_init(&o, 1);
	for (long long x = first; incr > 0 ? x <= last : x >= last; x += incr) {
		out_printf(&o, "%lld\n", x);
		if (o.err || ((x & 1023) == 0 && sh_os->interrupted()))
			break;
		if ((incr > 0 && x > last - incr) || (incr < 0 && x < last - incr))
			break;	/* the next step would pass last (or overflow) */
	}
	return out_finish(&o, "seq", 0);
}
