/*
 * sed [-n] [-E] [-e SCRIPT]... [SCRIPT] [FILE]...: a stream editor with
 * the commands s (flags g, p, N, I), d, p and q, separated by ; or
 * newlines. Each takes no address, one (a line number, $ or /RE/) or a
 * range ADDR1,ADDR2, and a ! after them selects the other lines.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <kernel/shell/regex.h>

enum sed_addr_type { ADDR_NONE, ADDR_LINE, ADDR_LAST, ADDR_RE };

struct sed_addr {
	enum sed_addr_type type;
	long line;
	struct regex *re;
};

/* One command of the script. */
struct sed_cmd {
	struct sed_addr a1, a2;		/* a2: ADDR_NONE unless a range */
	bool negate;			/* ADDR! */
	bool in_range;			/* a1 matched, a2 not yet */
	char op;			/* s d p q */
	struct regex *re;		/* s */
	char *repl;
	bool global, print;
	long nth;			/* s///N: replace only the Nth match */
};

#define SED_MAX_CMDS	32

struct sed {
	struct sed_cmd cmds[SED_MAX_CMDS];
	int n;
	bool quiet;
	int flags;
	struct sh_out o;
	bool quit;
};

/* Read a delimited part (RE or replacement) up to delim; "\delim" means delim. */
static char *sed_part(const char **sp, char delim, bool is_re)
{
	struct sh_buf b = { 0 };
	const char *s = *sp;

	for (; *s && *s != delim; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			if (*s == delim) {
				sh_buf_putc(&b, delim);
				continue;
			}
			if (*s == 'n' && is_re) {
				sh_buf_putc(&b, '\n');
				continue;
			}
			sh_buf_putc(&b, '\\');
		}
		sh_buf_putc(&b, *s);
	}
	if (*s != delim) {
		sh_buf_free(&b);
		return NULL;
	}
	*sp = s + 1;
	return sh_buf_take(&b);
}

static struct regex *sed_regex(struct sed *sd, const char *pat, bool icase)
{
	struct regex *re;
	char err[80];

	if (regex_compile(&re, pat, sd->flags | (icase ? RE_ICASE : 0), err, sizeof(err))) {
		sh_eprintf("sed: -e expression: %s\n", err);
		return NULL;
	}
	return re;
}

/* An address at *sp, if any (type ADDR_NONE if not); false after printing an error. */
static bool sed_parse_addr(struct sed *sd, const char **sp, struct sed_addr *a)
{
	const char *s = *sp;
	char *pat;

	if (sh_isdigit(*s)) {
		a->type = ADDR_LINE;
		while (sh_isdigit(*s))
			a->line = a->line * 10 + (*s++ - '0');
	} else if (*s == '$') {
		a->type = ADDR_LAST;
		s++;
	} else if (*s == '/') {
		s++;
		pat = sed_part(&s, '/', true);
		if (!pat) {
			sh_eprintf("sed: -e expression: unterminated address regex\n");
			return false;
		}
		a->type = ADDR_RE;
		a->re = sed_regex(sd, pat, false);
		kfree(pat);
		if (!a->re)
			return false;
	}
	*sp = s;
	return true;
}

