/*
 * spoor tevgen: compile an event spec (docs/tevgen.md) into the
 * TRACE_EVENT header the kernel includes, or into the format files those
 * events will show. The generator lays records out itself, with the same
 * rules as the C compiler and the registry, so its format text is an
 * independent prediction of what the kernel prints.
 *
 *   spoor tevgen -o OUT.h SPEC       the header (written whole or not at all)
 *   spoor tevgen -F DIR [-i ID] SPEC DIR/<event>/format for every event
 *   spoor tevgen -u -o OUT.h SPEC    a ring-3 program's user_events header
 *                                    (tevgen_user.c)
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "spoor.h"
#include "tevgen.h"
#include "tevgen_spec.h"

/* Parser state: the spec text split into lines, and the first error. */
struct parser {
	const char *file;
	int line;		/* 1-based, of the current logical line */
	const char *text;	/* start of the current logical line (for columns) */
	char *err;
	size_t errsize;
	bool failed;
	struct tev_spec *spec;
	struct tev_event *cur;	/* class or event being filled */
	enum tev_target target;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		spoor_err("tevgen: out of memory");
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		spoor_err("tevgen: out of memory");
		exit(1);
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xcalloc(n + 1, 1);

	memcpy(d, s, n);
	return d;
}

#define PUSH(arr, n, v) do {					\
	(arr) = xrealloc((arr), ((n) + 1) * sizeof(*(arr)));	\
	(arr)[(n)++] = (v);					\
} while (0)

