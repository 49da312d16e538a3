/*
 * "print fmt" of a format file, compiled once per event and run per
 * record. The text is a C printf call as TP_printk wrote it after the
 * preprocessor:
 *
 *	"prev_comm=%s prev_state=%s%s ...", REC->prev_comm,
 *	(REC->prev_state & 0xff) ? __print_flags(REC->prev_state & 0xff, "|",
 *	{ 0x01, "S" }, ...) : "R", ...
 *
 * The format string becomes a list of directives; each argument becomes
 * an expression tree with field offsets resolved and constant tables
 * folded. Rendering follows what trace-cmd (libtraceevent) prints, which
 * is C's printf on the argument cast to the directive's length, with
 * Linux's %p extensions. Here: the format string, pf_compile and pf_free;
 * report_printfmt.h lists the files with the other steps.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/report_printfmt.h"

void pf_free(struct pf_prog *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->nr_args; i++)
		pf_free_node(p->args[i]);
	free(p->args);
	free(p->specs);
	free(p->fmt);
	free(p);
}

static bool add_spec(struct pf_prog *p, const struct pf_spec *s)
{
	struct pf_spec *n = realloc(p->specs, (p->nr_specs + 1) * sizeof(*n));

	if (!n)
		return false;
	p->specs = n;
	p->specs[p->nr_specs++] = *s;
	return true;
}

/*
 * The letters after %p that belong to the directive, as trace-cmd reads
 * them: S s F f, M/m [R F], I/i [4 6 S...], U [L l B b], h [C D N]. Any
 * other letter is literal text after a plain %p.
 */
static size_t pointer_ext(const char *s, char *pext)
{
	size_t n = 0;

	*pext = 0;
	switch (s[0]) {
	case 'S': case 's': case 'F': case 'f':
		*pext = s[0];
		return 1;
	case 'M': case 'm':
		*pext = s[0];
		return 1 + (s[1] == 'R' || s[1] == 'F');
	case 'U':
		*pext = s[0];
		return 1 + (s[1] && strchr("LlBb", s[1]) != NULL);
	case 'h':
		*pext = s[0];
		return 1 + (s[1] && strchr("CDN", s[1]) != NULL);
	case 'I': case 'i':
		*pext = s[0];
		n = 2;
		if (s[1] == 'S')
			while (s[n] && strchr("pfs", s[n]))
				n++;
		if ((s[1] == 'S' || s[1] == '4') && s[n] && strchr("hnlb", s[n]))
			n++;
		if (s[1] != '4' && s[n] == 'c')
			n++;
		return n;
	default:
		return 0;
	}
}

/* Split the format into directives; returns the number of arguments they take, -1 on error. */
static int parse_format(struct pf_prog *p, const char **err)
{
	const char *s = p->fmt, *lit = s;
	unsigned int arg = 0;

	while (*s) {
		struct pf_spec sp = { .width = -1, .prec = -1, .length = 4 };
		size_t nf = 0;

		if (*s != '%') {
			s++;
			continue;
		}
		sp.lit = lit;
		sp.lit_len = (size_t)(s - lit);
		s++;
		if (*s == '%') {
			sp.conv = '%';
			s++;
			lit = s;
			if (!add_spec(p, &sp))
				return -1;
			continue;
		}
		while (*s && strchr("-+ #0", *s)) {
			if (nf < sizeof(sp.flags) - 1)
				sp.flags[nf++] = *s;
			s++;
		}
		if (*s == '*') {
			sp.width = -2;
			arg++;
			s++;
		} else if (isdigit((unsigned char)*s)) {
			sp.width = (int)strtol(s, (char **)&s, 10);
			if (sp.width > 4096)
				sp.width = 4096;
		}
		if (*s == '.') {
			s++;
			if (*s == '*') {
				sp.prec = -2;
				arg++;
				s++;
			} else {
				sp.prec = (int)strtol(s, (char **)&s, 10);
				if (sp.prec < 0 || sp.prec > 4096)
					sp.prec = 4096;
			}
		}
		for (;;) {
			if (*s == 'h') {
				sp.length = sp.length == 2 ? 1 : 2;
			} else if (*s == 'l' || *s == 'L' || *s == 'q' || *s == 'j' || *s == 'z' ||
				   *s == 'Z' || *s == 't') {
				sp.length = 8;
			} else {
				break;
			}
			s++;
		}
		if (!*s || !strchr("diuxXocsp", *s)) {
			*err = "unsupported conversion in the format string";
			return -1;
		}
		sp.conv = *s++;
		sp.left = strchr(sp.flags, '-') != NULL;
		sp.bare = !nf && sp.width == -1 && sp.prec == -1 && strchr("diux", sp.conv);
		if (sp.conv == 'p') {
			size_t n = pointer_ext(s, &sp.pext);

			sp.length = 8;
			if (n > 1)
				memcpy(sp.ext, s + 1, n - 1 < sizeof(sp.ext) - 1 ? n - 1 : sizeof(sp.ext) - 1);
			s += n;
		}
		sp.arg = arg++;
		lit = s;
		if (!add_spec(p, &sp))
			return -1;
	}
	if (lit < s) {
		struct pf_spec sp = { .lit = lit, .lit_len = (size_t)(s - lit), .conv = 0 };

		if (!add_spec(p, &sp))
			return -1;
	}
	return (int)arg;
}

bool pf_printable(const struct pf_prog *p, bool no_plugins)
{
	return !p->tracecmd_fails && !(p->plugin_fn && no_plugins);
}

struct pf_prog *pf_compile(struct rep_event *ev, const char *text, size_t len,
			   const char **err, size_t *err_pos)
{
	struct pf_parser ps = { .ev = ev, .text = text, .pos = text, .end = text + len };
	struct pf_prog *p = calloc(1, sizeof(*p));
	size_t flen;
	int need;

	*err = NULL;
	*err_pos = 0;
	if (!p) {
		*err = "out of memory";
		return NULL;
	}
	pf_next(&ps);
	if (ps.tok.kind != T_STR) {
		*err = "print fmt does not start with a string";
		goto bad;
	}
	p->fmt = pf_string_literal(&ps, &flen);
	if (!p->fmt || strlen(p->fmt) != flen) {
		*err = "format string with a NUL in it";
		goto bad;
	}
	need = parse_format(p, err);
	if (need < 0)
		goto bad;
	while (!ps.err && pf_accept(&ps, ",")) {
		struct pf_node *a = pf_parse_expr(&ps), **na;

		na = realloc(p->args, (p->nr_args + 1) * sizeof(*na));
		if (!na) {
			pf_free_node(a);
			ps.err = "out of memory";
			break;
		}
		p->args = na;
		p->args[p->nr_args++] = a;
	}
	if (!ps.err && ps.tok.kind != T_END)
		pf_fail(&ps, "unexpected text after the arguments");
	if (!ps.err && p->nr_args < (unsigned int)need)
		pf_fail(&ps, "fewer arguments than the format string needs");
	if (ps.err) {
		*err = ps.err;
		*err_pos = ps.err_pos;
		goto bad;
	}
	p->tracecmd_fails = ps.tracecmd_fails;
	p->plugin_fn = ps.plugin_fn;
	return p;
bad:
	pf_free(p);
	return NULL;
}
