/*
 * The arguments of a print fmt: C expressions over REC->field, casts,
 * the __print_flags/__get_str family of helpers and constant tables,
 * parsed into trees with field offsets resolved and table values folded.
 */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report_printfmt.h"

#define PF_MAX_DEPTH	64	/* nesting of parentheses/operators: a limit, not a guess */

void pf_free_node(struct pf_node *n)
{
	if (!n)
		return;
	pf_free_node(n->a);
	pf_free_node(n->b);
	pf_free_node(n->c);
	for (unsigned int i = 0; i < n->nr_syms; i++)
		free(n->syms[i].name);
	free(n->syms);
	free(n->str);
	free(n);
}

static struct pf_node *new_node(struct pf_parser *ps, enum node_op op)
{
	struct pf_node *n = calloc(1, sizeof(*n));

	if (!n)
		pf_fail(ps, "out of memory");
	else
		n->op = op;
	return n;
}

static struct pf_node *parse_cond(struct pf_parser *ps);
static struct pf_node *parse_unary(struct pf_parser *ps);

/* Base types a cast may name, with their size and sign (0 size: pointer-sized or kept). */
static const struct {
	const char *name;
	unsigned char size;
	bool sign;
} cast_types[] = {
	{ "char", 1, true }, { "short", 2, true }, { "int", 4, true }, { "long", 8, true },
	{ "bool", 1, false }, { "_Bool", 1, false },
	{ "u8", 1, false }, { "u16", 2, false }, { "u32", 4, false }, { "u64", 8, false },
	{ "s8", 1, true }, { "s16", 2, true }, { "s32", 4, true }, { "s64", 8, true },
	{ "__u8", 1, false }, { "__u16", 2, false }, { "__u32", 4, false }, { "__u64", 8, false },
	{ "__s8", 1, true }, { "__s16", 2, true }, { "__s32", 4, true }, { "__s64", 8, true },
	{ "gfp_t", 4, false }, { "pid_t", 4, true }, { "size_t", 8, false }, { "ssize_t", 8, true },
	{ "uintptr_t", 8, false }, { "void", 8, false }, { "uint", 4, false },
	{ "ulong", 8, false }, { "ushort", 2, false }, { "uchar", 1, false },
};

static bool type_word(const struct pf_tok *t)
{
	static const char *const quals[] = { "unsigned", "signed", "const", "volatile", "struct",
					     "union", "enum" };

	if (t->kind != T_IDENT)
		return false;
	for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++)
		if (t->len == strlen(quals[i]) && !memcmp(t->p, quals[i], t->len))
			return true;
	for (size_t i = 0; i < sizeof(cast_types) / sizeof(cast_types[0]); i++)
		if (t->len == strlen(cast_types[i].name) && !memcmp(t->p, cast_types[i].name, t->len))
			return true;
	return t->len > 2 && !memcmp(t->p + t->len - 2, "_t", 2);
}

/*
 * After '(' with a type word in front: read "T [T...] [*...] )" into a
 * cast node. The size and sign come from the last base type word; a '*'
 * makes it a pointer (unsigned, 8 bytes); struct/union/enum names keep
 * the value as it is.
 */
static struct pf_node *parse_cast(struct pf_parser *ps)
{
	struct pf_node *n = new_node(ps, N_CAST);
	bool is_unsigned = false, is_signed = false, pointer = false, aggregate = false;
	int longs = 0;