/* Record the first error at pointer at (inside the current line). Returns -1. */
static int __attribute__((format(printf, 3, 4)))
fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return -1;
	ps->failed = true;
	n = snprintf(ps->err, ps->errsize, "%s:%d:%d: error: ", ps->file, ps->line,
		     at ? (int)(at - ps->text) + 1 : 1);
	if (n >= 0 && (size_t)n < ps->errsize) {
		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->errsize - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static size_t ident_len(const char *s)
{
	size_t n = 0;

	if (!is_ident_start(s[0]))
		return 0;
	while (is_ident(s[n]))
		n++;
	return n;
}

/* A trimmed copy of [s, e). */
static char *trimmed(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

/* Skip a C string or char literal starting at s; NULL if unterminated. */
static const char *skip_literal(const char *s)
{
	char q = *s++;

	for (; *s && *s != q; s++)
		if (*s == '\\' && s[1])
			s++;
	return *s ? s + 1 : NULL;
}

/* The end of the literal at s, or of s if it is unterminated (scan_c reports that). */
static const char *literal_end(const char *s)
{
	const char *e = skip_literal(s);

	return e ? e : s + strlen(s);
}

/*
 * Check that s is a usable C fragment: literals terminated, (), [] and {}
 * balanced, and (stop_at_comma) where the first top-level comma is.
 * Returns the end (the NUL or the comma), or NULL after reporting.
 */
static const char *scan_c(struct parser *ps, const char *s, bool stop_at_comma)
{
	char stack[64];
	int depth = 0;

	while (*s) {
		if (*s == '"' || *s == '\'') {
			const char *e = skip_literal(s);

			if (!e)
				return fail(ps, s, "unterminated %s literal",
					    *s == '"' ? "string" : "character"), NULL;
			s = e;
			continue;
		}
		if (*s == '(' || *s == '[' || *s == '{') {
			if (depth == (int)sizeof(stack))
				return fail(ps, s, "brackets nested too deeply"), NULL;
			stack[depth++] = *s == '(' ? ')' : *s == '[' ? ']' : '}';
		} else if (*s == ')' || *s == ']' || *s == '}') {
			if (!depth || stack[depth - 1] != *s)
				return fail(ps, s, "unbalanced '%c'", *s), NULL;
			depth--;
		} else if (*s == ',' && !depth && stop_at_comma) {
			return s;
		}
		s++;
	}
	if (depth)
		return fail(ps, s, "missing '%c'", stack[depth - 1]), NULL;
	return s;
}

/* Collapse whitespace outside literals to single spaces, trimmed: what cpp's # makes of it. */
static char *collapse_ws(const char *s)
{
	char *out = xcalloc(strlen(s) + 1, 1), *o = out;
	bool space = false;

	s = skip_ws(s);
	while (*s) {
		if (isspace((unsigned char)*s)) {
			space = true;
			s++;
			continue;
		}
		if (space && o > out)
			*o++ = ' ';
		space = false;
		if (*s == '"' || *s == '\'') {
			const char *e = literal_end(s);

			memcpy(o, s, (size_t)(e - s));
			o += e - s;
			s = e;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* --- types ------------------------------------------------------------------ */

/* Layout of the scalar types a record field may have (x86_64, char unsigned). */
static const struct {
	const char *name;
	unsigned int size;
	bool is_signed;
} scalar_types[] = {
	{ "char", 1, false }, { "signed char", 1, true }, { "unsigned char", 1, false },
	{ "short", 2, true }, { "short int", 2, true }, { "unsigned short", 2, false },
	{ "int", 4, true }, { "signed int", 4, true }, { "unsigned int", 4, false },
	{ "unsigned", 4, false }, { "long", 8, true }, { "long int", 8, true },
	{ "unsigned long", 8, false }, { "long long", 8, true },
	{ "unsigned long long", 8, false }, { "bool", 1, false }, { "_Bool", 1, false },
	{ "u8", 1, false }, { "u16", 2, false }, { "u32", 4, false }, { "u64", 8, false },
	{ "s8", 1, true }, { "s16", 2, true }, { "s32", 4, true }, { "s64", 8, true },
	{ "pid_t", 4, true }, { "size_t", 8, false }, { "ssize_t", 8, true },
	{ "gfp_t", 4, false },
};

static int type_layout(struct parser *ps, const char *at, struct tev_field *f)
{
	const char *t = f->type;

	if (t[strlen(t) - 1] == '*') {
		f->size = f->align = 8;
		f->is_signed = false;
		return 0;
	}
	if (!strncmp(t, "const ", 6))
		t += 6;
	for (size_t i = 0; i < sizeof(scalar_types) / sizeof(scalar_types[0]); i++) {
		if (!strcmp(t, scalar_types[i].name)) {
			f->size = f->align = scalar_types[i].size;
			f->is_signed = scalar_types[i].is_signed;
			return 0;
		}
	}
	return fail(ps, at, "unknown field type '%s' (a scalar type or a pointer)", f->type);
}

/* --- macros ------------------------------------------------------------------ */

static const struct tev_macro *find_macro(const struct tev_spec *spec, const char *name, size_t n)
{
	for (size_t i = 0; i < spec->nmacros; i++)
		if (strlen(spec->macros[i].name) == n && !strncmp(spec->macros[i].name, name, n))
			return &spec->macros[i];
	return NULL;
}

struct buf {
	char *s;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static char *expand(struct parser *ps, const char *at, const char *s, int depth);

/*
 * Names are replaced only outside literals: copy the piece at s that is no
 * identifier (a literal, or one other byte) and return its length; 0 if an
 * identifier starts at s.
 */
static size_t copy_non_ident(struct buf *b, const char *s)
{
	size_t n;

	if (*s == '"' || *s == '\'')
		n = (size_t)(literal_end(s) - s);
	else if (!is_ident_start(*s))
		n = 1;
	else
		return 0;
	buf_add(b, s, n);
	return n;
}

/* body with each parameter identifier replaced by its argument. */
static char *substitute(const struct tev_macro *m, char **argv)
{
	struct buf b = { 0 };
	const char *s = m->body;

	buf_add(&b, "", 0);
	while (*s) {
		size_t n = copy_non_ident(&b, s);
		int p;

		if (n) {
			s += n;
			continue;
		}
		n = ident_len(s);
		for (p = 0; p < m->nparams; p++)
			if (strlen(m->params[p]) == n && !strncmp(m->params[p], s, n))
				break;
		if (p < m->nparams)
			buf_add(&b, argv[p], strlen(argv[p]));
		else
			buf_add(&b, s, n);
		s += n;
	}
	return b.s;
}

/*
 * Expand spec macros in s, as the preprocessor would (rescanning the
 * result; a macro is not expanded inside itself: depth bounds that).
 * at is where s starts in the line, for messages.
 */
static char *expand(struct parser *ps, const char *at, const char *s, int depth)
{
	struct buf b = { 0 };
	const char *begin = s;

	buf_add(&b, "", 0);
	if (depth > 32) {
		fail(ps, at, "macro expansion nested more than 32 deep");
		return b.s;
	}
	while (*s && !ps->failed) {
		size_t n = copy_non_ident(&b, s);
		const struct tev_macro *m;

		if (n) {
			s += n;
			continue;
		}
		n = ident_len(s);
		if (s > begin && is_ident(s[-1])) {	/* inside a number like 1UL */
			buf_add(&b, s, n);
			s += n;
			continue;
		}
		m = find_macro(ps->spec, s, n);
		if (!m || (m->nparams >= 0 && *skip_ws(s + n) != '(')) {
			buf_add(&b, s, n);
			s += n;
			continue;
		}
		char *text, *more;
		const char *name_at = s;

		if (m->nparams < 0) {
			text = xstrndup(m->body, strlen(m->body));
			s += n;
		} else {
			const char *p = skip_ws(s + n) + 1;
			char **argv = NULL;
			size_t argc = 0;

			for (;;) {
				const char *e = p;
				int d = 0;

				while (*e && (d || (*e != ',' && *e != ')'))) {
					if (*e == '"' || *e == '\'') {
						e = literal_end(e);
						continue;
					}
					d += (*e == '(' || *e == '{' || *e == '[');
					d -= (*e == ')' || *e == '}' || *e == ']');
					e++;
				}
				if (!*e) {
					fail(ps, depth ? at : s, "unterminated call of macro '%s'", m->name);
					break;
				}
				PUSH(argv, argc, trimmed(p, e));
				p = e + 1;
				if (*e == ')')
					break;
			}
			if (!ps->failed && !(m->nparams == 0 && argc == 1 && !argv[0][0]) &&
			    (int)argc != m->nparams)
				fail(ps, depth ? at : s, "macro '%s' takes %d argument%s, given %zu", m->name,
				     m->nparams, m->nparams == 1 ? "" : "s", argc);
			text = ps->failed ? xstrndup("", 0) : substitute(m, argv);
			for (size_t i = 0; i < argc; i++)
				free(argv[i]);
			free(argv);
			s = p;
		}
		/* Errors inside the expansion point at the outermost macro's name. */
		more = expand(ps, depth ? at : name_at, text, depth + 1);
		buf_add(&b, more, strlen(more));
		free(more);
		free(text);
	}
	return b.s;
}

/* --- spec lines ------------------------------------------------------------------ */

static struct tev_event *find_event(const struct tev_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->nevents; i++)
		if (!strcmp(spec->events[i]->name, name))
			return spec->events[i];
	return NULL;
}

/* "NAME" followed by end of line: an identifier; returns a copy or NULL. */
static char *parse_name(struct parser *ps, const char **sp, const char *what)
{
	const char *s = skip_ws(*sp);
	size_t n = ident_len(s);

	if (!n)
		return fail(ps, s, "expected %s name", what), NULL;
	*sp = s + n;
	return xstrndup(s, n);
}

static int expect_eol(struct parser *ps, const char *s)
{
	s = skip_ws(s);
	return *s ? fail(ps, s, "unexpected '%s'", s) : 0;
}

static int parse_define(struct parser *ps, const char *s)
{
	struct tev_macro m = { .nparams = -1 };

	m.name = parse_name(ps, &s, "macro");
	if (!m.name)
		return -1;
	if (find_macro(ps->spec, m.name, strlen(m.name))) {
		fail(ps, s - strlen(m.name), "macro '%s' defined twice", m.name);
		goto bad;
	}
	if (*s == '(') {
		m.nparams = 0;
		s = skip_ws(s + 1);
		while (*s != ')') {
			char *p = parse_name(ps, &s, "parameter");

			if (!p)
				goto bad;
			PUSH(m.params, m.nparams, p);
			s = skip_ws(s);
			if (*s == ',') {
				s = skip_ws(s + 1);
				if (*s == ')') {
					fail(ps, s, "expected parameter name");
					goto bad;
				}
			} else if (*s != ')') {
				fail(ps, s, "expected ',' or ')' in parameter list");
				goto bad;
			}
		}
		s++;
	}
	if (!scan_c(ps, s, false))
		goto bad;
	m.body = trimmed(s, s + strlen(s));
	PUSH(ps->spec->macros, ps->spec->nmacros, m);
	return 0;
bad:
	for (int i = 0; i < m.nparams; i++)
		free(m.params[i]);
	free(m.params);
	free(m.name);
	return -1;
}

static void field_free(struct tev_field *f)
{
	free(f->type);
	free(f->name);
	free(f->len);
	free(f->src);
}

/* "TYPE NAME" or "TYPE NAME[LEN]", then optional "= SRC", into f. */
static int parse_field_text(struct parser *ps, const char *s, struct tev_field *f)
{
	struct tev_event *ev = ps->cur;
	enum field_kind kind = f->kind;
	const char *start = skip_ws(s), *eq, *name, *name_end, *lb = NULL;

	eq = scan_c(ps, start, false);
	if (!eq)
		return -1;
	for (eq = start; *eq && *eq != '='; eq++)
		if (*eq == '"' || *eq == '\'')
			return fail(ps, eq, "expected '= source' before a literal");
	name_end = eq;
	while (name_end > start && isspace((unsigned char)name_end[-1]))
		name_end--;
	if (name_end > start && name_end[-1] == ']') {
		lb = memchr(start, '[', (size_t)(name_end - start));
		if (!lb)
			return fail(ps, name_end - 1, "unbalanced ']'");
		f->len = trimmed(lb + 1, name_end - 1);
		name_end = lb;
		while (name_end > start && isspace((unsigned char)name_end[-1]))
			name_end--;
	}
	name = name_end;
	while (name > start && is_ident(name[-1]))
		name--;
	if (name == name_end || !is_ident_start(*name))
		return fail(ps, name_end, "expected a field name");
	f->name = xstrndup(name, (size_t)(name_end - name));
	f->type = kind == FK_STRING ? xstrndup("char", 4) : trimmed(start, name);
	if (kind != FK_STRING && !*f->type)
		return fail(ps, start, "expected the type of field '%s'", f->name);
	{
		char *c = collapse_ws(f->type);

		free(f->type);
		f->type = c;
	}
	if (*eq) {
		f->src = trimmed(eq + 1, eq + strlen(eq));
		if (!*f->src)
			return fail(ps, eq + 1, "expected a source after '='");
	}
	switch (kind) {
	case FK_FIELD:
		if (f->len) {
			char *end;

			f->kind = FK_ARRAY;
			if (!*f->len || strtoul(f->len, &end, 10) == 0 || *end)
				return fail(ps, lb + 1, "array length must be a positive number");
		}
		break;
	case FK_STRING:
		if (f->len)
			return fail(ps, lb, "a string has no length: its source decides it");
		if (!f->src)
			return fail(ps, name_end, "a string needs '= source'");
		break;
	case FK_DYNARRAY:
	case FK_FLEX:
		if (!f->len || !*f->len)
			return fail(ps, name_end, "expected [length] after '%s'", f->name);
		if (kind == FK_FLEX && f->src)
			return fail(ps, eq, "a flex array is filled by 'assign' lines");
		break;
	case FK_ARRAY:
		break;
	}
	if (type_layout(ps, start, f))
		return -1;
	for (size_t i = 0; i < ev->nfields; i++) {
		if (!strcmp(ev->fields[i].name, f->name))
			return fail(ps, name, "field '%s' declared twice", f->name);
		if (ev->fields[i].kind == FK_FLEX)
			return fail(ps, start, "the flex array '%s' must be the last field",
				    ev->fields[i].name);
	}
	if (!strncmp(f->name, "common_", 7))
		return fail(ps, name, "'%s': common_ names belong to the common fields", f->name);
	if (ps->target == TEV_USER) {
		const char *problem = tev_user_field_problem(f);

		if (problem)
			return fail(ps, start, "%s", problem);
	}
	return 0;
}

static int parse_field(struct parser *ps, const char *s, enum field_kind kind)
{
	struct tev_field f = { .kind = kind };

	if (parse_field_text(ps, s, &f)) {
		field_free(&f);
		return -1;
	}
	PUSH(ps->cur->fields, ps->cur->nfields, f);
	return 0;
}

/*
 * Every REC->name in text must be a field of ev (or "ent", the common
 * header): else GCC would report it in the generated header, far from the
 * line to fix. at: where text is in the line, for the column; NULL when
 * text came out of a macro.
 */
static int check_rec_fields(struct parser *ps, const struct tev_event *ev, const char *text,
			    const char *at)
{
	for (const char *r = strstr(text, "REC->"); r; r = strstr(r + 5, "REC->")) {
		const char *name = r + 5;
		size_t n = ident_len(name);
		bool found = n == 3 && !strncmp(name, "ent", 3);

		for (size_t i = 0; i < ev->nfields && !found; i++)
			found = strlen(ev->fields[i].name) == n && !strncmp(ev->fields[i].name, name, n);
		if (!found)
			return fail(ps, at ? at + (r - text) : NULL,
				    "REC->%.*s: '%s' has no field '%.*s' (its fields come before print)",
				    (int)n, name, ev->name, (int)n, name);
	}
	return 0;
}

static int parse_print(struct parser *ps, const char *s)
{
	struct tev_event *ev = ps->cur;
	const char *q = skip_ws(s), *e, *args;
	char *expanded;

	if (ev->fmt)
		return fail(ps, q, "'%s' has a print line already", ev->name);
	if (*q != '"')
		return fail(ps, q, "expected the format string");
	e = skip_literal(q);
	if (!e)
		return fail(ps, q, "unterminated string literal");
	for (const char *c = q + 1; c < e - 1; c++) {
		if (*c == '\\' && !strchr("\\\"nt", *++c))
			return fail(ps, c - 1, "unsupported escape '\\%c'", *c);
	}
	ev->fmt = xstrndup(q + 1, (size_t)(e - q - 2));
	args = skip_ws(e);
	if (*args && *args != ',')
		return fail(ps, args, "expected ',' after the format string");
	if (*args) {
		args++;
		if (!*skip_ws(args))
			return fail(ps, args, "expected arguments after ','");
		if (!scan_c(ps, args, false))
			return -1;
		if (check_rec_fields(ps, ev, args, args))
			return -1;
	}
	expanded = expand(ps, args, args, 0);
	if (ps->failed || check_rec_fields(ps, ev, expanded, NULL))
		return free(expanded), -1;
	ev->print_args = collapse_ws(expanded);
	free(expanded);
	return 0;
}

/* The argument names of a prototype: the last identifier of each parameter. */
static char *args_of(struct parser *ps, const char *at, const char *proto)
{
	struct buf b = { 0 };
	const char *s = proto;

	buf_add(&b, "", 0);
	while (*s) {
		const char *e = scan_c(ps, s, true), *n;

		if (!e)
			break;
		n = e;
		while (n > s && isspace((unsigned char)n[-1]))
			n--;
		const char *id_end = n;

		while (n > s && is_ident(n[-1]))
			n--;
		if (n == id_end || !is_ident_start(*n) || n == skip_ws(s)) {
			fail(ps, at + (n - proto), "parameter without a name");
			break;
		}
		if (b.len)
			buf_add(&b, ", ", 2);
		buf_add(&b, n, (size_t)(id_end - n));
		s = *e ? e + 1 : e;
	}
	return b.s;
}

static int begin_event(struct parser *ps, const char *s, bool is_class)
{
	struct tev_event ev = { .is_class = is_class, .line = ps->line };
	const char *at = skip_ws(s);

	ev.name = parse_name(ps, &s, is_class ? "class" : "event");
	if (!ev.name)
		return -1;
	if (find_event(ps->spec, ev.name)) {
		fail(ps, at, "'%s' defined twice", ev.name);
		free(ev.name);
		return -1;
	}
	s = skip_ws(s);
	if (!is_class && *s == ':') {
		const char *cat = skip_ws(s + 1);
		char *cname = parse_name(ps, &(const char *){ s + 1 }, "class");
		struct tev_event *class;

		if (!cname)
			return -1;
		class = find_event(ps->spec, cname);
		if (!class || !class->is_class) {
			fail(ps, cat, "no class '%s' (classes come before their events)", cname);
			free(cname);
			free(ev.name);
			return -1;
		}
		s = cat + strlen(cname);
		free(cname);
		ev.class = class;
	}
	if (expect_eol(ps, s)) {
		free(ev.name);
		return -1;
	}
	ps->cur = xcalloc(1, sizeof(*ps->cur));
	*ps->cur = ev;
	PUSH(ps->spec->events, ps->spec->nevents, ps->cur);
	return 0;
}

/* A finished class or event must be complete. */
static int end_event(struct parser *ps)
{
	struct tev_event *ev = ps->cur;
	int line = ps->line;

	ps->cur = NULL;
	if (!ev)
		return 0;
	ps->line = ev->line;
	ps->text = NULL;
	if (!ev->class && !ev->proto)		/* an instance's class was checked */
		fail(ps, NULL, "'%s' has no proto line", ev->name);
	else if (!ev->class && !ev->nfields)
		fail(ps, NULL, "'%s' has no fields", ev->name);
	else if (!ev->class && !ev->fmt && ps->target == TEV_KERNEL)
		fail(ps, NULL, "'%s' has no print line", ev->name);
	if (!ps->failed && !ev->is_class && ps->target == TEV_USER &&
	    tev_user_reg_len(ev) > TEV_USER_REG_MAX)
		fail(ps, NULL, "'%s': its user_events registration string is %zu bytes (at most %d)",
		     ev->name, tev_user_reg_len(ev), TEV_USER_REG_MAX);
	ps->line = line;
	return ps->failed ? -1 : 0;
}

static int body_line(struct parser *ps, const char *kw, size_t kwlen, const char *s)
{
	struct tev_event *ev = ps->cur;
	const char *at = skip_ws(s);

#define KW(x) (kwlen == sizeof(x) - 1 && !strncmp(kw, x, kwlen))
	if (!KW("proto") && !KW("args") && !KW("field") && !KW("string") && !KW("dynarray") &&
	    !KW("flex") && !KW("assign") && !KW("print"))
		return fail(ps, kw, "unknown keyword '%.*s'", (int)kwlen, kw);
	if (!ev)
		return fail(ps, kw, "'%.*s' outside a class or event", (int)kwlen, kw);
	if (ev->class)
		return fail(ps, kw, "'%s' is an instance of class '%s' and has no body of its own",
			    ev->name, ev->class->name);
	/* A user event's record is its fields, and the kernel makes its print fmt. */
	if (ps->target == TEV_USER && (KW("args") || KW("flex") || KW("assign") || KW("print")))
		return fail(ps, kw, "'%.*s' is for kernel events: a user event is its fields",
			    (int)kwlen, kw);
	if (KW("proto")) {
		if (ev->proto)
			return fail(ps, kw, "'%s' has a proto line already", ev->name);
		if (!*at)
			return fail(ps, at, "expected the tracepoint's parameters");
		if (!scan_c(ps, at, false))
			return -1;
		ev->proto = collapse_ws(at);
		if (!ev->args)
			ev->args = args_of(ps, at, ev->proto);
		return ps->failed ? -1 : 0;
	}
	if (KW("args")) {
		if (!*at)
			return fail(ps, at, "expected the tracepoint's arguments");
		if (!scan_c(ps, at, false))
			return -1;
		free(ev->args);
		ev->args = collapse_ws(at);
		return 0;
	}
	if (KW("field"))
		return parse_field(ps, s, FK_FIELD);
	if (KW("string"))
		return parse_field(ps, s, FK_STRING);
	if (KW("dynarray"))
		return parse_field(ps, s, FK_DYNARRAY);
	if (KW("flex"))
		return parse_field(ps, s, FK_FLEX);
	if (KW("assign")) {
		if (!*at)
			return fail(ps, at, "expected a C statement");
		if (!scan_c(ps, at, false))
			return -1;
		PUSH(ev->assign, ev->nassign, trimmed(at, at + strlen(at)));
		return 0;
	}
#undef KW
	return parse_print(ps, s);
}

static int spec_line(struct parser *ps, const char *line)
{
	const char *kw = skip_ws(line), *s;
	size_t kwlen = ident_len(kw);

	if (!*kw || *kw == '#')
		return 0;
	if (!kwlen)
		return fail(ps, kw, "expected a keyword");
	s = kw + kwlen;
	if (*s && *s != ' ' && *s != '\t')
		return fail(ps, s, "expected a space after '%.*s'", (int)kwlen, kw);
	if (kwlen == 6 && !strncmp(kw, "system", 6)) {
		if (ps->spec->system)
			return fail(ps, kw, "a spec has one system line");
		ps->spec->system = parse_name(ps, &s, "system");
		return ps->spec->system ? expect_eol(ps, s) : -1;
	}
	if (!ps->spec->system)
		return fail(ps, kw, "the spec must start with 'system NAME'");
	if (kwlen == 7 && !strncmp(kw, "include", 7)) {
		const char *h = skip_ws(s);
		size_t n = strlen(h);

		if (n < 3 || !((h[0] == '<' && h[n - 1] == '>') || (h[0] == '"' && h[n - 1] == '"')))
			return fail(ps, h, "expected <header> or \"header\"");
		PUSH(ps->spec->includes, ps->spec->nincludes, xstrndup(h, n));
		return 0;
	}
	if (kwlen == 6 && !strncmp(kw, "define", 6)) {
		if (ps->cur && end_event(ps))
			return -1;
		return parse_define(ps, s);
	}
	if ((kwlen == 5 && !strncmp(kw, "class", 5)) || (kwlen == 5 && !strncmp(kw, "event", 5))) {
		if (ps->cur && end_event(ps))
			return -1;
		return begin_event(ps, s, kw[0] == 'c');
	}
	return body_line(ps, kw, kwlen, s);
}

/* Validate system:file naming and that every class has an instance. */
static int spec_done(struct parser *ps)
{
	const char *base = strrchr(ps->file, '/');
	size_t n;

	base = base ? base + 1 : ps->file;
	ps->text = NULL;
	if (ps->cur && end_event(ps))
		return -1;
	if (!ps->spec->system)
		return fail(ps, NULL, "no 'system NAME' line");
	n = strlen(ps->spec->system);
	if (strncmp(base, ps->spec->system, n) || strcmp(base + n, ".tev")) {
		ps->line = 1;
		return fail(ps, NULL, "system '%s' must live in %s.tev", ps->spec->system,
			    ps->spec->system);
	}
	for (size_t i = 0; i < ps->spec->nevents; i++)
		if (!ps->spec->events[i]->is_class)
			return 0;
	return fail(ps, NULL, "the spec defines no event");
}

struct tev_spec *tev_parse(const char *file, const char *text, enum tev_target target,
			   char *err, size_t errsize)
{
	struct parser ps = { .file = file, .err = err, .errsize = errsize, .target = target };
	const char *p = text;
	int line = 1;

	ps.spec = xcalloc(1, sizeof(*ps.spec));
	if (errsize)
		err[0] = '\0';
	while (*p && !ps.failed) {
		/* A logical line: physical lines joined at a trailing backslash. */
		struct buf l = { 0 };

		ps.line = line;
		buf_add(&l, "", 0);
		for (;;) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			const char *piece = l.len ? skip_ws(p) : p;

			n -= (size_t)(piece - p);
			line++;
			if (n && piece[n - 1] == '\r')
				n--;
			if (n && piece[n - 1] == '\\' && !e) {
				ps.text = l.s;
				fail(&ps, NULL, "backslash at the end of the file");
				break;
			}
			p = e ? e + 1 : piece + n;
			if (n && piece[n - 1] == '\\') {
				buf_add(&l, piece, n - 1);
				continue;
			}
			buf_add(&l, piece, n);
			break;
		}
		ps.text = l.s;
		if (!ps.failed && !strcmp(skip_ws(l.s), "prelude")) {
			struct buf pre = { 0 };

			buf_add(&pre, "", 0);
			if (ps.spec->prelude)
				fail(&ps, l.s, "a spec has one prelude");
			for (;;) {
				const char *e = strchr(p, '\n');
				size_t n = e ? (size_t)(e - p) : strlen(p);

				if (!*p) {
					fail(&ps, l.s, "prelude without 'end'");
					break;
				}
				line++;
				if (n == 3 && !strncmp(p, "end", 3)) {
					p = e ? e + 1 : p + n;
					break;
				}
				buf_add(&pre, p, n);
				buf_add(&pre, "\n", 1);
				p = e ? e + 1 : p + n;
			}
			ps.spec->prelude = pre.s;
		} else if (!ps.failed) {
			spec_line(&ps, l.s);
		}
		free(l.s);
	}
	ps.line = line - 1;
	if (!ps.failed)
		spec_done(&ps);
	if (ps.failed) {
		tev_free(ps.spec);
		return NULL;
	}
	return ps.spec;
}

void tev_free(struct tev_spec *spec)
{
	if (!spec)
		return;
	for (size_t i = 0; i < spec->nevents; i++) {
		struct tev_event *ev = spec->events[i];

		for (size_t j = 0; j < ev->nfields; j++)
			field_free(&ev->fields[j]);
		for (size_t j = 0; j < ev->nassign; j++)
			free(ev->assign[j]);
		free(ev->fields);
		free(ev->assign);
		free(ev->name);
		free(ev->proto);
		free(ev->args);
		free(ev->fmt);
		free(ev->print_args);
		free(ev);
	}
	for (size_t i = 0; i < spec->nmacros; i++) {
		for (int j = 0; j < spec->macros[i].nparams; j++)
			free(spec->macros[i].params[j]);
		free(spec->macros[i].params);
		free(spec->macros[i].name);
		free(spec->macros[i].body);
	}
	for (size_t i = 0; i < spec->nincludes; i++)
		free(spec->includes[i]);
	free(spec->includes);
	free(spec->macros);
	free(spec->events);
	free(spec->prelude);
	free(spec->system);
	free(spec);
}

/* --- output ------------------------------------------------------------------------ */

static void write_body(const struct tev_event *ev, FILE *out)
{
	fprintf(out, "\tTP_PROTO(%s),\n\tTP_ARGS(%s),\n\tTP_STRUCT__entry(\n", ev->proto, ev->args);
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct tev_field *f = &ev->fields[i];

		switch (f->kind) {
		case FK_FIELD:
			fprintf(out, "\t\t__field(%s, %s)\n", f->type, f->name);
			break;
		case FK_ARRAY:
			fprintf(out, "\t\t__array(%s, %s, %s)\n", f->type, f->name, f->len);
			break;
		case FK_STRING:
			fprintf(out, "\t\t__string(%s, %s)\n", f->name, f->src);
			break;
		case FK_DYNARRAY:
			fprintf(out, "\t\t__dynamic_array(%s, %s, %s)\n", f->type, f->name, f->len);
			break;
		case FK_FLEX:
			fprintf(out, "\t\t__flex_array(%s, %s, %s)\n", f->type, f->name, f->len);
			break;
		}
	}
	fprintf(out, "\t),\n\tTP_fast_assign(\n");
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct tev_field *f = &ev->fields[i];

		if (f->kind == FK_STRING)
			fprintf(out, "\t\t__assign_str(%s);\n", f->name);
		else if (!f->src)
			continue;
		else if (f->kind == FK_FIELD)
			fprintf(out, "\t\t__entry->%s = %s;\n", f->name, f->src);
		else if (f->kind == FK_ARRAY)
			fprintf(out, "\t\tmemcpy(__entry->%s, %s, sizeof(__entry->%s));\n",
				f->name, f->src, f->name);
		else if (f->kind == FK_DYNARRAY)
			fprintf(out, "\t\tmemcpy(__get_dynamic_array(%s), %s, __get_dynamic_array_len(%s));\n",
				f->name, f->src, f->name);
	}
	for (size_t i = 0; i < ev->nassign; i++)
		fprintf(out, "\t\t%s%s\n", ev->assign[i],
			ev->assign[i][strlen(ev->assign[i]) - 1] == ';' ||
			ev->assign[i][strlen(ev->assign[i]) - 1] == '}' ? "" : ";");
	fprintf(out, "\t),\n\tTP_printk(\"%s\"%s%s)\n);\n\n", ev->fmt,
		*ev->print_args ? ", " : "", ev->print_args);
}

void tev_write_header(const struct tev_spec *spec, FILE *out)
{
	char guard[128];
	size_t i;

	for (i = 0; spec->system[i] && i < sizeof(guard) - 1; i++)
		guard[i] = (char)toupper((unsigned char)spec->system[i]);
	guard[i] = '\0';
	fprintf(out, "/* Generated by spoor tevgen from trace/events/%s.tev: do not edit. */\n",
		spec->system);
	fprintf(out, "#undef TRACE_SYSTEM\n#define TRACE_SYSTEM %s\n\n", spec->system);
	fprintf(out, "#if !defined(_TRACE_%s_H) || defined(TRACE_HEADER_MULTI_READ)\n"
		"#define _TRACE_%s_H\n\n#include <trace/tracepoint.h>\n", guard, guard);
	for (i = 0; i < spec->nincludes; i++)
		fprintf(out, "#include %s\n", spec->includes[i]);
	if (spec->prelude)
		fprintf(out, "\n#ifndef _TRACE_%s_DEF\n#define _TRACE_%s_DEF\n%s#endif\n",
			guard, guard, spec->prelude);
	fputc('\n', out);
	for (i = 0; i < spec->nevents; i++) {
		const struct tev_event *ev = spec->events[i];

		if (ev->class) {
			fprintf(out, "DEFINE_EVENT(%s, %s,\n\tTP_PROTO(%s),\n\tTP_ARGS(%s)\n);\n\n",
				ev->class->name, ev->name, ev->class->proto, ev->class->args);
			continue;
		}
		fprintf(out, "%s(%s,\n", ev->is_class ? "DECLARE_EVENT_CLASS" : "TRACE_EVENT",
			ev->name);
		write_body(ev, out);
	}
	fprintf(out, "#endif /* _TRACE_%s_H */\n\n"
		"/* Outside the guard: define_trace.h re-reads this file. */\n"
		"#define TRACE_INCLUDE_FILE <trace/events/%s.h>\n"
		"#include <trace/define_trace.h>\n", guard, spec->system);
}

const char *tev_event_name(const struct tev_spec *spec, size_t i)
{
	for (size_t k = 0; k < spec->nevents; k++)
		if (!spec->events[k]->is_class && !i--)
			return spec->events[k]->name;
	return NULL;
}

/* The format string as the compiler reads the literal: escapes interpreted. */
static void write_unescaped(const char *s, FILE *out)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			fputc(*s == 'n' ? '\n' : *s == 't' ? '\t' : *s, out);
		} else {
			fputc(*s, out);
		}
	}
}

