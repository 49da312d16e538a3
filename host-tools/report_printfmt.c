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
 * Linux's %p extensions.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

#define PF_MAX_DEPTH	64	/* nesting of parentheses/operators: a limit, not a guess */

/* ---- the lexer ---------------------------------------------------------------------- */

enum tok_kind { T_END, T_NUM, T_STR, T_IDENT, T_PUNCT, T_BAD };

struct tok {
	enum tok_kind kind;
	const char *p;		/* start in the text */
	size_t len;
	uint64_t num;
	char punct[3];		/* operator text */
};

struct parser {
	struct rep_event *ev;
	const char *text, *pos, *end;
	struct tok tok;
	const char *err;
	size_t err_pos;
	int depth;
};

static void fail(struct parser *ps, const char *msg)
{
	if (!ps->err) {
		ps->err = msg;
		ps->err_pos = (size_t)(ps->tok.p - ps->text);
	}
}

static void next(struct parser *ps)
{
	static const char *const two[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *p = ps->pos;
	struct tok *t = &ps->tok;

	while (p < ps->end && isspace((unsigned char)*p))
		p++;
	t->p = p;
	t->len = 0;
	if (p >= ps->end) {
		t->kind = T_END;
		return;
	}
	if (isdigit((unsigned char)*p)) {
		char *e;

		t->kind = T_NUM;
		t->num = strtoull(p, &e, 0);
		/* strtoull would read past a bounded text only through digits; check. */
		if (e > ps->end)
			e = (char *)ps->end;
		while (e < ps->end && (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L'))
			e++;
		t->len = (size_t)(e - p);
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		const char *q = p;

		while (q < ps->end && (isalnum((unsigned char)*q) || *q == '_'))
			q++;
		t->kind = T_IDENT;
		t->len = (size_t)(q - p);
	} else if (*p == '"' || *p == '\'') {
		const char *q = p + 1;

		while (q < ps->end && *q != *p)
			q += *q == '\\' ? 2 : 1;
		if (q >= ps->end) {
			t->kind = T_BAD;
			t->len = (size_t)(ps->end - p);
		} else {
			t->kind = *p == '"' ? T_STR : T_NUM;
			t->len = (size_t)(q + 1 - p);
			if (t->kind == T_NUM)
				t->num = p[1] == '\\' && q - p > 2 ? (p[2] == 'n' ? '\n' : p[2] == '0' ? 0 :
					 (unsigned char)p[2]) : (unsigned char)p[1];
		}
	} else {
		t->kind = T_PUNCT;
		t->len = 1;
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
			if (p + 1 < ps->end && p[0] == two[i][0] && p[1] == two[i][1])
				t->len = 2;
		memcpy(t->punct, p, t->len);
		t->punct[t->len] = 0;
	}
	ps->pos = p + t->len;
}

static bool is_punct(const struct parser *ps, const char *s)
{
	return ps->tok.kind == T_PUNCT && !strcmp(ps->tok.punct, s);
}

static bool is_ident(const struct parser *ps, const char *s)
{
	return ps->tok.kind == T_IDENT && ps->tok.len == strlen(s) && !memcmp(ps->tok.p, s, ps->tok.len);
}

static bool accept(struct parser *ps, const char *s)
{
	if (!is_punct(ps, s))
		return false;
	next(ps);
	return true;
}

static void expect(struct parser *ps, const char *s)
{
	if (!accept(ps, s))
		fail(ps, s[0] == ')' ? "expected ')'" : s[0] == ',' ? "expected ','" :
		     s[0] == '}' ? "expected '}'" : s[0] == ']' ? "expected ']'" : "expected ':'");
}

/* A string literal's contents with C escapes decoded. */
static char *unquote(const char *p, size_t len, size_t *out_len)
{
	char *s = malloc(len + 1), *d = s;

	if (!s)
		return NULL;
	for (size_t i = 1; i + 1 < len; i++) {
		char c = p[i];

		if (c == '\\' && i + 2 < len) {
			c = p[++i];
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case '0': c = 0; break;
			default: break;
			}
		}
		*d++ = c;
	}
	*d = 0;
	*out_len = (size_t)(d - s);
	return s;
}

/* A string literal and the ones right after it ("a" "b"), decoded; the parser moves past them. */
static char *string_literal(struct parser *ps, size_t *len)
{
	char *s = unquote(ps->tok.p, ps->tok.len, len);

	next(ps);
	while (s && ps->tok.kind == T_STR) {
		size_t l;
		char *more = unquote(ps->tok.p, ps->tok.len, &l), *cat;

		cat = more ? realloc(s, *len + l + 1) : NULL;
		if (cat) {
			memcpy(cat + *len, more, l + 1);
			s = cat;
			*len += l;
		}
		free(more);
		next(ps);
	}
	return s;
}

/* ---- expression trees ----------------------------------------------------------------- */

enum node_op {
	N_NUM, N_STR, N_FIELD, N_INDEX, N_UNARY, N_BINARY, N_COND, N_CAST,
	N_GET_STR, N_DYN_ARRAY, N_DYN_LEN, N_FLAGS, N_SYMBOLIC, N_HEX, N_HEX_STR, N_ARRAY,
	N_BITMASK,
};

/* One entry of a __print_flags/__print_symbolic table, folded to a number. */
struct pf_sym {
	uint64_t value;
	char *name;
};

struct node {
	enum node_op op;
	char opch[3];		/* N_UNARY/N_BINARY operator */
	uint64_t num;
	char *str;		/* N_STR text, N_FLAGS delimiter */
	size_t slen;
	const struct rep_field *field;
	/* N_CAST: bytes kept (0: all) and sign; pointer casts scale nothing */
	unsigned int cast_size;
	bool cast_signed;
	struct node *a, *b, *c;
	struct pf_sym *syms;
	unsigned int nr_syms;
};

static void free_node(struct node *n)
{
	if (!n)
		return;
	free_node(n->a);
	free_node(n->b);
	free_node(n->c);
	for (unsigned int i = 0; i < n->nr_syms; i++)
		free(n->syms[i].name);
	free(n->syms);
	free(n->str);
	free(n);
}

static struct node *new_node(struct parser *ps, enum node_op op)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		fail(ps, "out of memory");
	else
		n->op = op;
	return n;
}

static struct node *parse_expr(struct parser *ps);
static struct node *parse_cond(struct parser *ps);
static uint64_t fold(const struct node *n, bool *ok);
static struct node *parse_unary(struct parser *ps);

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

static bool type_word(const struct tok *t)
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
static struct node *parse_cast(struct parser *ps)
{
	struct node *n = new_node(ps, N_CAST);
	bool is_unsigned = false, is_signed = false, pointer = false, aggregate = false;
	int longs = 0;

	if (!n)
		return NULL;
	n->cast_size = 0;
	n->cast_signed = false;
	while (ps->tok.kind == T_IDENT) {
		const struct tok *t = &ps->tok;

		if (is_ident(ps, "unsigned")) {
			is_unsigned = true;
		} else if (is_ident(ps, "signed")) {
			is_signed = true;
		} else if (is_ident(ps, "struct") || is_ident(ps, "union") || is_ident(ps, "enum")) {
			aggregate = !is_ident(ps, "enum");
			if (is_ident(ps, "enum")) {
				n->cast_size = 4;
				n->cast_signed = false;
			}
			next(ps);	/* the tag */
		} else if (is_ident(ps, "long")) {
			longs++;
			n->cast_size = 8;
			n->cast_signed = true;
		} else if (!is_ident(ps, "const") && !is_ident(ps, "volatile")) {
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
		next(ps);
	}
	while (accept(ps, "*"))
		pointer = true;
	expect(ps, ")");
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
static const struct rep_field *field_ref(struct parser *ps)
{
	const struct rep_field *f = NULL;
	char name[128];

	if (ps->tok.kind != T_IDENT || ps->tok.len >= sizeof(name)) {
		fail(ps, "expected a field name");
		return NULL;
	}
	memcpy(name, ps->tok.p, ps->tok.len);
	name[ps->tok.len] = 0;
	f = rep_find_field(ps->ev, name);
	if (!f)
		fail(ps, "no such field");
	next(ps);
	return f;
}

/* __print_flags/__print_symbolic tables: { value, "name" }, ... */
static void parse_table(struct parser *ps, struct node *n)
{
	while (accept(ps, ",")) {
		struct node *v;
		struct pf_sym *ns;

		if (!accept(ps, "{")) {
			fail(ps, "expected '{'");
			return;
		}
		v = parse_expr(ps);
		expect(ps, ",");
		if (ps->err) {
			free_node(v);
			return;
		}
		if (ps->tok.kind != T_STR) {
			/* { 0, NULL } or { 0, ((void *)0) } ends a kernel table. */
			struct node *z = parse_cond(ps);
			bool ok = true;
			uint64_t zv = fold(z, &ok);

			free_node(z);
			free_node(v);
			if (!ok || zv)
				fail(ps, "expected a string in a flag table");
			expect(ps, "}");
			if (ps->err)
				return;
			continue;
		}
		ns = realloc(n->syms, (n->nr_syms + 1) * sizeof(*ns));
		if (!ns) {
			free_node(v);
			fail(ps, "out of memory");
			return;
		}
		n->syms = ns;
		ns[n->nr_syms].value = 0;
		ns[n->nr_syms].name = NULL;
		{
			size_t l;

			ns[n->nr_syms].name = string_literal(ps, &l);
		}
		/*
		 * Table values are constants: fold them now. trace-cmd reads a
		 * negative one ({ -6ULL, "TREE_LOG" }) as all ones: so do we.
		 */
		{
			bool ok = true;

			ns[n->nr_syms].value = v && v->op == N_UNARY && v->opch[0] == '-' ? ~0ull :
					       fold(v, &ok);
			if (!ok)
				fail(ps, "flag value is not a constant");
		}
		n->nr_syms++;
		free_node(v);
		expect(ps, "}");
		if (ps->err)
			return;
	}
}

/* The helpers print fmts call: name(args). */
static struct node *parse_call(struct parser *ps, const char *name, size_t len)
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
	struct node *n = NULL;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (len == strlen(calls[i].name) && !memcmp(name, calls[i].name, len))
			break;
	if (i == sizeof(calls) / sizeof(calls[0])) {
		fail(ps, "unknown function");
		return NULL;
	}
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
			fail(ps, "not a __data_loc/__rel_loc field");
		break;
	case N_FLAGS:
		n->a = parse_cond(ps);
		expect(ps, ",");
		if (ps->tok.kind != T_STR) {
			fail(ps, "expected the delimiter string");
			break;
		}
		n->str = string_literal(ps, &n->slen);
		parse_table(ps, n);
		break;
	case N_SYMBOLIC:
		n->a = parse_cond(ps);
		parse_table(ps, n);
		break;
	case N_HEX:
	case N_HEX_STR:
		n->a = parse_cond(ps);
		expect(ps, ",");
		n->b = parse_cond(ps);
		break;
	case N_ARRAY:
		n->a = parse_cond(ps);
		expect(ps, ",");
		n->b = parse_cond(ps);
		expect(ps, ",");
		n->c = parse_cond(ps);
		break;
	default:
		break;
	}
	expect(ps, ")");
	return n;
}

static struct node *parse_primary(struct parser *ps)
{
	struct node *n;

	switch (ps->tok.kind) {
	case T_NUM:
		n = new_node(ps, N_NUM);
		if (n)
			n->num = ps->tok.num;
		next(ps);
		return n;
	case T_STR:
		n = new_node(ps, N_STR);
		if (n)
			n->str = string_literal(ps, &n->slen);
		return n;
	case T_IDENT: {
		const char *name = ps->tok.p;
		size_t len = ps->tok.len;

		next(ps);
		if (len == 3 && !memcmp(name, "REC", 3)) {
			if (!accept(ps, "->") && !accept(ps, ".")) {
				fail(ps, "expected '->' after REC");
				return NULL;
			}
			n = new_node(ps, N_FIELD);
			if (n)
				n->field = field_ref(ps);
			return n;
		}
		if (accept(ps, "("))
			return parse_call(ps, name, len);
		/*
		 * A kernel symbol the print fmt names (vmemmap_base, jiffies):
		 * trace-cmd cannot know its value and takes 0.
		 */
		n = new_node(ps, N_NUM);
		return n;
	}
	case T_PUNCT:
		if (accept(ps, "(")) {
			if (type_word(&ps->tok))
				return parse_cast(ps);
			if (is_ident(ps, "REC")) {	/* (REC)->field */
				struct parser save = *ps;

				next(ps);
				if (accept(ps, ")")) {
					if (!accept(ps, "->") && !accept(ps, ".")) {
						fail(ps, "expected '->' after REC");
						return NULL;
					}
					n = new_node(ps, N_FIELD);
					if (n)
						n->field = field_ref(ps);
					return n;
				}
				*ps = save;
			}
			n = parse_expr(ps);
			expect(ps, ")");
			return n;
		}
		fail(ps, "unexpected character");
		return NULL;
	default:
		fail(ps, ps->tok.kind == T_BAD ? "unterminated string" : "unexpected end");
		return NULL;
	}
}

static struct node *parse_postfix(struct parser *ps)
{
	struct node *n = parse_primary(ps);

	while (!ps->err && accept(ps, "[")) {
		struct node *i = new_node(ps, N_INDEX);

		if (!i)
			break;
		i->a = n;
		i->b = parse_expr(ps);
		expect(ps, "]");
		n = i;
	}
	return n;
}

static struct node *parse_unary(struct parser *ps)
{
	static const char *const ops[] = { "-", "+", "!", "~", "*", "&" };
	struct node *n;

	if (++ps->depth > PF_MAX_DEPTH) {
		fail(ps, "expression nested too deeply");
		return NULL;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (is_punct(ps, ops[i])) {
			next(ps);
			n = new_node(ps, N_UNARY);
			if (n) {
				strcpy(n->opch, ops[i]);
				n->a = parse_unary(ps);
			}
			ps->depth--;
			return n;
		}
	}
	if (is_ident(ps, "sizeof")) {
		next(ps);
		expect(ps, "(");
		n = new_node(ps, N_NUM);
		if (n)
			n->num = 8;	/* what a pointer or long takes: the only sizeof print fmts use */
		while (!ps->err && ps->tok.kind != T_END && !is_punct(ps, ")"))
			next(ps);
		expect(ps, ")");
		ps->depth--;
		return n;
	}
	n = parse_postfix(ps);
	ps->depth--;
	return n;
}

/* Binary operator precedence, C's; 0 for a token that is not one. */
static int prec(const struct parser *ps)
{
	static const struct {
		const char *op;
		int prec;
	} table[] = {
		{ "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 }, { "==", 6 },
		{ "!=", 6 }, { "<", 7 }, { ">", 7 }, { "<=", 7 }, { ">=", 7 }, { "<<", 8 },
		{ ">>", 8 }, { "+", 9 }, { "-", 9 }, { "*", 10 }, { "/", 10 }, { "%", 10 },
	};

	if (ps->tok.kind != T_PUNCT)
		return 0;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(ps->tok.punct, table[i].op))
			return table[i].prec;
	return 0;
}

static struct node *parse_binary(struct parser *ps, int min_prec)
{
	struct node *lhs = parse_unary(ps);
	int p;

	while (!ps->err && (p = prec(ps)) >= min_prec) {
		struct node *n = new_node(ps, N_BINARY);

		if (!n)
			break;
		strcpy(n->opch, ps->tok.punct);
		next(ps);
		n->a = lhs;
		n->b = parse_binary(ps, p + 1);
		lhs = n;
	}
	return lhs;
}

static struct node *parse_cond(struct parser *ps)
{
	struct node *c = parse_binary(ps, 1), *n;

	if (ps->err || !accept(ps, "?"))
		return c;
	n = new_node(ps, N_COND);
	if (!n)
		return c;
	n->a = c;
	if (++ps->depth > PF_MAX_DEPTH) {
		fail(ps, "expression nested too deeply");
		return n;
	}
	n->b = parse_expr(ps);
	expect(ps, ":");
	n->c = parse_cond(ps);
	ps->depth--;
	return n;
}

static struct node *parse_expr(struct parser *ps)
{
	return parse_cond(ps);
}

/* ---- values ------------------------------------------------------------------------ */

enum val_kind { V_NUM, V_STR };

struct val {
	enum val_kind kind;
	uint64_t n;		/* V_NUM; V_STR in scratch: its offset there */
	const char *s;		/* V_STR: not NUL-terminated; NULL: in the scratch buffer */
	size_t len;
};

struct eval {
	struct rep_ctx *ctx;
	const struct rep_record *r;	/* NULL while folding constants */
	bool ok;
	struct obuf *tmp;		/* where __print_flags and friends build text */
};

static struct val num(uint64_t n)
{
	return (struct val){ V_NUM, n, NULL, 0 };
}

static struct val str(const char *s, size_t len)
{
	return (struct val){ V_STR, 0, s, len };
}

static struct val eval(struct eval *e, const struct node *n);

/* Text built in the scratch buffer, kept as an offset: the buffer may move. */
static struct val tmp_text(struct eval *e, size_t start)
{
	return (struct val){ V_STR, start, NULL, e->tmp->len - start };
}

/* Where a text value's bytes are now. */
static const char *text_of(const struct eval *e, const struct val *v)
{
	return v->s ? v->s : e->tmp->buf + v->n;
}

static uint64_t as_num(struct eval *e, const struct node *n)
{
	struct val v = eval(e, n);

	return v.kind == V_NUM ? v.n : 1;
}

static struct val field_value(struct eval *e, const struct rep_field *f)
{
	const struct rep_record *r = e->r;
	unsigned int len;
	const unsigned char *p;

	if (!r) {
		e->ok = false;
		return num(0);
	}
	if (f->flags & FIELD_DYNAMIC) {
		p = rep_dyn_data(e->ctx, r, f, &len);
		return str((const char *)p, len);
	}
	if (f->flags & (FIELD_ARRAY | FIELD_BAD)) {
		/* A trailing "char buf[]" (size 0) runs to the end of the record. */
		p = r->data + f->offset;
		len = f->offset + f->size > r->size ? 0 : f->size ? f->size : r->size - f->offset;
		return str((const char *)p, len);
	}
	/* Zero-extended, as trace-cmd reads fields: %d and casts give the sign back. */
	return num(rep_read_num(e->ctx, r, f->offset, f->size, false));
}

static uint64_t binop(const char *op, uint64_t a, uint64_t b)
{
	switch (op[0]) {
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case '/': return b ? (uint64_t)((int64_t)a / (int64_t)b) : 0;
	case '%': return b ? (uint64_t)((int64_t)a % (int64_t)b) : 0;
	case '^': return a ^ b;
	/* Comparisons are unsigned, as trace-cmd evaluates them ("x >= -9ULL"). */
	case '<':
		if (op[1] == '<')
			return b < 64 ? a << b : 0;
		return op[1] == '=' ? a <= b : a < b;
	case '>':
		if (op[1] == '>')
			return b < 64 ? a >> b : 0;
		return op[1] == '=' ? a >= b : a > b;
	case '=': return a == b;
	case '!': return a != b;
	case '&': return op[1] == '&' ? (a && b) : a & b;
	case '|': return op[1] == '|' ? (a || b) : a | b;
	default: return 0;
	}
}

static uint64_t cast(uint64_t v, unsigned int size, bool sign)
{
	switch (size) {
	case 1: return sign ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
	case 2: return sign ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
	case 4: return sign ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	default: return v;
	}
}

/* __print_flags: set flags' names joined by the delimiter, leftover bits as hex. */
static struct val print_flags(struct eval *e, const struct node *n)
{
	uint64_t v = as_num(e, n->a);
	size_t start = e->tmp->len;
	bool any = false;

	for (unsigned int i = 0; i < n->nr_syms && e->r; i++) {
		uint64_t f = n->syms[i].value;

		if (!v && !f) {
			ob_puts(e->tmp, n->syms[i].name);
			any = true;
			break;
		}
		if (f && (v & f) == f) {
			if (any)
				ob_write(e->tmp, n->str, n->slen);
			ob_puts(e->tmp, n->syms[i].name);
			any = true;
			v &= ~f;
		}
	}
	if (v) {
		if (any)
			ob_write(e->tmp, n->str, n->slen);
		ob_printf(e->tmp, "0x%llx", (unsigned long long)v);
	}
	return tmp_text(e, start);
}

static struct val print_symbolic(struct eval *e, const struct node *n)
{
	uint64_t v = as_num(e, n->a);
	size_t start = e->tmp->len;

	for (unsigned int i = 0; i < n->nr_syms; i++)
		if (n->syms[i].value == v)
			return str(n->syms[i].name, strlen(n->syms[i].name));
	ob_printf(e->tmp, "0x%llx", (unsigned long long)v);
	return tmp_text(e, start);
}

/* __print_hex (bytes as "xx xx") and __print_hex_str ("xxxx"). */
static struct val print_hex(struct eval *e, const struct node *n, bool joined)
{
	struct val buf = eval(e, n->a);
	uint64_t len = as_num(e, n->b);
	size_t start = e->tmp->len;

	if (buf.kind != V_STR)
		return tmp_text(e, start);
	if (len > buf.len)
		len = buf.len;
	for (uint64_t i = 0; i < len; i++)
		ob_printf(e->tmp, joined || !i ? "%02x" : " %02x", (unsigned char)text_of(e, &buf)[i]);
	return tmp_text(e, start);
}

/* __print_array(array, count, element size): "{0x1,0x2}". */
static struct val print_array(struct eval *e, const struct node *n)
{
	struct val buf = eval(e, n->a);
	uint64_t count = as_num(e, n->b), size = as_num(e, n->c);
	size_t start = e->tmp->len;

	ob_putc(e->tmp, '{');
	if (buf.kind == V_STR && (size == 1 || size == 2 || size == 4 || size == 8)) {
		for (uint64_t i = 0; i < count && (i + 1) * size <= buf.len; i++) {
			uint64_t v = 0;

			memcpy(&v, text_of(e, &buf) + i * size, size);
			if (e->ctx->big_endian)
				v = __builtin_bswap64(v) >> (64 - 8 * size);
			ob_printf(e->tmp, i ? ",0x%llx" : "0x%llx", (unsigned long long)v);
		}
	}
	ob_putc(e->tmp, '}');
	return tmp_text(e, start);
}

/* A bitmask as Linux prints one: 32-bit hex words, most significant first, comma-joined. */
static struct val print_bitmask(struct eval *e, const struct node *n)
{
	struct val buf = field_value(e, n->field);
	size_t start = e->tmp->len;
	bool any = false;

	for (size_t w = buf.len / 4; w-- > 0;) {
		uint32_t word;

		memcpy(&word, buf.s + 4 * w, 4);
		if (e->ctx->big_endian)
			word = __builtin_bswap32(word);
		if (!any && !word && w)
			continue;
		ob_printf(e->tmp, any ? ",%08x" : "%x", word);
		any = true;
	}
	return tmp_text(e, start);
}

static struct val eval(struct eval *e, const struct node *n)
{
	if (!n) {
		e->ok = false;
		return num(0);
	}
	switch (n->op) {
	case N_NUM:
		return num(n->num);
	case N_STR:
		return str(n->str, n->slen);
	case N_FIELD:
		return field_value(e, n->field);
	case N_INDEX: {
		const struct rep_field *f = n->a && n->a->op == N_FIELD ? n->a->field : NULL;
		uint64_t i = as_num(e, n->b);

		if (!f || !e->r || !(f->flags & FIELD_ARRAY) || !f->elem_size)
			return num(0);
		if (i >= f->size / f->elem_size)
			return num(0);
		return num(rep_read_num(e->ctx, e->r, f->offset + (unsigned int)i * f->elem_size,
					f->elem_size, false));
	}
	case N_UNARY: {
		uint64_t v;

		if (n->opch[0] == '*' || n->opch[0] == '&' || n->opch[0] == '+')
			return eval(e, n->a);
		v = as_num(e, n->a);
		return num(n->opch[0] == '-' ? -v : n->opch[0] == '!' ? !v : ~v);
	}
	case N_BINARY:
		if (n->opch[0] == '&' && n->opch[1] == '&')
			return num(as_num(e, n->a) ? !!as_num(e, n->b) : 0);
		if (n->opch[0] == '|' && n->opch[1] == '|')
			return num(as_num(e, n->a) ? 1 : !!as_num(e, n->b));
		return num(binop(n->opch, as_num(e, n->a), as_num(e, n->b)));
	case N_COND:
		return as_num(e, n->a) ? eval(e, n->b) : eval(e, n->c);
	case N_CAST: {
		struct val v = eval(e, n->a);

		if (v.kind == V_STR)
			return v;
		return num(cast(v.n, n->cast_size, n->cast_signed));
	}
	case N_GET_STR:
	case N_DYN_ARRAY: {
		struct val v = field_value(e, n->field);

		if (n->op == N_GET_STR && v.kind == V_STR && v.s) {
			const char *nul = memchr(v.s, 0, v.len);

			if (nul)
				v.len = (size_t)(nul - v.s);
		}
		return v;
	}
	case N_DYN_LEN:
		return num(field_value(e, n->field).len);
	case N_BITMASK:
		return print_bitmask(e, n);
	case N_FLAGS:
		return print_flags(e, n);
	case N_SYMBOLIC:
		return print_symbolic(e, n);
	case N_HEX:
	case N_HEX_STR:
		return print_hex(e, n, n->op == N_HEX_STR);
	case N_ARRAY:
		return print_array(e, n);
	}
	return num(0);
}

/* Constant folding for flag tables: no record, no fields. */
/* Numbers, strings and operators on them only: what can be worked out without a record. */
static bool constant(const struct node *n)
{
	if (!n)
		return true;
	switch (n->op) {
	case N_NUM:
	case N_STR:
		return true;
	case N_UNARY:
	case N_BINARY:
	case N_COND:
	case N_CAST:
		return constant(n->a) && constant(n->b) && constant(n->c);
	default:
		return false;
	}
}

static uint64_t fold(const struct node *n, bool *ok)
{
	struct eval e = { .ctx = NULL, .r = NULL, .ok = true, .tmp = NULL };
	struct val v;

	if (!n || !constant(n)) {
		*ok = false;
		return 0;
	}
	v = eval(&e, n);
	*ok = e.ok && v.kind == V_NUM;
	return v.n;
}

/* ---- the format string ------------------------------------------------------------------ */

/* One printf directive and the literal text before it. */
struct pf_spec {
	const char *lit;	/* into the program's copy of the format */
	size_t lit_len;
	char conv;		/* d i u x X o c s p %; 0: trailing literal only */
	char flags[6];
	int width, prec;	/* -1: none; -2: '*' (from an argument) */
	int length;		/* bytes the integer is taken as: 1 2 4 8 */
	char pext;		/* %p extension letter (S s F f x K ...), 0 for plain %p */
	char ext[4];		/* the letters after it (I6c: "6c") */
	unsigned int arg;	/* index of its value argument */
};

struct pf_prog {
	char *fmt;
	struct pf_spec *specs;
	unsigned int nr_specs;
	struct node **args;
	unsigned int nr_args;
};

void pf_free(struct pf_prog *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->nr_args; i++)
		free_node(p->args[i]);
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

struct pf_prog *pf_compile(struct rep_event *ev, const char *text, size_t len,
			   const char **err, size_t *err_pos)
{
	struct parser ps = { .ev = ev, .text = text, .pos = text, .end = text + len };
	struct pf_prog *p = calloc(1, sizeof(*p));
	size_t flen;
	int need;

	*err = NULL;
	*err_pos = 0;
	if (!p) {
		*err = "out of memory";
		return NULL;
	}
	next(&ps);
	if (ps.tok.kind != T_STR) {
		*err = "print fmt does not start with a string";
		goto bad;
	}
	p->fmt = string_literal(&ps, &flen);
	if (!p->fmt || strlen(p->fmt) != flen) {
		*err = "format string with a NUL in it";
		goto bad;
	}
	need = parse_format(p, err);
	if (need < 0)
		goto bad;
	while (!ps.err && accept(&ps, ",")) {
		struct node *a = parse_expr(&ps), **na;

		na = realloc(p->args, (p->nr_args + 1) * sizeof(*na));
		if (!na) {
			free_node(a);
			ps.err = "out of memory";
			break;
		}
		p->args = na;
		p->args[p->nr_args++] = a;
	}
	if (!ps.err && ps.tok.kind != T_END)
		fail(&ps, "unexpected text after the arguments");
	if (!ps.err && p->nr_args < (unsigned int)need)
		fail(&ps, "fewer arguments than the format string needs");
	if (ps.err) {
		*err = ps.err;
		*err_pos = ps.err_pos;
		goto bad;
	}
	return p;
bad:
	pf_free(p);
	return NULL;
}

/* ---- rendering -------------------------------------------------------------------------- */

static void pad_to(struct obuf *o, size_t have, int width)
{
	if (width > 0 && (size_t)width > have)
		ob_pad(o, ' ', (size_t)width - have);
}

/* %s and text results, honouring width, '-' and precision. */
static void put_text(struct obuf *o, const struct pf_spec *sp, int width, int prec,
		     const char *s, size_t len)
{
	const char *nul = memchr(s, 0, len);

	if (nul)
		len = (size_t)(nul - s);
	if (prec >= 0 && (size_t)prec < len)
		len = (size_t)prec;
	if (!strchr(sp->flags, '-'))
		pad_to(o, len, width);
	ob_write(o, s, len);
	if (strchr(sp->flags, '-'))
		pad_to(o, len, width);
}

/*
 * printf's integer conversions done here (flags - + space # 0, width,
 * precision; d i u x X o): vsnprintf per field is what made decoding slow.
 */
void rep_put_int(struct obuf *o, const struct rep_numfmt *nf, uint64_t v)
{
	const char *digits = nf->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned int base = nf->conv == 'x' || nf->conv == 'X' ? 16 : nf->conv == 'o' ? 8 : 10;
	bool sign = nf->conv == 'd' || nf->conv == 'i', neg = false, left = false, zero = false;
	bool plus = false, space = false, alt = false;
	char body[24], prefix[3] = "";
	int n = 0, prec = nf->prec, width = nf->width, len, zeros;

	for (const char *f = nf->flags; *f; f++) {
		left |= *f == '-';
		zero |= *f == '0';
		plus |= *f == '+';
		space |= *f == ' ';
		alt |= *f == '#';
	}
	v = cast(v, (unsigned int)nf->length, sign);
	if (sign && (int64_t)v < 0) {
		neg = true;
		v = -v;
	}
	if (v || prec != 0)
		do {
			body[n++] = digits[v % base];
			v /= base;
		} while (v);
	if (sign)
		strcpy(prefix, neg ? "-" : plus ? "+" : space ? " " : "");
	else if (alt && base == 16 && n && !(n == 1 && body[0] == '0'))
		strcpy(prefix, nf->conv == 'X' ? "0X" : "0x");
	else if (alt && base == 8 && (n == 0 || body[n - 1] != '0') && prec <= n)
		prec = n + 1;
	zeros = prec > n ? prec - n : 0;
	len = (int)strlen(prefix) + zeros + n;
	if (zero && !left && prec < 0 && width > len) {
		zeros += width - len;
		len = width;
	}
	if (!left && width > len)
		ob_pad(o, ' ', (size_t)(width - len));
	ob_puts(o, prefix);
	if (zeros)
		ob_pad(o, '0', (size_t)zeros);
	ob_reserve(o, (size_t)n);
	while (n)
		o->buf[o->len++] = body[--n];
	if (left && width > len)
		ob_pad(o, ' ', (size_t)(width - len));
}

/* An integer directive, as printf prints the value cast to the directive's length. */
static void put_int(struct obuf *o, const struct pf_spec *sp, int width, int prec, uint64_t v)
{
	struct rep_numfmt nf = { .conv = sp->conv, .width = width, .prec = prec, .length = sp->length };

	memcpy(nf.flags, sp->flags, sizeof(nf.flags));
	rep_put_int(o, &nf, v);
}

/* %pI4 (dotted quad) and %pI6/%pI6c (IPv6, c: the longest zero run as "::"). */
static void put_ip(struct obuf *o, const struct pf_spec *sp, const unsigned char *a, size_t len)
{
	int best = -1, best_len = 0;
	bool compress = strstr(sp->ext, "c") != NULL;

	if (strstr(sp->ext, "4") || len == 4) {
		if (len >= 4)
			ob_printf(o, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		return;
	}
	if (len < 16)
		return;
	if (!compress) {
		for (int i = 0; i < 8; i++)
			ob_printf(o, i ? ":%02x%02x" : "%02x%02x", a[2 * i], a[2 * i + 1]);
		return;
	}
	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && !a[2 * j] && !a[2 * j + 1])
			j++;
		if (j - i > best_len) {
			best = i;
			best_len = j - i;
		}
		i = j > i ? j : i + 1;
	}
	if (best_len < 2)
		best = -1;
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			ob_puts(o, "::");
			i += best_len - 1;
			continue;
		}
		if (i && i != best + best_len)
			ob_putc(o, ':');
		ob_printf(o, "%x", a[2 * i] << 8 | a[2 * i + 1]);
	}
}

