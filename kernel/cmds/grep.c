/*
 * grep [-qcvEwoinlhF] [-m N] [-A N] [-B N] [-C N] [-e PATTERN]... [PATTERN] [FILE]...:
 * lines matching any of the regular expressions (basic by default,
 * extended with -E, fixed strings with -F); each -e, and each line of a
 * pattern, is one expression. -A/-B/-C print N lines of context after,
 * before or around each selected line, "--" between groups that are not
 * adjacent (not with -o, which prints matches only). -m N stops reading an
 * input after N selected lines (and their -A context), as GNU grep.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <kernel/shell/regex.h>

/* A line kept for -B: its number and its bytes. */
struct grep_line {
	long lineno;
	char *text;
	size_t len;
};

struct grep_opts {
	bool quiet, count, invert, word, only, number, names, no_names, with_names, list, fixed;
	int nre;
	struct regex **re;	/* one per expression */
	struct sh_out o;
	/* Context: -1 when no -A/-B/-C was given (then no "--" either). */
	long after, before;
	long max;		/* -m: selected lines per input; -1 no limit */
	struct grep_line *ring;	/* the last `before` lines, by lineno % before */
	bool printed;		/* some line went out: the next group needs "--" */
};

static bool is_word_byte(int c)
{
	return sh_isalnum(c) || c == '_';
}

/* The next match of re in line at or after from; -w insists on word edges around it. */
static bool next_match_one(struct grep_opts *g, struct regex *re, const char *line, size_t len,
			   size_t from, struct re_match *m)
{
	while (from <= len && regex_search(re, line, len, from, m)) {
		long s = m->start[0], e = m->end[0];

		if (!g->word || ((s == 0 || !is_word_byte((unsigned char)line[s - 1])) &&
				 (e == (long)len || !is_word_byte((unsigned char)line[e]))))
			return true;
		from = (size_t)s + 1;
	}
	return false;
}

/* The leftmost match of any expression (the longest of those starting there). */
static bool next_match(struct grep_opts *g, const char *line, size_t len, size_t from, struct re_match *m)
{
	bool found = false;

	for (int i = 0; i < g->nre; i++) {
		struct re_match cand;

		if (!next_match_one(g, g->re[i], line, len, from, &cand))
			continue;
		if (!found || cand.start[0] < m->start[0] ||
		    (cand.start[0] == m->start[0] && cand.end[0] > m->end[0]))
			*m = cand;
		found = true;
	}
	return found;
}

/* One output line: sep is ':' for a selected line, '-' for context. */
static void print_line(struct grep_opts *g, const char *name, long lineno, char sep,
		       const char *line, size_t len)
{
	if (g->names)
		out_printf(&g->o, "%s%c", name, sep);
	if (g->number)
		out_printf(&g->o, "%ld%c", lineno, sep);
	out_put(&g->o, line, len);
	out_putc(&g->o, '\n');
	g->printed = true;
}

/* Keeps line for -B; false when out of memory. */
static bool remember(struct grep_opts *g, long lineno, const char *line, size_t len)
{
	struct grep_line *r = &g->ring[lineno % g->before];
	char *text = krealloc(r->text, len + 1, GFP_KERNEL);

	if (!text)
		return false;
	memcpy(text, line, len);
	r->text = text;
	r->len = len;
	r->lineno = lineno;
	return true;
}

/*
 * Before selected line lineno: "--" if this group does not continue the
 * last one, then the -B lines not printed yet (last: the last printed).
 */
static void print_before(struct grep_opts *g, const char *name, long lineno, long last)
{
	long first = lineno - g->before;

	if (first <= last)
		first = last + 1;
	if (first < 1)
		first = 1;
	if (g->printed && first != last + 1)
		out_puts(&g->o, "--\n");
	for (long n = first; n < lineno; n++) {
		struct grep_line *r = &g->ring[n % g->before];

		print_line(g, name, n, '-', r->text, r->len);
	}
}