	if (!n)
		return NULL;
	n->cast_size = 0;
	n->cast_signed = false;
	while (ps->tok.kind == T_IDENT) {
		const struct pf_tok *t = &ps->tok;

		if (pf_is_ident(ps, "unsigned")) {
			is_unsigned = true;
		} else if (pf_is_ident(ps, "signed")) {
			is_signed = true;
		} else if (pf_is_ident(ps, "struct") || pf_is_ident(ps, "union") || pf_is_ident(ps, "enum")) {
			aggregate = !pf_is_ident(ps, "enum");
			if (pf_is_ident(ps, "enum")) {
				n->cast_size = 4;
				n->cast_signed = false;
			}
			pf_next(ps);	/* the tag */
		} else if (pf_is_ident(ps, "long")) {
			longs++;
			n->cast_size = 8;
			n->cast_signed = true;
		} else if (!pf_is_ident(ps, "const") && !pf_is_ident(ps, "volatile")) {
			for (size_t i = 0; i < sizeof(cast_types) / sizeof(cast_types[0]); i++) {
				if (t->len == strlen(cast_types[i].name) &&
				    !memcmp(t->p, cast_types[i].name, t->len)) {
					if (!longs || strcmp(cast_types[i].name, "int")) {
						n->cast_size = cast_types[i].size;
						n->cast_signed = cast_types[i].sign;
					}
				}
			}
		}
		pf_next(ps);
	}
	while (pf_accept(ps, "*"))
		pointer = true;
	pf_expect(ps, ")");
	if (pointer || aggregate) {
		n->cast_size = 0;
		n->cast_signed = false;
	} else if (!n->cast_size && (is_unsigned || is_signed)) {
		n->cast_size = 4;	/* "unsigned" alone is unsigned int */
	}
	if (is_unsigned && !pointer)
		n->cast_signed = false;
	if (is_signed && !pointer)
		n->cast_signed = true;
	n->a = parse_unary(ps);
	return n;
}

/* REC->name: the field, or a parse error naming what is missing. */
static const struct rep_field *field_ref(struct pf_parser *ps)
{
	const struct rep_field *f = NULL;
	char name[128];

	if (ps->tok.kind != T_IDENT || ps->tok.len >= sizeof(name)) {
		pf_fail(ps, "expected a field name");
		return NULL;
	}
	memcpy(name, ps->tok.p, ps->tok.len);
	name[ps->tok.len] = 0;
	f = rep_find_field(ps->ev, name);
	if (!f)
		pf_fail(ps, "no such field");
	pf_next(ps);
	return f;
}

/*
 * A table entry's value. A name trace-cmd does not know (an enum the
 * kernel left unconverted, IOPRIO_CLASS_NONE) and a value not starting
 * with a digit ({ -6ULL, "TREE_LOG" }) are all ones there, so they match
 * nothing; the softirq and hrtimer names it knows have their values.
 */
static uint64_t table_value(struct pf_parser *ps, const struct pf_node *v)
{
	static const char *const known[] = {
		"HI_SOFTIRQ", "TIMER_SOFTIRQ", "NET_TX_SOFTIRQ", "NET_RX_SOFTIRQ", "BLOCK_SOFTIRQ",
		"IRQ_POLL_SOFTIRQ", "TASKLET_SOFTIRQ", "SCHED_SOFTIRQ", "HRTIMER_SOFTIRQ", "RCU_SOFTIRQ",
	};
	bool ok = true;
	uint64_t value;

	if (v && v->op == N_NUM && v->str) {
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(v->str, known[i]))
				return i;
		if (!strcmp(v->str, "HRTIMER_NORESTART") || !strcmp(v->str, "HRTIMER_RESTART"))
			return v->str[8] == 'R';
		return ~0ull;
	}
	if (v && v->op == N_UNARY && v->opch[0] == '-')
		return ~0ull;
	value = pf_fold(v, &ok);
	if (!ok)
		pf_fail(ps, "flag value is not a constant");
	return value;
}

