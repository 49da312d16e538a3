/* sort [-nru] [-k N] [-t C] [FILE]...: lines in byte or numeric order. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

struct sort_opts {
	bool numeric, reverse, unique;
	int key;		/* 1-based field, 0: the whole line */
	char sep;		/* 0: runs of blanks */
};

/* The start of field `key` of the line. */
static const char *sort_key(const struct sort_opts *o, const char *s)
{
	for (int f = 1; f < o->key && *s; f++) {
		if (o->sep) {
			const char *p = strchr(s, o->sep);

			s = p ? p + 1 : s + strlen(s);
		} else {
			while (*s == ' ' || *s == '\t')
				s++;
			while (*s && *s != ' ' && *s != '\t')
				s++;
		}
	}
	return s;
}

static long long leading_number(const char *s)
{
	long long v = 0;
	bool neg = false;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-')
		neg = *s++ == '-';
	while (sh_isdigit(*s))
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

/* Compare by the key only: equal keys are what -u folds. */
static int key_cmp(const void *a, const void *b, void *ctx)
{
	const struct sort_opts *o = ctx;
	const char *ka = sort_key(o, a), *kb = sort_key(o, b);
	int r;

	if (o->numeric) {
		long long x = leading_number(ka), y = leading_number(kb);

		r = x < y ? -1 : x > y;
	} else {
		r = strcmp(ka, kb);
	}
	return o->reverse ? -r : r;
}

/* Ties broken by the whole line, as sort does without -s. */
static int line_cmp(const void *a, const void *b, void *ctx)
{
	const struct sort_opts *o = ctx;
	int r = key_cmp(a, b, ctx);

	if (r || o->unique)
		return r;
	r = strcmp(a, b);
	return o->reverse ? -r : r;
}

static void read_lines(int fd, struct sh_argv *lines)
{
	struct sh_in in;
	char *line;

	in_init(&in, fd);
	while (in_getline(&in, &line, NULL) >= 0)
		sh_argv_push(lines, kstrdup(line, GFP_KERNEL));
	in_free(&in);
}

int cmd_sort(int argc, char **argv, char **envp)
{
	struct sort_opts opt = { 0 };
	struct sh_argv lines = { 0 };
	struct sh_getopt g = { 0 };
	struct sh_out o;
	int c, status = 0;
	long long k;

	while ((c = sh_getopt(&g, argc, argv, "nruk:t:")) != -1) {
		switch (c) {
		case 'n': opt.numeric = true; break;
		case 'r': opt.reverse = true; break;
		case 'u': opt.unique = true; break;
		case 't': opt.sep = g.arg[0]; break;
		case 'k':
			/* "-k 2" or "-k 2,2" or "-k2n" */
			if (!sh_isdigit(g.arg[0]) || (k = leading_number(g.arg)) < 1) {
				sh_eprintf("sort: invalid key '%s'\n", g.arg);
				return 2;
			}
			opt.key = (int)k;
			if (strchr(g.arg, 'n'))
				opt.numeric = true;
			break;
		default:
			return 2;
		}
	}
	if (g.ind == argc)
		read_lines(0, &lines);
	for (int i = g.ind; i < argc; i++) {
		int fd = sh_open_input("sort", argv[i]);

		if (fd < 0) {
			status = 2;
			continue;
		}
		read_lines(fd, &lines);
		sh_os->close(fd);
	}
	if (lines.oom || sh_sort((void **)lines.argv, (size_t)lines.argc, line_cmp, &opt)) {
		sh_eprintf("sort: %s\n", errno_text(ENOMEM));
		sh_argv_free(&lines);
		return 2;
	}
	out_init(&o, 1);
	for (int i = 0; i < lines.argc; i++) {
		if (opt.unique && i && !key_cmp(lines.argv[i - 1], lines.argv[i], &opt))
			continue;
		out_printf(&o, "%s\n", lines.argv[i]);
	}
	sh_argv_free(&lines);
	return out_finish(&o, "sort", status);
}
