/* tr [-d] [-s] SET1 [SET2]: translate, delete or squeeze bytes of stdin. */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* Expand a SET (ranges a-z, escapes \n \t \\, classes [:digit:] etc.) into bytes. */
static int expand_set(const char *s, unsigned char *out, int max)
{
	static const struct { const char *name; const char *ranges; } classes[] = {
		{ "[:lower:]", "az" }, { "[:upper:]", "AZ" }, { "[:digit:]", "09" },
		{ "[:alpha:]", "azAZ" }, { "[:alnum:]", "az" "AZ" "09" }, { "[:space:]", "\t\r  " },
	};
	int n = 0;

	while (*s && n < max) {
		int lo, hi;
		size_t k;

		for (k = 0; k < ARRAY_SIZE(classes); k++)
			if (!strncmp(s, classes[k].name, strlen(classes[k].name)))
				break;
		if (k < ARRAY_SIZE(classes)) {
			for (const char *r = classes[k].ranges; *r && n < max; r += 2)
				for (int c = (unsigned char)r[0]; c <= (unsigned char)r[1] && n < max; c++)
					out[n++] = (unsigned char)c;
			s += strlen(classes[k].name);
			continue;
		}
		lo = (unsigned char)*s++;
		if (lo == '\\' && *s) {
			char e = *s++;

			lo = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : (unsigned char)e;
		}
		hi = lo;
		if (s[0] == '-' && s[1]) {
			hi = (unsigned char)s[1];
			s += 2;
		}
		for (int c = lo; c <= hi && n < max; c++)
			out[n++] = (unsigned char)c;
	}
	return n;
}

int cmd_tr(int argc, char **argv, char **envp)
{
	unsigned char set1[256], set2[256], map[256];
	bool del[256] = { false }, squeeze[256] = { false };
	bool opt_d = false, opt_s = false;
	struct sh_getopt g = { 0 };
	int c, n1, n2 = 0, last = -1;
	struct sh_out o;
	char buf[512];
	ssize_t n;

	while ((c = sh_getopt(&g, argc, argv, "ds")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'd')
			opt_d = true;
		else
			opt_s = true;
	}
	if (g.ind >= argc || (!opt_d && !opt_s && g.ind + 2 != argc)) {
		sh_eprintf("tr: usage: tr [-ds] SET1 [SET2]\n");
		return 2;
	}
	n1 = expand_set(argv[g.ind], set1, 256);
	if (g.ind + 1 < argc)
		n2 = expand_set(argv[g.ind + 1], set2, 256);
	for (int i = 0; i < 256; i++)
		map[i] = (unsigned char)i;
	for (int i = 0; i < n1; i++) {
		if (opt_d)
			del[set1[i]] = true;
		else if (n2)
			map[set1[i]] = set2[i < n2 ? i : n2 - 1];
	}
	if (opt_s) {
		/* Squeeze applies to SET2 when translating, else to SET1. */
		const unsigned char *sq = n2 ? set2 : set1;

		for (int i = 0; i < (n2 ? n2 : n1); i++)
			squeeze[sq[i]] = true;
	}
	out_init(&o, 1);
	while ((n = sh_os->read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)buf[i];

			if (del[ch])
				continue;
			ch = map[ch];
			if (squeeze[ch] && last == ch)
				continue;
			last = ch;
			out_putc(&o, (char)ch);
		}
	}
	return out_finish(&o, "tr", 0);
}