/* Parse one script into sd->cmds; false after printing an error. */
static bool sed_parse(struct sed *sd, const char *s)
{
	for (;;) {
		struct sed_cmd *c;

		while (*s == ';' || *s == '\n' || sh_isspace(*s))
			s++;
		if (!*s)
			return true;
		if (sd->n == SED_MAX_CMDS) {
			sh_eprintf("sed: too many commands\n");
			return false;
		}
		c = &sd->cmds[sd->n++];
		if (!sed_parse_addr(sd, &s, &c->a1))
			return false;
		if (c->a1.type != ADDR_NONE && *s == ',') {
			s++;
			if (!sed_parse_addr(sd, &s, &c->a2))
				return false;
			if (c->a2.type == ADDR_NONE) {
				sh_eprintf("sed: -e expression: unexpected ','\n");
				return false;
			}
		}
		while (sh_isspace(*s))
			s++;
		if (*s == '!') {
			c->negate = true;
			for (s++; sh_isspace(*s); s++)
				;
		}
		c->op = *s;
		if (!*s || !strchr("sdpq", *s)) {
			sh_eprintf("sed: -e expression: unknown command: '%c'\n", *s ? *s : ' ');
			return false;
		}
		s++;
		if (c->op == 's') {
			char delim = *s, *pat;
			bool icase = false;

			if (!delim || delim == '\\' || delim == '\n') {
				sh_eprintf("sed: -e expression: unterminated 's' command\n");
				return false;
			}
			s++;
			pat = sed_part(&s, delim, true);
			c->repl = pat ? sed_part(&s, delim, false) : NULL;
			if (!c->repl) {
				kfree(pat);
				sh_eprintf("sed: -e expression: unterminated 's' command\n");
				return false;
			}
			for (; *s && !strchr(";\n}", *s) && !sh_isspace(*s); s++) {
				if (*s == 'g')
					c->global = true;
				else if (*s == 'p')
					c->print = true;
				else if (*s == 'I' || *s == 'i')
					icase = true;
				else if (sh_isdigit(*s))
					c->nth = c->nth * 10 + (*s - '0');
				else {
					kfree(pat);
					sh_eprintf("sed: -e expression: unknown option to 's'\n");
					return false;
				}
			}
			c->re = sed_regex(sd, pat, icase);
			kfree(pat);
			if (!c->re)
				return false;
		}
	}
}

/* Append the replacement for match m: & and \1..\9 refer to it. */
static void substitute(struct sh_buf *out, const char *repl, const char *line, const struct re_match *m)
{
	for (const char *r = repl; *r; r++) {
		int g = -1;

		if (*r == '&')
			g = 0;
		else if (*r == '\\' && sh_isdigit(r[1]))
			g = *++r - '0';
		else if (*r == '\\' && r[1] == 'n') {
			r++;
			sh_buf_putc(out, '\n');
			continue;
		} else if (*r == '\\' && r[1]) {
			r++;
		}
		if (g < 0)
			sh_buf_putc(out, *r);
		else if (m->start[g] >= 0)
			sh_buf_put(out, line + m->start[g], (size_t)(m->end[g] - m->start[g]));
	}
}

/* s///: returns whether anything was replaced; *line becomes the new text. */
static bool sed_subst(struct sed_cmd *c, struct sh_buf *line)
{
	struct sh_buf out = { 0 };
	size_t from = 0, copied = 0, len = line->len;
	const char *s = line->s ? line->s : "";
	long count = 0;
	bool done = false;
	struct re_match m;

	while (from <= len && regex_search(c->re, s, len, from, &m)) {
		size_t ms = (size_t)m.start[0], me = (size_t)m.end[0];

		count++;
		if (!c->nth || count >= c->nth) {
			sh_buf_put(&out, s + copied, ms - copied);
			substitute(&out, c->repl, s, &m);
			copied = me;
			done = true;
			if (!c->global)
				break;
		}
		/* After an empty match, move on by one byte. */
		from = me == ms ? ms + 1 : me;
	}
	if (!done) {
		sh_buf_free(&out);
		return false;
	}
	if (copied < len)
		sh_buf_put(&out, s + copied, len - copied);
	sh_buf_free(line);
	*line = out;
	if (!line->s)
		sh_buf_put(line, "", 0);
	return true;
}

static bool addr_matches(const struct sed_addr *a, const char *s, size_t len, long lineno,
			 bool last)
{
	struct re_match m;

	switch (a->type) {
	case ADDR_LINE: return lineno == a->line;
	case ADDR_LAST: return last;
	case ADDR_RE: return regex_search(a->re, s, len, 0, &m);
	default: return true;
	}
}

/*
 * Does command c apply to this line? A range starts on a line a1 matches
 * and ends on the next line a2 matches (a2 is not tried on the first); a
 * line number a2 at or before the first line ends it there, as POSIX says.
 */
