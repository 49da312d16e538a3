/* cut -f LIST [-d C] | -c LIST [FILE]...: selected fields or characters of each line. */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define CUT_MAX	1024	/* positions beyond this are never selected */

struct cut_opts {
	bool chars;
	char delim;
	bool only_delimited;
	u8 sel[CUT_MAX / 8 + 1];
	bool open_end;		/* "N-": everything from open_from on */
	int open_from;
};

static bool selected(const struct cut_opts *c, int pos)
{
	if (c->open_end && pos >= c->open_from)
		return true;
	return pos < CUT_MAX && (c->sel[pos / 8] >> (pos % 8) & 1);
}

/* LIST: N, N-M, N-, -M, comma-separated, 1-based. */
static bool parse_list(struct cut_opts *c, const char *s)
{
	while (*s) {
		long lo = 0, hi;

		while (sh_isdigit(*s) && lo < CUT_MAX)
			lo = lo * 10 + (*s++ - '0');
		hi = lo;
		if (*s == '-') {
			s++;
			if (!lo)
				lo = 1;
			if (!sh_isdigit(*s)) {
				c->open_end = true;
				c->open_from = c->open_from && c->open_from < lo ? c->open_from : (int)lo;
				hi = lo - 1;
			} else {
				for (hi = 0; sh_isdigit(*s) && hi < CUT_MAX; )
					hi = hi * 10 + (*s++ - '0');
			}
		}
		if (lo < 1 || (*s && *s != ','))
			return false;
		for (long p = lo; p <= hi && p < CUT_MAX; p++)
			c->sel[p / 8] |= (u8)(1 << (p % 8));
		if (*s == ',')
			s++;
	}
	return true;
}

static void cut_line(struct cut_opts *c, struct sh_out *o, const char *line, size_t len)
{
	bool first = true;
	int field = 1;
	size_t start = 0;

	if (c->chars) {
		for (size_t i = 0; i < len; i++)
			if (selected(c, (int)i + 1))
				out_putc(o, line[i]);
		out_putc(o, '\n');
		return;
	}
	if (!memchr(line, c->delim, len)) {
		if (!c->only_delimited) {
			out_put(o, line, len);
			out_putc(o, '\n');
		}
		return;
	}
	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != c->delim)
			continue;
		if (selected(c, field)) {
			if (!first)
				out_putc(o, c->delim);
			out_put(o, line + start, i - start);
			first = false;
		}
		field++;
		start = i + 1;
	}
	out_putc(o, '\n');
}

int cmd_cut(int argc, char **argv, char **envp)
{
	struct cut_opts c = { .delim = '\t' };
	struct sh_getopt g = { 0 };
	const char *list = NULL;
	struct sh_out o;
	int opt, status = 0;

	while ((opt = sh_getopt(&g, argc, argv, "f:c:d:s")) != -1) {
		switch (opt) {
		case 'f': list = g.arg; break;
		case 'c': list = g.arg; c.chars = true; break;
		case 'd':
			if (strlen(g.arg) != 1) {
				sh_eprintf("cut: the delimiter must be a single character\n");
				return 2;
			}
			c.delim = g.arg[0];
			break;
		case 's': c.only_delimited = true; break;
		default: return 2;
		}
	}
	if (!list || !parse_list(&c, list)) {
		sh_eprintf("cut: %s\n", list ? "invalid field list" : "you must specify a list of fields or characters");
		return 2;
	}
	out_init(&o, 1);
	for (int i = g.ind; i < argc || i == g.ind; i++) {
		int fd = i < argc ? sh_open_input("cut", argv[i]) : 0;
		struct sh_in in;
		ssize_t len;
		char *line;

		if (fd < 0) {
			status = 1;
			continue;
		}
		in_init(&in, fd);
		while ((len = in_getline(&in, &line, NULL)) >= 0)
			cut_line(&c, &o, line, (size_t)len);
		in_free(&in);
		if (fd)
			sh_os->close(fd);
		if (i >= argc)
			break;
	}
	return out_finish(&o, "cut", status);
}