/* __print_flags/__print_symbolic tables: { value, "name" }, ... */
static void parse_table(struct pf_parser *ps, struct pf_node *n)
{
	while (pf_accept(ps, ",")) {
		struct pf_node *v;
		struct pf_sym *ns;

		if (!pf_accept(ps, "{")) {
			pf_fail(ps, "expected '{'");
			return;
		}
		if (pf_accept(ps, "}")) {	/* an empty entry: trace-cmd's parser stops there */
			ps->tracecmd_fails = true;
			continue;
		}
		v = pf_parse_expr(ps);
		pf_expect(ps, ",");
		if (ps->err) {
			pf_free_node(v);
			return;
		}
		if (ps->tok.kind != T_STR) {
			/* { 0, NULL } or { 0, ((void *)0) } ends a kernel table. */
			struct pf_node *z = parse_cond(ps);
			bool ok = true;
			uint64_t zv = pf_fold(z, &ok);

			pf_free_node(z);
			pf_free_node(v);
			if (!ok || zv)
				pf_fail(ps, "expected a string in a flag table");
			pf_expect(ps, "}");
			if (ps->err)
				return;
			continue;
		}
		ns = realloc(n->syms, (n->nr_syms + 1) * sizeof(*ns));
		if (!ns) {
			pf_free_node(v);
			pf_fail(ps, "out of memory");
			return;
		}
		n->syms = ns;
		ns[n->nr_syms].value = 0;
		ns[n->nr_syms].name = NULL;
		{
			size_t l;

			ns[n->nr_syms].name = pf_string_literal(ps, &l);
		}
		/* Table values are constants: fold them now. */
		ns[n->nr_syms].value = table_value(ps, v);
		n->nr_syms++;
		pf_free_node(v);
		pf_expect(ps, "}");
		if (ps->err)
			return;
	}
}

/* Past the bracket that closes the one just passed ("(", "{" or "["), whatever is inside. */
static void skip_balanced(struct pf_parser *ps)
{
	int depth = 1;

	for (; ps->tok.kind != T_END && ps->tok.kind != T_BAD; pf_next(ps)) {
		if (ps->tok.kind != T_PUNCT)
			continue;
		if (strchr("({[", ps->tok.punct[0]))
			depth++;
		else if (strchr(")}]", ps->tok.punct[0]) && !--depth)
			break;
	}
	if (depth)
		pf_fail(ps, "unbalanced brackets");
	else
		pf_next(ps);
}

/*
 * Calls with a value trace-cmd can work out: __builtin_expect(x, hint) is
 * x, and jiffies_to_msecs(x) is x as trace-cmd's jbd2 plugin gives it (it
 * cannot know the kernel's HZ). A function trace-cmd does not know fails
 * its print fmt; it takes 0 here, and the print fmt is marked.
 */
static struct pf_node *parse_other_call(struct pf_parser *ps, const char *name, size_t len)
{
	struct pf_node *n;

	if ((len == 16 && !memcmp(name, "__builtin_expect", 16)) ||
	    (len == 16 && !memcmp(name, "jiffies_to_msecs", 16))) {
		n = new_node(ps, N_FIRST_ARG);
		if (!n)
			return NULL;
		ps->plugin_fn |= name[0] == 'j';
		n->a = parse_cond(ps);
		if (name[0] == '_') {
			pf_expect(ps, ",");
			n->b = parse_cond(ps);
		}
		pf_expect(ps, ")");
		return n;
	}
	ps->tracecmd_fails = true;
	skip_balanced(ps);
	return new_node(ps, N_NUM);
}

