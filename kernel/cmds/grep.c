/*
 * grep [-qcvEwoinlhF] [-e PATTERN] PATTERN [FILE]...: lines matching a
 * regular expression (basic by default, extended with -E).
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <kernel/shell/regex.h>

struct grep_opts {
	bool quiet, count, invert, word, only, number, names, no_names, list, fixed;
	struct regex *re;
	struct sh_out o;
	const char *pattern;
};

static bool is_word_byte(int c)
{
	return sh_isalnum(c) || c == '_';
}

/* The next match in line at or after from; -w insists on word edges around it. */
static bool next_match(struct grep_opts *g, const char *line, size_t len, size_t from, struct re_match *m)
{
	while (from <= len && regex_search(g->re, line, len, from, m)) {
		long s = m->start[0], e = m->end[0];

		if (!g->word || ((s == 0 || !is_word_byte((unsigned char)line[s - 1])) &&
				 (e == (long)len || !is_word_byte((unsigned char)line[e]))))
			return true;
		from = (size_t)s + 1;
	}
	return false;
}

/* Returns the number of selected lines of one input. */
static long grep_fd(struct grep_opts *g, int fd, const char *name)
{
	struct sh_in in;
	long count = 0, lineno = 0;
	char *line;
	ssize_t len;
	bool nl;

	in_init(&in, fd);
	while ((len = in_getline(&in, &line, &nl)) >= 0) {
		struct re_match m;
		bool hit = next_match(g, line, (size_t)len, 0, &m);

		lineno++;
		if (hit == g->invert)
			continue;
		count++;
		if (g->quiet || g->list)
			break;
		if (g->count)
			continue;
		if (g->only && !g->invert) {
			size_t from = 0;

			do {
				if (m.end[0] == m.start[0]) {
					from = (size_t)m.end[0] + 1;	/* empty matches print nothing */
					continue;
				}
				if (g->names)
					out_printf(&g->o, "%s:", name);
				if (g->number)
					out_printf(&g->o, "%ld:", lineno);
				out_put(&g->o, line + m.start[0], (size_t)(m.end[0] - m.start[0]));
				out_putc(&g->o, '\n');
				from = (size_t)m.end[0];
			} while (from <= (size_t)len && next_match(g, line, (size_t)len, from, &m));
			continue;
		}
		if (g->names)
			out_printf(&g->o, "%s:", name);
		if (g->number)
			out_printf(&g->o, "%ld:", lineno);
		out_put(&g->o, line, (size_t)len);
		out_putc(&g->o, '\n');
		if (g->o.err)
			break;
	}
	if (in.err && in.err != -EPIPE)
		sh_eprintf("grep: %s: %s\n", name, errno_text(-in.err));
	in_free(&in);
	if (g->count && !g->quiet) {
		if (g->names)
			out_printf(&g->o, "%s:", name);
		out_printf(&g->o, "%ld\n", count);
	}
	if (g->list && count)
		out_printf(&g->o, "%s\n", name);
	return count;
}

/* -F: the pattern with every special byte escaped. */
static char *escape_fixed(const char *p)
{
	struct sh_buf b = { 0 };

	for (; *p; p++) {
		if (strchr("\\.[]*^$+?{}()|", *p))
			sh_buf_putc(&b, '\\');
		sh_buf_putc(&b, *p);
	}
	return sh_buf_take(&b);
}

int cmd_grep(int argc, char **argv, char **envp)
{
	struct grep_opts g = { 0 };
	struct sh_getopt go = { 0 };
	int flags = 0, c, status = 1;
	char err[80], *fixed = NULL;
	long total = 0;

	while ((c = sh_getopt(&go, argc, argv, "qcvEwoinlhFse:")) != -1) {
		switch (c) {
		case 'q': g.quiet = true; break;
		case 'c': g.count = true; break;
		case 'v': g.invert = true; break;
		case 'E': flags |= RE_EXTENDED; break;
		case 'w': g.word = true; break;
		case 'o': g.only = true; break;
		case 'i': flags |= RE_ICASE; break;
		case 'n': g.number = true; break;
		case 'l': g.list = true; break;
		case 'h': g.no_names = true; break;
		case 'F': g.fixed = true; break;
		case 's': break;
		case 'e': g.pattern = go.arg; break;
		default: return 2;
		}
	}
	if (!g.pattern) {
		if (go.ind == argc) {
			sh_eprintf("grep: usage: grep [-qcvEwoinlhF] [-e] PATTERN [FILE]...\n");
			return 2;
		}
		g.pattern = argv[go.ind++];
	}
	if (g.fixed) {
		fixed = escape_fixed(g.pattern);
		flags &= ~RE_EXTENDED;
	}
	if (regex_compile(&g.re, fixed ? fixed : g.pattern, flags, err, sizeof(err))) {
		sh_eprintf("grep: %s\n", err);
		kfree(fixed);
		return 2;
	}
	kfree(fixed);
	g.names = argc - go.ind > 1 && !g.no_names;
	out_init(&g.o, 1);
	if (go.ind == argc)
		total = grep_fd(&g, 0, "(standard input)");
	for (int i = go.ind; i < argc && !(g.quiet && total); i++) {
		int fd = sh_open_input("grep", argv[i]);

		if (fd < 0) {
			status = 2;
			continue;
		}
		total += grep_fd(&g, fd, argv[i]);
		sh_os->close(fd);
	}
	regex_free(g.re);
	if (total)
		status = 0;
	else if (status != 2)
		status = 1;
	return out_finish(&g.o, "grep", status);
}