static bool cmd_selects(struct sed_cmd *c, const char *s, size_t len, long lineno, bool last)
{
	bool sel;

	if (c->a2.type == ADDR_NONE) {
		sel = addr_matches(&c->a1, s, len, lineno, last);
	} else if (!c->in_range) {
		sel = addr_matches(&c->a1, s, len, lineno, last);
		c->in_range = sel && !(c->a2.type == ADDR_LINE && c->a2.line <= lineno) &&
			      !(c->a2.type == ADDR_LAST && last);
	} else {
		sel = true;
		if (c->a2.type == ADDR_LINE ? lineno >= c->a2.line :
		    addr_matches(&c->a2, s, len, lineno, last))
			c->in_range = false;
	}
	return sel != c->negate;
}

/* Run the script over one line. */
static void sed_line(struct sed *sd, struct sh_buf *line, long lineno, bool last)
{
	bool deleted = false;

	for (int i = 0; i < sd->n && !deleted && !sd->quit; i++) {
		struct sed_cmd *c = &sd->cmds[i];

		if (!cmd_selects(c, line->s ? line->s : "", line->len, lineno, last))
			continue;
		switch (c->op) {
		case 's':
			if (sed_subst(c, line) && c->print) {
				out_put(&sd->o, line->s, line->len);
				out_putc(&sd->o, '\n');
			}
			break;
		case 'd':
			deleted = true;
			break;
		case 'p':
			out_put(&sd->o, line->s ? line->s : "", line->len);
			out_putc(&sd->o, '\n');
			break;
		case 'q':
			sd->quit = true;
			break;
		}
	}
	if (!deleted && !sd->quiet) {
		out_put(&sd->o, line->s ? line->s : "", line->len);
		out_putc(&sd->o, '\n');
	}
}

/* Lines are run one behind, so that $ knows the last one. */
static int sed_fd(struct sed *sd, int fd, long *lineno, struct sh_buf *pending, bool *have)
{
	struct sh_in in;
	char *s;
	ssize_t len;

	in_init(&in, fd);
	while (!sd->quit && (len = in_getline(&in, &s, NULL)) >= 0) {
		if (*have)
			sed_line(sd, pending, ++*lineno, false);
		sh_buf_free(pending);
		sh_buf_put(pending, s, (size_t)len);
		*have = true;
	}
	in_free(&in);
	return 0;
}

int cmd_sed(int argc, char **argv, char **envp)
{
	struct sed *sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	struct sh_buf pending = { 0 };
	struct sh_getopt g = { 0 };
	bool have_script = false, have = false, ok = true;
	long lineno = 0;
	int c, status = 0;

	if (!sd)
		return 1;
	while (ok && (c = sh_getopt(&g, argc, argv, "nEre:")) != -1) {
		if (c == 'n')
			sd->quiet = true;
		else if (c == 'E' || c == 'r')
			sd->flags |= RE_EXTENDED;
		else if (c == 'e')
			ok = have_script = sed_parse(sd, g.arg);
		else
			ok = false;
	}
	if (ok && !have_script) {
		if (g.ind == argc) {
			sh_eprintf("sed: usage: sed [-nE] [-e SCRIPT] [SCRIPT] [FILE]...\n");
			ok = false;
		} else {
			ok = sed_parse(sd, argv[g.ind++]);
		}
	}
	if (ok) {
		out_init(&sd->o, 1);
		if (g.ind == argc)
			sed_fd(sd, 0, &lineno, &pending, &have);
		for (int i = g.ind; i < argc && !sd->quit; i++) {
			int fd = sh_open_input("sed", argv[i]);

			if (fd < 0) {
				status = 2;
				continue;
			}
			sed_fd(sd, fd, &lineno, &pending, &have);
			sh_os->close(fd);
		}
		if (have && !sd->quit)
			sed_line(sd, &pending, ++lineno, true);
		status = out_finish(&sd->o, "sed", status);
	} else {
		status = 1;
	}
	sh_buf_free(&pending);
	for (int i = 0; i < sd->n; i++) {
		regex_free(sd->cmds[i].re);
		regex_free(sd->cmds[i].a1.re);
		regex_free(sd->cmds[i].a2.re);
		kfree(sd->cmds[i].repl);
	}
	kfree(sd);
	return status;
}