/* The helpers print fmts call: name(args). */
static struct pf_node *parse_call(struct pf_parser *ps, const char *name, size_t len)
{
	static const struct {
		const char *name;
		enum node_op op;
		bool relative;
	} calls[] = {
		{ "__get_str", N_GET_STR, false }, { "__get_rel_str", N_GET_STR, true },
		{ "__get_dynamic_array", N_DYN_ARRAY, false },
		{ "__get_rel_dynamic_array", N_DYN_ARRAY, true },
		{ "__get_dynamic_array_len", N_DYN_LEN, false },
		{ "__get_rel_dynamic_array_len", N_DYN_LEN, true },
		{ "__get_bitmask", N_BITMASK, false }, { "__get_rel_bitmask", N_BITMASK, true },
		{ "__get_cpumask", N_BITMASK, false }, { "__get_rel_cpumask", N_BITMASK, true },
		{ "__print_flags", N_FLAGS, false }, { "__print_flags_u64", N_FLAGS, false },
		{ "__print_symbolic", N_SYMBOLIC, false }, { "__print_symbolic_u64", N_SYMBOLIC, false },
		{ "__print_hex", N_HEX, false }, { "__print_hex_str", N_HEX_STR, false },
		{ "__print_array", N_ARRAY, false },
	};
	struct pf_node *n = NULL;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (len == strlen(calls[i].name) && !memcmp(name, calls[i].name, len))
			break;
	if (i == sizeof(calls) / sizeof(calls[0]))
		return parse_other_call(ps, name, len);
	n = new_node(ps, calls[i].op);
	if (!n)
		return NULL;
	switch (n->op) {
	case N_GET_STR:
	case N_DYN_ARRAY:
	case N_DYN_LEN:
	case N_BITMASK:
		n->field = field_ref(ps);
		if (n->field && !(n->field->flags & FIELD_DYNAMIC))
			pf_fail(ps, "not a __data_loc/__rel_loc field");
		break;
	case N_FLAGS:
		n->a = parse_cond(ps);
		pf_expect(ps, ",");
		if (ps->tok.kind != T_STR) {
			pf_fail(ps, "expected the delimiter string");
			break;
		}
		n->str = pf_string_literal(ps, &n->slen);
		parse_table(ps, n);
		break;
	case N_SYMBOLIC:
		n->a = parse_cond(ps);
		parse_table(ps, n);
		break;
	case N_HEX:
	case N_HEX_STR:
		n->a = parse_cond(ps);
		pf_expect(ps, ",");
		n->b = parse_cond(ps);
		break;
	case N_ARRAY:
		n->a = parse_cond(ps);
		pf_expect(ps, ",");
		n->b = parse_cond(ps);
		pf_expect(ps, ",");
		n->c = parse_cond(ps);
		break;
	default:
		break;
	}
	pf_expect(ps, ")");
	return n;
}

/* After REC (or "(REC)"): "->field" or ".field". */
static struct pf_node *rec_field(struct pf_parser *ps)
{
	struct pf_node *n;

	if (!pf_accept(ps, "->") && !pf_accept(ps, ".")) {
		pf_fail(ps, "expected '->' after REC");
		return NULL;
	}
	n = new_node(ps, N_FIELD);
	if (n)
		n->field = field_ref(ps);
	return n;
}

static struct pf_node *parse_primary(struct pf_parser *ps)
{
	struct pf_node *n;

	switch (ps->tok.kind) {
	case T_NUM:
		n = new_node(ps, N_NUM);
		if (n)
			n->num = ps->tok.num;
		pf_next(ps);
		return n;
	case T_STR:
		n = new_node(ps, N_STR);
		if (n)
			n->str = pf_string_literal(ps, &n->slen);
		return n;
	case T_IDENT: {
		const char *name = ps->tok.p;
		size_t len = ps->tok.len;

		pf_next(ps);
		if (len == 3 && !memcmp(name, "REC", 3))
			return rec_field(ps);
		if (pf_accept(ps, "("))
			return parse_call(ps, name, len);
		/*
		 * A kernel symbol the print fmt names (vmemmap_base, jiffies):
		 * trace-cmd cannot know its value and takes 0. The name stays
		 * for flag tables (table_value).
		 */
		n = new_node(ps, N_NUM);
		if (n && !(n->str = strndup(name, len)))
			pf_fail(ps, "out of memory");
		return n;
	}
	case T_PUNCT:
		if (pf_accept(ps, "(")) {
			if (pf_accept(ps, "{")) {	/* ({ ...; value; }): C that trace-cmd cannot run */
				ps->tracecmd_fails = true;
				skip_balanced(ps);
				pf_expect(ps, ")");
				return new_node(ps, N_NUM);
			}
			if (type_word(&ps->tok))
				return parse_cast(ps);
			if (pf_is_ident(ps, "REC")) {	/* (REC)->field */
				struct pf_parser save = *ps;

				pf_next(ps);
				if (pf_accept(ps, ")"))
					return rec_field(ps);
				*ps = save;
			}
			n = pf_parse_expr(ps);
			pf_expect(ps, ")");
			return n;
		}
		pf_fail(ps, "unexpected character");
		return NULL;
	default:
		pf_fail(ps, ps->tok.kind == T_BAD ? "unterminated string" : "unexpected end");
		return NULL;
	}
}

static struct pf_node *parse_postfix(struct pf_parser *ps)
{
	struct pf_node *n = parse_primary(ps);