int tev_write_format(const struct tev_spec *spec, const char *event, unsigned int id, FILE *out)
{
	const struct tev_event *ev = find_event(spec, event), *body;
	unsigned int offset = 8;

	if (!ev || ev->is_class)
		return -1;
	body = ev->class ? ev->class : ev;
	fprintf(out, "name: %s\nID: %u\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n", ev->name, id);
	for (size_t i = 0; i < body->nfields; i++) {
		const struct tev_field *f = &body->fields[i];
		unsigned int size = f->size, align = f->align;
		bool is_signed = f->is_signed;

		if (f->kind == FK_STRING || f->kind == FK_DYNARRAY) {
			size = align = 4;
			is_signed = f->kind == FK_DYNARRAY && f->is_signed;
		} else if (f->kind == FK_ARRAY) {
			size *= (unsigned int)strtoul(f->len, NULL, 10);
		} else if (f->kind == FK_FLEX) {
			size = 0;
		}
		offset = (offset + align - 1) / align * align;
		if (f->kind == FK_STRING || f->kind == FK_DYNARRAY)
			fprintf(out, "\tfield:__data_loc %s[] %s;", f->type, f->name);
		else if (f->kind == FK_ARRAY)
			fprintf(out, "\tfield:%s %s[%s];", f->type, f->name, f->len);
		else if (f->kind == FK_FLEX)
			fprintf(out, "\tfield:%s %s[];", f->type, f->name);
		else
			fprintf(out, "\tfield:%s %s;", f->type, f->name);
		fprintf(out, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", offset, size, is_signed);
		offset += size;
	}
	fputs("\nprint fmt: \"", out);
	write_unescaped(body->fmt, out);
	fprintf(out, "\", %s\n", body->print_args);
	return 0;
}

/* --- the command ------------------------------------------------------------------- */

/* The whole file as a string; NULL (errno EILSEQ) if it holds a NUL byte. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			text = xrealloc(text, cap);
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	text[len] = '\0';
	if (ferror(f) || strlen(text) != len) {
		errno = ferror(f) ? EIO : EILSEQ;
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* Write via a temporary file and rename, so a failed run leaves nothing half-written. */
static int write_atomically(const char *path, const struct tev_spec *spec,
			    enum tev_target target, const char *event, unsigned int id)
{
	char tmp[4096];
	FILE *f;
	int ok;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	if (event)
		tev_write_format(spec, event, id, f);
	else if (target == TEV_USER)
		tev_write_user_header(spec, f);
	else
		tev_write_header(spec, f);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static const char tevgen_usage[] =
	"usage: spoor tevgen -o OUT.h SPEC.tev\n"
	"       spoor tevgen -F DIR [-i ID] SPEC.tev   (DIR/<event>/format)\n"
	"       spoor tevgen -u -o OUT.h SPEC.tev      (a ring-3 program's user_events)\n";

int cmd_tevgen(int argc, char **argv)
{
	const char *out = NULL, *fmt_dir = NULL, *spec_path = NULL;
	unsigned int id = 0;
	enum tev_target target = TEV_KERNEL;
	struct tev_spec *spec;
	char err[1024], *text;
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			fputs(tevgen_usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-u"))
			target = TEV_USER;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-F") && i + 1 < argc)
			fmt_dir = argv[++i];
		else if (!strcmp(argv[i], "-i") && i + 1 < argc)
			id = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (argv[i][0] != '-' && !spec_path)
			spec_path = argv[i];
		else
			spec_path = NULL, i = argc;
	}
	/* A user event's format file is the kernel's to make. */
	if (!spec_path || (!out == !fmt_dir) || (target == TEV_USER && fmt_dir)) {
		fputs(tevgen_usage, stderr);
		return 2;
	}
	text = read_file(spec_path);
	if (!text) {
		fprintf(stderr, "%s: error: %s\n", spec_path, strerror(errno));
		return 1;
	}
	spec = tev_parse(spec_path, text, target, err, sizeof(err));
	free(text);
	if (!spec) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (out && write_atomically(out, spec, target, NULL, 0)) {
		fprintf(stderr, "%s: error: cannot write: %s\n", out, strerror(errno));
		ret = 1;
	}
	for (size_t i = 0; fmt_dir && tev_event_name(spec, i); i++) {
		char path[4096];
		const char *name = tev_event_name(spec, i);

		snprintf(path, sizeof(path), "%s/%s", fmt_dir, name);
		mkdir(fmt_dir, 0777);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/%s/format", fmt_dir, name);
		if (write_atomically(path, spec, target, name, id)) {
			fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
			ret = 1;
			break;
		}
	}
	tev_free(spec);
	return ret;
}