/*
 * %p and its extensions: symbols for S/s/F/f, 0x-hex otherwise, "(nil)"
 * for a plain NULL. trace-cmd ignores width and flags here.
 */
static void put_pointer(struct rep_ctx *ctx, struct obuf *o, const struct pf_spec *sp, struct val v)
{
	const struct rep_sym *sym;
	char buf[160];

	if (v.kind == V_STR && sp->pext == 'U' && v.len >= 16) {
		/* A UUID: 16 bytes as 8-4-4-4-12 hex digits. */
		for (int i = 0; i < 16; i++) {
			static const char hex[] = "0123456789abcdef";

			ob_putc(o, hex[(unsigned char)v.s[i] >> 4]);
			ob_putc(o, hex[(unsigned char)v.s[i] & 15]);
			if (i == 3 || i == 5 || i == 7 || i == 9)
				ob_putc(o, '-');
		}
		return;
	}
	if (v.kind == V_STR && (sp->pext == 'I' || sp->pext == 'i')) {
		put_ip(o, sp, (const unsigned char *)v.s, v.len);
		return;
	}
	if (v.kind == V_STR) {
		/* A pointer to record bytes (%pM and friends): print what is there as text. */
		put_text(o, sp, -1, -1, v.s, v.len);
		return;
	}
	sym = sp->pext && strchr("SsFf", sp->pext) ? syms_find(&ctx->syms, v.n) : NULL;
	if (sym) {
		if (sp->pext == 's' || sp->pext == 'f')
			snprintf(buf, sizeof(buf), "%.150s", sym->name);
		else
			snprintf(buf, sizeof(buf), "%.130s+0x%llx", sym->name,
				 (unsigned long long)(v.n - sym->addr));
	} else if (!v.n && !sp->pext) {
		strcpy(buf, "(nil)");
	} else {
		ob_puts(o, "0x");
		ob_hex(o, v.n);
		return;
	}
	ob_puts(o, buf);
}

