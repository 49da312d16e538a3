/* uname [-asnrvmo]: what system this is (kernel/utsname.h says why these names). */
#include <kernel/utsname.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

int cmd_uname(int argc, char **argv, char **envp)
{
	static const struct { char opt; const char *text; } fields[] = {
		{ 's', UTS_SYSNAME }, { 'n', UTS_NODENAME }, { 'r', UTS_RELEASE },
		{ 'v', UTS_VERSION }, { 'm', UTS_MACHINE }, { 'o', UTS_SYSNAME },
	};
	struct sh_getopt g = { 0 };
	unsigned int want = 0;
	bool first = true;
	struct sh_out o;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "asnrvmpio")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'a')
			want = ~0u;
		else if (c == 'p' || c == 'i')
			want |= 1u << 4;	/* processor, hardware platform: the machine */
		for (unsigned int i = 0; i < ARRAY_SIZE(fields); i++)
			if (fields[i].opt == c)
				want |= 1u << i;
	}
	if (g.ind < argc) {
		sh_eprintf("uname: extra operand '%s'\n", argv[g.ind]);
		return 2;
	}
	if (!want)
		want = 1;
	out_init(&o, 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!(want & (1u << i)))
			continue;
		out_printf(&o, "%s%s", first ? "" : " ", fields[i].text);
		first = false;
	}
	out_putc(&o, '\n');
	return out_finish(&o, "uname", 0);
}
