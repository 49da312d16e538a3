/*
 * tr [-cds] SET1 [SET2]: translate, delete or squeeze bytes of stdin.
 *   tr SET1 SET2       each byte of SET1 becomes the byte at its place in
 *                      SET2 (SET2's last byte repeats to SET1's length)
 *   tr -d SET1         delete SET1's bytes
 *   tr -s SET1         squeeze each run of one of SET1's bytes to one
 *   tr -s SET1 SET2    translate, then squeeze runs of SET2's bytes
 *   tr -ds SET1 SET2   delete SET1's bytes, squeeze runs of SET2's
 * -c (or -C) replaces SET1 by its complement: every other byte, in
 * ascending order, so `tr -dc 0-9` keeps digits only and
 * `tr -cs a-z '\n'` puts each word on a line of its own.
 */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* The bytes of a SET, in the order written; repeats allowed. */
struct tr_set {
	unsigned char c[256];
	int n;
};

static bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static bool is_alpha(int c) { return sh_isalpha(c); }
static bool is_digit(int c) { return sh_isdigit(c); }
static bool is_alnum(int c) { return sh_isalnum(c); }
static bool is_space(int c) { return sh_isspace(c); }
static bool is_blank(int c) { return c == ' ' || c == '\t'; }
static bool is_cntrl(int c) { return c < 32 || c == 127; }
static bool is_print(int c) { return c >= 32 && c < 127; }
static bool is_graph(int c) { return c > 32 && c < 127; }
static bool is_punct(int c) { return is_graph(c) && !sh_isalnum(c); }
static bool is_xdigit(int c) { return sh_isdigit(c) || ((c | 32) >= 'a' && (c | 32) <= 'f'); }

static const struct {
	const char *name;
	bool (*member)(int c);
} classes[] = {
	{ "[:lower:]", is_lower }, { "[:upper:]", is_upper }, { "[:alpha:]", is_alpha },
	{ "[:digit:]", is_digit }, { "[:alnum:]", is_alnum }, { "[:space:]", is_space },
	{ "[:blank:]", is_blank }, { "[:cntrl:]", is_cntrl }, { "[:print:]", is_print },
	{ "[:graph:]", is_graph }, { "[:punct:]", is_punct }, { "[:xdigit:]", is_xdigit },
};

static void set_add(struct tr_set *set, int c)
{
	if (set->n < (int)sizeof(set->c))
		set->c[set->n++] = (unsigned char)c;
}

/* One byte of a SET at *s, escapes decoded (\n \t \\ \NNN ...); advances *s. */
static int set_byte(const char **s)
{
	const char *p = *s;
	int c = (unsigned char)*p++;

	if (c == '\\' && *p) {
		static const char from[] = "abfnrtv", to[] = "\a\b\f\n\r\t\v";
		const char *e = strchr(from, *p);

		if (*p >= '0' && *p <= '7') {
			c = 0;
			for (int i = 0; i < 3 && *p >= '0' && *p <= '7'; i++)
				c = c * 8 + *p++ - '0';
			c &= 0xff;
		} else {
			c = e ? to[e - from] : (unsigned char)*p;
			p++;
		}
	}
	*s = p;
	return c;
}

/* Expand a SET: bytes, ranges a-z, escapes and classes like [:digit:]. */
static void expand_set(const char *s, struct tr_set *set)
{
	set->n = 0;
	while (*s) {
		size_t k;
		int lo, hi;

		for (k = 0; k < ARRAY_SIZE(classes); k++)
			if (!strncmp(s, classes[k].name, strlen(classes[k].name)))
				break;
		if (k < ARRAY_SIZE(classes)) {
			for (int c = 0; c < 256; c++)
				if (classes[k].member(c))
					set_add(set, c);
			s += strlen(classes[k].name);
			continue;
		}
		lo = hi = set_byte(&s);
		if (s[0] == '-' && s[1]) {
			s++;
			hi = set_byte(&s);
		}
		for (int c = lo; c <= hi; c++)
			set_add(set, c);
	}
}

/* The bytes not in set, ascending. */
static void complement(struct tr_set *set)
{
	bool in[256] = { false };

	for (int i = 0; i < set->n; i++)
		in[set->c[i]] = true;
	set->n = 0;
	for (int c = 0; c < 256; c++)
		if (!in[c])
			set_add(set, c);
}

int cmd_tr(int argc, char **argv, char **envp)
{
	struct tr_set set1, set2 = { .n = 0 };
	unsigned char map[256];
	bool del[256] = { false }, squeeze[256] = { false };
	bool opt_c = false, opt_d = false, opt_s = false, translate;
	struct sh_getopt g = { 0 };
	int c, nops, want, last = -1;
	struct sh_out o;
	char buf[512];
	ssize_t n;

	while ((c = sh_getopt(&g, argc, argv, "cCds")) != -1) {
		if (c == '?')
			return 1;
		opt_c |= c == 'c' || c == 'C';
		opt_d |= c == 'd';
		opt_s |= c == 's';
	}
	nops = argc - g.ind;
	/* -d alone takes SET1 only, -s one or two, -ds and translation two. */
	want = opt_d ? 1 + opt_s : opt_s ? (nops >= 2 ? 2 : 1) : 2;
	if (nops != want) {
		sh_eprintf("tr: %s\ntr: usage: tr [-cds] SET1 [SET2]\n",
			   nops < want ? "missing operand" : "extra operand");
		return 1;
	}
	expand_set(argv[g.ind], &set1);
	if (opt_c)
		complement(&set1);
	if (nops == 2)
		expand_set(argv[g.ind + 1], &set2);
	translate = !opt_d && nops == 2;
	if (translate && !set2.n) {
		sh_eprintf("tr: when not truncating set1, string2 must be non-empty\n");
		return 1;
	}
	for (int i = 0; i < 256; i++)
		map[i] = (unsigned char)i;
	for (int i = 0; i < set1.n; i++) {
		if (opt_d)
			del[set1.c[i]] = true;
		else if (translate)
			map[set1.c[i]] = set2.c[i < set2.n ? i : set2.n - 1];
	}
	if (opt_s) {
		/* Runs of the last SET's bytes, as they come out. */
		const struct tr_set *sq = nops == 2 ? &set2 : &set1;

		for (int i = 0; i < sq->n; i++)
			squeeze[sq->c[i]] = true;
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