/* One directive with its argument(s). */
static void render(struct eval *e, struct obuf *o, const struct pf_prog *p, const struct pf_spec *sp)
{
	int width = sp->width, prec = sp->prec;
	unsigned int star = (width == -2) + (prec == -2);
	struct val v;

	if (width == -2)
		width = sp->arg >= star ? (int)as_num(e, p->args[sp->arg - star]) : -1;
	if (prec == -2)
		prec = sp->arg >= 1 ? (int)as_num(e, p->args[sp->arg - 1]) : -1;
	if (width > 4096)
		width = 4096;
	if (prec > 4096)
		prec = 4096;
	if (width < -1)
		width = -1;
	v = sp->arg < p->nr_args ? eval(e, p->args[sp->arg]) : num(0);
	if (v.kind == V_STR)
		v.s = text_of(e, &v);
	switch (sp->conv) {
	case 's':
		if (v.kind == V_STR)
			put_text(o, sp, width, prec, v.s, v.len);
		else
			put_int(o, &(struct pf_spec){ .conv = 'x', .length = 8 }, -1, -1, v.n);
		break;
	case 'p':
		put_pointer(e->ctx, o, sp, v);
		break;
	case 'c':
		ob_putc(o, v.kind == V_NUM ? (char)v.n : v.len ? v.s[0] : 0);
		break;
	default:
		put_int(o, sp, width, prec, v.kind == V_NUM ? v.n : 0);
		break;
	}
}

