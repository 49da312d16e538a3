/*
 * Arithmetic expansion: C's integer expressions on signed 64-bit values
 * with shell variables as operands, evaluated by precedence climbing.
 * The text has already been through parameter expansion.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>

struct arith {
	struct sh *sh;
	const char *s;
	int noeval;		/* > 0 inside the branch && || ?: skip */
	int depth;
	char *msg;
	size_t msgsize;
	bool failed;
};

static long long arith_fail(struct arith *a, const char *what)
{
	if (!a->failed)
		snprintf(a->msg, a->msgsize, "%s", what);
	a->failed = true;
	return 0;
}

static void skip_blanks(struct arith *a)
{
	while (sh_isspace(*a->s))
		a->s++;
}

/* Does the next token start with op (and not a longer operator)? */
static bool accept(struct arith *a, const char *op)
{
	size_t n = op[1] ? 2 : 1;	/* operators are one or two bytes */

	skip_blanks(a);
	if (a->s[0] != op[0] || (n == 2 && a->s[1] != op[1]))
		return false;
	/* "<" must not take the start of "<<" or "<=", "&" of "&&", ... */
	if (n == 1 && strchr("<>&|=!", op[0]) && (a->s[1] == '=' || a->s[1] == op[0]) &&
	    op[0] != '!')
		return false;
	if (n == 1 && op[0] == '!' && a->s[1] == '=')
		return false;
	if (n == 2 && (op[0] == '<' || op[0] == '>') && op[1] == op[0] && a->s[2] == '=')
		return false;
	a->s += n;
	return true;
}

/* Parse a number: decimal, 0x hex, 0 octal, or base#digits. */
static long long parse_number(struct arith *a, const char *str, const char **end)
{
	unsigned long long v = 0;
	unsigned int base = 10;
	const char *s = str;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		base = 8;
		s++;
	}
	for (;; s++) {
		unsigned int d;

		if (sh_isdigit(*s))
			d = (unsigned)(*s - '0');
		else if (sh_isalpha(*s))
			d = (unsigned)((*s | 32) - 'a' + 10);
		else
			break;
		if (d >= base) {
			*end = s;
			return arith_fail(a, "invalid number");
		}
		v = v * base + d;
	}
	*end = s;
	return (long long)v;
}

static long long var_value(struct arith *a, const char *name)
{
	const char *v = sh_getvar(a->sh, name);
	const char *end;
	long long n;
	bool neg = false;

	if (!v || !*v)
		return 0;
	while (sh_isspace(*v))
		v++;
	if (*v == '-' || *v == '+')
		neg = *v++ == '-';
	if (!sh_isdigit(*v))
		return arith_fail(a, "invalid number");
	n = parse_number(a, v, &end);
	if (a->failed)
		return 0;
	while (sh_isspace(*end))
		end++;
	if (*end)
		return arith_fail(a, "invalid number");
	return neg ? -n : n;
}

static void assign(struct arith *a, const char *name, long long v)
{
	char num[24];

	if (a->noeval || a->failed)
		return;
	snprintf(num, sizeof(num), "%lld", v);
	if (sh_setvar(a->sh, name, num, false))
		arith_fail(a, "cannot assign");
}

static long long parse_expr(struct arith *a);
static long long parse_comma(struct arith *a);
static long long parse_binary(struct arith *a, int prec);

/* l ** r (bash's operator), wrapping like the other operators. */
static long long power(struct arith *a, long long l, long long r)
{
	unsigned long long v = 1, b = (unsigned long long)l;

	if (r < 0)
		return a->noeval ? 0 : arith_fail(a, "exponent less than 0");
	for (; r; r >>= 1, b *= b)
		if (r & 1)
			v *= b;
	return (long long)v;
}

static long long apply(struct arith *a, const char *op, long long l, long long r)
{
	switch (op[0]) {
	case '*':
		if (op[1] == '*')
			return power(a, l, r);
		return (long long)((unsigned long long)l * (unsigned long long)r);
	case '/':
	case '%':
		if (r == 0)
			return a->noeval ? 0 : arith_fail(a, "division by zero");
		if (l == (-9223372036854775807LL - 1) && r == -1)
			return op[0] == '/' ? l : 0;
		return op[0] == '/' ? l / r : l % r;
	case '+': return (long long)((unsigned long long)l + (unsigned long long)r);
	case '-': return (long long)((unsigned long long)l - (unsigned long long)r);
	case '<':
		if (op[1] == '<')
			return (long long)((unsigned long long)l << (r & 63));
		return op[1] == '=' ? l <= r : l < r;
	case '>':
		if (op[1] == '>')
			return l >> (r & 63);
		return op[1] == '=' ? l >= r : l > r;
	case '=': return l == r;
	case '!': return l != r;
	case '&': return l & r;
	case '^': return l ^ r;
	default: return l | r;
	}
}

/* Read an identifier into name; false (and failed) if it is too long. */
static bool read_name(struct arith *a, char *name, size_t size)
{
	const char *start = a->s;
	size_t n;

	while (sh_isname(*a->s))
		a->s++;
	n = (size_t)(a->s - start);
	if (n >= size) {
		arith_fail(a, "name too long");
		return false;
	}
	memcpy(name, start, n);
	name[n] = '\0';
	return true;
}