/* Returns the number of selected lines of one input. */
static long grep_fd(struct grep_opts *g, int fd, const char *name)
{
	struct sh_in in;
	long count = 0, lineno = 0, last = -1, after_left = 0;
	bool context = g->after >= 0 && !g->only && !g->quiet && !g->list && !g->count;
	char *line;
	ssize_t len;
	bool nl;

	in_init(&in, fd);
	while ((g->max < 0 || count < g->max || after_left > 0) &&
	       (len = in_getline(&in, &line, &nl)) >= 0) {
		struct re_match m;
		bool hit = next_match(g, line, (size_t)len, 0, &m);

		lineno++;
		if (hit == g->invert || (g->max >= 0 && count >= g->max)) {
			if (context && after_left > 0) {
				print_line(g, name, lineno, '-', line, (size_t)len);
				last = lineno;
				after_left--;
			} else if (context && g->before > 0 && !remember(g, lineno, line, (size_t)len)) {
				in.err = -ENOMEM;
				break;
			}
			continue;
		}
		count++;
		if (g->quiet || g->list)
			break;
		if (g->count)
			continue;
		if (context) {
			print_before(g, name, lineno, last);
			last = lineno;
			after_left = g->after;
		}
		if (g->only && !g->invert) {
			size_t from = 0;

			do {
				if (m.end[0] == m.start[0]) {
					from = (size_t)m.end[0] + 1;	/* empty matches print nothing */
					continue;
				}
				print_line(g, name, lineno, ':', line + m.start[0],
					   (size_t)(m.end[0] - m.start[0]));
				from = (size_t)m.end[0];
			} while (from <= (size_t)len && next_match(g, line, (size_t)len, from, &m));
			continue;
		}
		print_line(g, name, lineno, ':', line, (size_t)len);
		if (g->o.err)
			break;
	}
	if (in.err && in.err != -EPIPE && in.err != -EINTR)
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

/*
 * -F: the pattern as a basic expression that matches it literally. Only
 * these bytes are special in one; escaping others (GNU's \( \+ \| ...)
 * would make them special instead.
 */
static char *escape_fixed(const char *p)
{
	struct sh_buf b = { 0 };

	for (; *p; p++) {
		if (strchr("\\.[]*^$", *p))
			sh_buf_putc(&b, '\\');
		sh_buf_putc(&b, *p);
	}
	return sh_buf_take(&b);
}

/* Compile each line of pattern as one more expression; false after printing why not. */
static bool add_patterns(struct grep_opts *g, const char *pattern, int flags)
{
	for (;;) {
		size_t n = strcspn(pattern, "\n");
		char *one = kstrndup(pattern, n, GFP_KERNEL), *fixed = NULL, err[80];
		struct regex **re = krealloc(g->re, sizeof(*re) * (size_t)(g->nre + 1), GFP_KERNEL);

		if (re)
			g->re = re;
		if (one && g->fixed)
			fixed = escape_fixed(one);
		if (!one || !re || (g->fixed && !fixed)) {
			sh_eprintf("grep: %s\n", errno_text(ENOMEM));
			kfree(one);
			return false;
		}
		if (regex_compile(&g->re[g->nre], fixed ? fixed : one, flags, err, sizeof(err))) {
			sh_eprintf("grep: %s\n", err);
			kfree(one);
			kfree(fixed);
			return false;
		}
		g->nre++;
		kfree(one);
		kfree(fixed);
		if (!pattern[n])
			return true;
		pattern += n + 1;
	}
}

static void free_patterns(struct grep_opts *g)
{
	for (int i = 0; i < g->nre; i++)
		regex_free(g->re[i]);
	kfree(g->re);
	for (long i = 0; g->ring && i < g->before; i++)
		kfree(g->ring[i].text);
	kfree(g->ring);
}

/* A -A/-B/-C operand; false after printing why not. */
static bool context_arg(const char *s, long *n)
{
	long long v;

	if (sh_parse_int(s, &v) || v < 0 || v > 1000000) {
		sh_eprintf("grep: %s: invalid context length argument\n", s);
		return false;
	}
	*n = (long)v;
	return true;
}

int cmd_grep(int argc, char **argv, char **envp)
{
	struct grep_opts g = { .after = -1, .before = -1, .max = -1 };
	struct sh_getopt go = { .permute = true };
	struct sh_argv patterns = { 0 };
	int flags = 0, c, status = 1;
	long total = 0;

	while ((c = sh_getopt(&go, argc, argv, "qcvEwoinlhHFse:m:A:B:C:")) != -1) {
		switch (c) {
		case 'A':
		case 'B':
		case 'C':
			if (c != 'B' && !context_arg(go.arg, &g.after))
				goto usage;
			if (c != 'A' && !context_arg(go.arg, &g.before))
				goto usage;
			break;
		case 'm': {
			long long v;

			if (sh_parse_int(go.arg, &v) || v < 0) {
				sh_eprintf("grep: invalid max count\n");
				goto usage;
			}
			g.max = v > 0x7fffffff ? 0x7fffffff : (long)v;
			break;
		}
		case 'q': g.quiet = true; break;
		case 'c': g.count = true; break;
		case 'v': g.invert = true; break;
		case 'E': flags |= RE_EXTENDED; break;
		case 'w': g.word = true; break;
		case 'o': g.only = true; break;
		case 'i': flags |= RE_ICASE; break;
		case 'n': g.number = true; break;
		case 'l': g.list = true; break;
		case 'h': g.no_names = true; g.with_names = false; break;
		case 'H': g.with_names = true; g.no_names = false; break;
		case 'F': g.fixed = true; break;
		case 's': break;
		case 'e': sh_argv_push(&patterns, kstrdup(go.arg, GFP_KERNEL)); break;
		default: goto usage;
		}
	}
	/* One of -A/-B given: the other is 0, so groups still get their "--". */
	if (g.after < 0 && g.before >= 0)
		g.after = 0;
	if (g.before < 0 && g.after >= 0)
		g.before = 0;
	if (g.before > 0 && !(g.ring = kcalloc((size_t)g.before, sizeof(*g.ring), GFP_KERNEL))) {
		sh_eprintf("grep: %s\n", errno_text(ENOMEM));
		sh_argv_free(&patterns);
		return 2;
	}
	if (!patterns.argc) {
		if (go.ind == argc) {
			sh_eprintf("grep: usage: grep [-qcvEwoinlhF] [-m N] [-A N] [-B N] [-C N] "
				   "[-e PATTERN]... [PATTERN] [FILE]...\n");
			free_patterns(&g);
			return 2;
		}
		sh_argv_push(&patterns, kstrdup(argv[go.ind++], GFP_KERNEL));
	}
	if (g.fixed)
		flags &= ~RE_EXTENDED;
	for (int i = 0; i < patterns.argc; i++) {
		if (patterns.oom || !add_patterns(&g, patterns.argv[i], flags)) {
			sh_argv_free(&patterns);
			free_patterns(&g);
			return 2;
		}
	}
	sh_argv_free(&patterns);
	g.names = g.with_names || (argc - go.ind > 1 && !g.no_names);
	out_init(&g.o, 1);
	if (go.ind == argc)
		total = grep_fd(&g, 0, "(standard input)");
	for (int i = go.ind; i < argc && !(g.quiet && total); i++) {
		int fd = sh_open_input("grep", argv[i]);

		if (fd < 0) {
			status = 2;
			continue;
		}
		total += grep_fd(&g, fd, strcmp(argv[i], "-") ? argv[i] : "(standard input)");
		sh_os->close(fd);
	}
	free_patterns(&g);
	if (total)
		status = 0;
	else if (status != 2)
		status = 1;
	return out_finish(&g.o, "grep", status);
usage:
	sh_argv_free(&patterns);
	return 2;
}