void pf_print(struct rep_ctx *ctx, struct obuf *o, const struct pf_prog *p,
	      const struct rep_record *r)
{
	struct eval e = { .ctx = ctx, .r = r, .ok = true, .tmp = &ctx->scratch };

	ctx->scratch.len = 0;
	for (unsigned int i = 0; i < p->nr_specs; i++) {
		const struct pf_spec *sp = &p->specs[i];

		ob_write(o, sp->lit, sp->lit_len);
		if (sp->conv == '%')
			ob_putc(o, '%');
		else if (sp->conv)
			render(&e, o, p, sp);
	}
}

/*
 * Items of the format in trace-cmd's order: item 2i is spec i's literal
 * text (when it has any), 2i + 1 its directive (when it is one).
 */
static bool item_exists(const struct pf_prog *p, unsigned int item)
{
	const struct pf_spec *sp = &p->specs[item / 2];

	if (item % 2 == 0)
		return sp->lit_len || sp->conv == '%';
	return sp->conv && sp->conv != '%';
}

bool pf_print_field(struct rep_ctx *ctx, struct obuf *o, const struct pf_prog *p,
		    const struct rep_field *f, const struct rep_record *r, int *cursor)
{
	struct eval e = { .ctx = ctx, .r = r, .ok = true, .tmp = &ctx->scratch };
	unsigned int n = 2 * p->nr_specs, start, item;
	bool has_0x = false;

	if (*cursor < 0 || !n)
		return false;
	start = (unsigned int)*cursor % n;
	while (!item_exists(p, start))		/* the cursor points at a real item */
		if ((start = (start + 1) % n) == (unsigned int)*cursor % n)
			return false;
	item = start;
	do {
		const struct pf_spec *sp = &p->specs[item / 2];
		const struct node *a;

		if (item % 2 == 0) {
			has_0x = sp->lit_len >= 2 && !memcmp(sp->lit + sp->lit_len - 2, "0x", 2);
		} else {
			for (a = sp->arg < p->nr_args ? p->args[sp->arg] : NULL; a && a->op == N_CAST;)
				a = a->a;
			if (a && a->op == N_FIELD && a->field == f) {
				ctx->scratch.len = 0;
				if (has_0x)
					ob_puts(o, "0x");
				render(&e, o, p, sp);
				do
					item++;
				while (item < n && !item_exists(p, item));
				*cursor = item < n ? (int)item : -1;
				return true;
			}
			has_0x = false;
		}
		do
			item = (item + 1) % n;
		while (!item_exists(p, item));
	} while (item != start);
	return false;
}