	while (!ps->err && pf_accept(ps, "[")) {
		struct pf_node *i = new_node(ps, N_INDEX);

		if (!i)
			break;
		i->a = n;
		i->b = pf_parse_expr(ps);
		pf_expect(ps, "]");
		n = i;
	}
	return n;
}

static struct pf_node *parse_unary(struct pf_parser *ps)
{
	static const char *const ops[] = { "-", "+", "!", "~", "*", "&" };
	struct pf_node *n;

	if (++ps->depth > PF_MAX_DEPTH) {
		pf_fail(ps, "expression nested too deeply");
		return NULL;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (pf_is_punct(ps, ops[i])) {
			pf_next(ps);
			n = new_node(ps, N_UNARY);
			if (n) {
				strcpy(n->opch, ops[i]);
				n->a = parse_unary(ps);
			}
			ps->depth--;
			return n;
		}
	}
	if (pf_is_ident(ps, "sizeof")) {
		pf_next(ps);
		pf_expect(ps, "(");
		n = new_node(ps, N_NUM);
		if (n)
			n->num = 8;	/* what a pointer or long takes: the only sizeof print fmts use */
		while (!ps->err && ps->tok.kind != T_END && !pf_is_punct(ps, ")"))
			pf_next(ps);
		pf_expect(ps, ")");
		ps->depth--;
		return n;
	}
	n = parse_postfix(ps);
	ps->depth--;
	return n;
}

/* Binary operator precedence, C's; 0 for text that is not one. */
static int op_prec(const char *op)
{
	static const struct {
		const char *op;
		int prec;
	} table[] = {
		{ "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 }, { "==", 6 },
		{ "!=", 6 }, { "<", 7 }, { ">", 7 }, { "<=", 7 }, { ">=", 7 }, { "<<", 8 },
		{ ">>", 8 }, { "+", 9 }, { "-", 9 }, { "*", 10 }, { "/", 10 }, { "%", 10 },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(op, table[i].op))
			return table[i].prec;
	return 0;
}

static int prec(const struct pf_parser *ps)
{
	return ps->tok.kind == T_PUNCT ? op_prec(ps->tok.punct) : 0;
}

/*
 * libtraceevent loses the parentheses of a right operand whose operator
 * binds less than the one before it: x & (A | B) is (x & A) | B there,
 * x * (y + 1) is x * y + 1 (a left operand, or an equal one, keeps them).
 * n's tree is regrouped the same way, so that values are trace-cmd's.
 */
static struct pf_node *tracecmd_regroup(struct pf_node *n)
{
	struct pf_node *r = n->b;

	if (!r || r->op != N_BINARY || op_prec(r->opch) >= op_prec(n->opch))
		return n;
	n->b = r->a;
	r->a = tracecmd_regroup(n);
	return r;
}

static struct pf_node *parse_binary(struct pf_parser *ps, int min_prec)
{
	struct pf_node *lhs = parse_unary(ps);
	int p;

	while (!ps->err && (p = prec(ps)) >= min_prec) {
		struct pf_node *n = new_node(ps, N_BINARY);

		if (!n)
			break;
		strcpy(n->opch, ps->tok.punct);
		pf_next(ps);
		n->a = lhs;
		n->b = parse_binary(ps, p + 1);
		lhs = tracecmd_regroup(n);
	}
	return lhs;
}

static struct pf_node *parse_cond(struct pf_parser *ps)
{
	struct pf_node *c = parse_binary(ps, 1), *n;

	if (ps->err || !pf_accept(ps, "?"))
		return c;
	n = new_node(ps, N_COND);
	if (!n)
		return c;
	n->a = c;
	if (++ps->depth > PF_MAX_DEPTH) {
		pf_fail(ps, "expression nested too deeply");
		return n;
	}
	n->b = pf_parse_expr(ps);
	pf_expect(ps, ":");
	n->c = parse_cond(ps);
	ps->depth--;
	return n;
}

struct pf_node *pf_parse_expr(struct pf_parser *ps)
{
	return parse_cond(ps);
}
