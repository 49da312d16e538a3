/*
 * expr ARG...: POSIX expr over integers and strings. Each operator and
 * operand is an argument of its own; from loosest to tightest binding:
 * |, &, = != < <= > >=, + -, * / %, : (anchored basic regex), ( ).
 * Prints the value; exit 0 if it is neither empty nor 0, 1 if it is,
 * 2 for a syntax or arithmetic error.
 */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/regex.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define EXPR_VAL_MAX	24	/* a decimal long long and its sign */

/* A value: its text always; integer when the text is one. */
struct expr_val {
	char *s;		/* points into argv or into num */
	char num[EXPR_VAL_MAX];
	bool is_int;
	long long i;
};

struct expr_parser {
	char **argv;
	int argc, pos;
	const char *err;	/* the first error; parsing stops there */
};

static void val_str(struct expr_val *v, char *s)
{
	v->s = s;
	v->is_int = !sh_parse_int(s, &v->i);
}

static void val_int(struct expr_val *v, long long i)
{
	snprintf(v->num, sizeof(v->num), "%lld", i);
	v->s = v->num;
	v->is_int = true;
	v->i = i;
}

static bool val_null(const struct expr_val *v)
{
	return !*v->s || (v->is_int && v->i == 0);
}

static char *peek(struct expr_parser *p)
{
	return p->pos < p->argc ? p->argv[p->pos] : NULL;
}

static bool accept(struct expr_parser *p, const char *op)
{
	const char *t = peek(p);

	if (!t || strcmp(t, op))
		return false;
	p->pos++;
	return true;
}

static void parse_or(struct expr_parser *p, struct expr_val *v);

static void parse_primary(struct expr_parser *p, struct expr_val *v)
{
	char *t = peek(p);

	v->num[0] = '\0';
	val_str(v, v->num);
	if (!t) {
		p->err = "syntax error: missing argument";
		return;
	}
	p->pos++;
	if (!strcmp(t, "(")) {
		parse_or(p, v);
		if (!p->err && !accept(p, ")"))
			p->err = "syntax error: expecting ')'";
		return;
	}
	val_str(v, t);
}

/*
 * STRING : REGEX, anchored at the start: what \(...\) matched, or the
 * match length. The group is cut out of the string in place.
 */
static void parse_match(struct expr_parser *p, struct expr_val *v)
{
	parse_primary(p, v);
	while (!p->err && accept(p, ":")) {
		struct expr_val r;
		struct regex *re;
		struct re_match m;
		char err[80];
		size_t len = strlen(v->s);

		parse_primary(p, &r);
		if (p->err)
			return;
		if (regex_compile(&re, r.s, 0, err, sizeof(err))) {
			p->err = "invalid regular expression";
			return;
		}
		if (regex_search(re, v->s, len, 0, &m) && m.start[0] == 0) {
			if (m.start[1] >= 0) {
				v->s[m.end[1]] = '\0';
				val_str(v, v->s + m.start[1]);
			} else {
				val_int(v, m.end[0]);
			}
		} else if (strstr(r.s, "\\(")) {
			v->num[0] = '\0';
			val_str(v, v->num);
		} else {
			val_int(v, 0);
		}
		regex_free(re);
	}
}

static bool need_ints(struct expr_parser *p, const struct expr_val *a, const struct expr_val *b)
{
	if (!a->is_int || !b->is_int)
		p->err = "non-integer argument";
	return !p->err;
}

static void parse_mul(struct expr_parser *p, struct expr_val *v)
{
	parse_match(p, v);
	while (!p->err) {
		struct expr_val r;
		char op;

		if (accept(p, "*"))
			op = '*';
		else if (accept(p, "/"))
			op = '/';
		else if (accept(p, "%"))
			op = '%';
		else
			return;
		parse_match(p, &r);
		if (p->err || !need_ints(p, v, &r))
			return;
		if (op != '*' && r.i == 0) {
			p->err = "division by zero";
			return;
		}
		val_int(v, op == '*' ? v->i * r.i : op == '/' ? v->i / r.i : v->i % r.i);
	}
}

static void parse_add(struct expr_parser *p, struct expr_val *v)
{
	parse_mul(p, v);
	while (!p->err) {
		struct expr_val r;
		bool plus;

		if (accept(p, "+"))
			plus = true;
		else if (accept(p, "-"))
			plus = false;
		else
			return;
		parse_mul(p, &r);
		if (p->err || !need_ints(p, v, &r))
			return;
		val_int(v, plus ? v->i + r.i : v->i - r.i);
	}
}

/* Integers compare as numbers, anything else as strings. */
static void parse_cmp(struct expr_parser *p, struct expr_val *v)
{
	static const char *const ops[] = { "=", "!=", "<", "<=", ">", ">=" };

	parse_add(p, v);
	while (!p->err) {
		struct expr_val r;
		unsigned int op;
		int c;

		for (op = 0; op < ARRAY_SIZE(ops); op++)
			if (accept(p, ops[op]))
				break;
		if (op == ARRAY_SIZE(ops))
			return;
		parse_add(p, &r);
		if (p->err)
			return;
		if (v->is_int && r.is_int)
			c = v->i < r.i ? -1 : v->i > r.i;
		else
			c = strcmp(v->s, r.s);
		switch (op) {
		case 0: c = c == 0; break;
		case 1: c = c != 0; break;
		case 2: c = c < 0; break;
		case 3: c = c <= 0; break;
		case 4: c = c > 0; break;
		default: c = c >= 0; break;
		}
		val_int(v, c);
	}
}

static void parse_and(struct expr_parser *p, struct expr_val *v)
{
	parse_cmp(p, v);
	while (!p->err && accept(p, "&")) {
		struct expr_val r;

		parse_cmp(p, &r);
		if (!p->err && (val_null(v) || val_null(&r)))
			val_int(v, 0);
	}
}

static void parse_or(struct expr_parser *p, struct expr_val *v)
{
	parse_and(p, v);
	while (!p->err && accept(p, "|")) {
		struct expr_val r;

		parse_and(p, &r);
		if (!p->err && val_null(v)) {
			*v = r;
			if (r.s == r.num)
				v->s = v->num;
		}
	}
}

int cmd_expr(int argc, char **argv, char **envp)
{
	struct expr_parser p = { .argv = argv, .argc = argc, .pos = 1 };
	struct expr_val v;
	struct sh_out o;

	parse_or(&p, &v);
	if (!p.err && p.pos < argc)
		p.err = "syntax error: unexpected argument";
	if (p.err) {
		sh_eprintf("expr: %s\n", p.err);
		return 2;
	}
	out_init(&o, 1);
	out_printf(&o, "%s\n", v.s);
	return out_finish(&o, "expr", val_null(&v));
}