/* Identifier operand, with its assignment and postfix ++/-- forms. */
static long long parse_name(struct arith *a)
{
	static const char *const ops[] = { "<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=" };
	char name[64];
	long long v;

	if (!read_name(a, name, sizeof(name)))
		return 0;
	skip_blanks(a);
	if (a->s[0] == '=' && a->s[1] != '=') {
		a->s++;
		v = parse_expr(a);
		assign(a, name, v);
		return v;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t len = strlen(ops[i]);

		if (!strncmp(a->s, ops[i], len)) {
			char op[3] = { ops[i][0], len == 3 ? ops[i][1] : 0, 0 };

			a->s += len;
			v = parse_expr(a);
			v = apply(a, op, var_value(a, name), v);
			assign(a, name, v);
			return v;
		}
	}
	if (!strncmp(a->s, "++", 2) || !strncmp(a->s, "--", 2)) {
		v = var_value(a, name);
		assign(a, name, a->s[0] == '+' ? v + 1 : v - 1);
		a->s += 2;
		return v;
	}
	return var_value(a, name);
}

static long long parse_unary(struct arith *a)
{
	long long v;

	skip_blanks(a);
	if (++a->depth > SH_MAX_NESTING)
		return arith_fail(a, "expression too deep");
	if ((a->s[0] == '+' || a->s[0] == '-') && a->s[1] == a->s[0]) {
		char name[64];
		bool inc = a->s[0] == '+';

		a->s += 2;
		skip_blanks(a);
		if (!sh_isname1(*a->s))
			return arith_fail(a, "syntax error");
		if (!read_name(a, name, sizeof(name)))
			return 0;
		v = var_value(a, name) + (inc ? 1 : -1);
		assign(a, name, v);
	} else if (sh_isdigit(*a->s)) {
		/* Operands first: they are what most calls find. */
		v = parse_number(a, a->s, &a->s);
		if (sh_isname(*a->s))
			v = arith_fail(a, "invalid number");
	} else if (sh_isname1(*a->s)) {
		v = parse_name(a);
	} else if (accept(a, "+")) {
		v = parse_unary(a);
	} else if (accept(a, "-")) {
		v = (long long)(0ULL - (unsigned long long)parse_unary(a));
	} else if (accept(a, "!")) {
		v = !parse_unary(a);
	} else if (accept(a, "~")) {
		v = ~parse_unary(a);
	} else if (accept(a, "(")) {
		v = parse_comma(a);
		if (!accept(a, ")"))
			v = arith_fail(a, "missing ')'");
	} else {
		v = arith_fail(a, *a->s ? "syntax error" : "missing operand");
	}
	a->depth--;
	return v;
}

/* Binary operators from loosest (1) to tightest (11); ** is right-associative. */
static const struct { const char *op; int prec; } binops[] = {
	{ "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 },
	{ "==", 6 }, { "!=", 6 }, { "<=", 7 }, { ">=", 7 }, { "<<", 8 }, { ">>", 8 },
	{ "<", 7 }, { ">", 7 }, { "+", 9 }, { "-", 9 }, { "**", 11 }, { "*", 10 }, { "/", 10 }, { "%", 10 },
};

static long long parse_binary(struct arith *a, int prec)
{
	long long l = parse_unary(a);

	while (!a->failed) {
		size_t i;

		/* Most operands end the expression or a parenthesis: no table walk for them. */
		skip_blanks(a);
		if (!*a->s || !strchr("|&^=!<>+-*/%", *a->s))
			break;
		for (i = 0; i < ARRAY_SIZE(binops); i++)
			if (binops[i].prec >= prec && accept(a, binops[i].op))
				break;
		if (i == ARRAY_SIZE(binops))
			break;
		if (binops[i].prec <= 2) {
			bool lv = l != 0, skip = binops[i].prec == 1 ? lv : !lv;
			long long r;

			a->noeval += skip;
			r = parse_binary(a, binops[i].prec + 1);
			a->noeval -= skip;
			l = binops[i].prec == 1 ? (lv || r) : (lv && r);
		} else {
			int rprec = binops[i].prec + (binops[i].prec != 11);

			l = apply(a, binops[i].op, l, parse_binary(a, rprec));
		}
	}
	return l;
}

static long long parse_expr(struct arith *a)
{
	long long c = parse_binary(a, 1), t, f;

	if (!accept(a, "?"))
		return c;
	a->noeval += !c;
	t = parse_expr(a);
	a->noeval -= !c;
	if (!accept(a, ":"))
		return arith_fail(a, "missing ':'");
	a->noeval += !!c;
	f = parse_expr(a);
	a->noeval -= !!c;
	return c ? t : f;
}

/* a, b: both evaluated (for their assignments), the value is b's. */
static long long parse_comma(struct arith *a)
{
	long long v = parse_expr(a);

	while (!a->failed && accept(a, ","))
		v = parse_expr(a);
	return v;
}

int sh_arith(struct sh *sh, const char *expr, long long *result, char *msg, size_t msgsize)
{
	struct arith a = { .sh = sh, .s = expr, .msg = msg, .msgsize = msgsize };
	long long v;

	skip_blanks(&a);
	if (!*a.s) {
		*result = 0;
		return 0;
	}
	v = parse_comma(&a);
	skip_blanks(&a);
	if (!a.failed && *a.s)
		arith_fail(&a, "syntax error");
	if (a.failed)
		return -1;
	*result = v;
	return 0;
}
