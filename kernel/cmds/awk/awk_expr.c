/*
 * awk's expressions, by precedence climbing over POSIX's table (loosest
 * first): assignment, ?:, ||, &&, in, ~ !~, comparisons, `| getline`,
 * concatenation, + -, * / %, unary ! + -, ^, ++ --, $, grouping. Inside
 * print's list a bare '>' redirects; parentheses make it a comparison.
 */
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/cmds/awk/awk_parse.h>

/* Minimum arguments, maximum arguments (-1: any) of each built-in. */
static const signed char builtin_args[][2] = {
	[B_LENGTH] = { 0, 1 }, [B_SUBSTR] = { 2, 3 }, [B_INDEX] = { 2, 2 }, [B_SPLIT] = { 2, 3 },
	[B_SUB] = { 2, 3 }, [B_GSUB] = { 2, 3 }, [B_MATCH] = { 2, 2 }, [B_SPRINTF] = { 1, -1 },
	[B_TOLOWER] = { 1, 1 }, [B_TOUPPER] = { 1, 1 }, [B_INT] = { 1, 1 }, [B_SQRT] = { 1, 1 },
	[B_EXP] = { 1, 1 }, [B_LOG] = { 1, 1 }, [B_SIN] = { 1, 1 }, [B_COS] = { 1, 1 },
	[B_ATAN2] = { 2, 2 },
	[B_RAND] = { 0, 0 }, [B_SRAND] = { 0, 1 }, [B_SYSTEM] = { 1, 1 }, [B_CLOSE] = { 1, 1 },
	[B_FFLUSH] = { 0, 1 },
};

enum {
	P_OR = 2, P_AND, P_IN, P_MATCH, P_CMP, P_PIPE, P_CONCAT, P_ADD, P_MUL,
};

static struct awk_node *parse_unary(struct awk_parser *p);

bool is_lvalue(const struct awk_node *n)
{
	return n && (n->kind == N_VAR || n->kind == N_LOCAL || n->kind == N_FIELD || n->kind == N_INDEX);
}

static bool starts_operand(int tok)
{
	return tok == TK_NUMBER || tok == TK_STRING || tok == TK_ERE || tok == TK_NAME ||
	       tok == TK_FUNC_NAME || tok == TK_BUILTIN || tok == '$' || tok == '(' || tok == '!' ||
	       tok == '-' || tok == '+' || tok == TK_INCR || tok == TK_DECR;
}

static int binop_prec(struct awk_parser *p)
{
	switch (p->tok) {
	case TK_OR: return P_OR;
	case TK_AND: return P_AND;
	case TK_IN: return P_IN;
	case '~': case TK_NOMATCH: return P_MATCH;
	case '<': case TK_LE: case TK_NE: case TK_EQ: case TK_GE: return P_CMP;
	case '>': return p->no_gt ? 0 : P_CMP;
	case '|': return lex_getline_follows(p) ? P_PIPE : 0;
	case '+': case '-': return P_ADD;
	case '*': case '/': case '%': return P_MUL;
	default:
		/* Juxtaposition concatenates; '-', '+' and '!' there are binary or not allowed. */
		return starts_operand(p->tok) && p->tok != '-' && p->tok != '+' && p->tok != '!' ?
		       P_CONCAT : 0;
	}
}

static struct awk_node *node2(struct awk_parser *p, enum awk_kind kind, int op,
			      struct awk_node *a, struct awk_node *b)
{
	struct awk_node *n = new_node(p, kind);

	if (n) {
		n->op = op;
		n->a = a;
		n->b = b;
	}
	return n;
}

/* After getline: an optional variable or field to read into. */
static struct awk_node *getline_target(struct awk_parser *p)
{
	struct awk_node *v;

	if (p->tok != TK_NAME && p->tok != '$')
		return NULL;
	v = parse_unary(p);
	if (v && !is_lvalue(v))
		parse_error(p, "getline reads into a variable, a field or an element");
	return v;
}

static struct awk_node *parse_binary(struct awk_parser *p, int min)
{
	struct awk_node *left = parse_unary(p);

	for (;;) {
		int prec = binop_prec(p), op = p->tok;
		struct awk_node *right;

		if (!left || p->failed || !prec || prec < min)
			return p->failed ? NULL : left;
		if (left->kind == N_GROUP && op != TK_IN) {
			parse_error(p, "a parenthesised list is only allowed before 'in'");
			return NULL;
		}
		if (prec == P_CONCAT) {
			struct awk_node *cat = node2(p, N_CONCAT, 0, left, NULL), *tail = left;

			while (cat && !p->failed && binop_prec(p) == P_CONCAT) {
				if (!(tail->next = parse_binary(p, P_ADD)))
					return NULL;
				tail = tail->next;
			}
			left = cat;
			continue;
		}
		lex_next(p);
		switch (op) {
		case TK_IN:
			if (p->tok != TK_NAME) {
				parse_error(p, "'in' needs an array name");
				return NULL;
			}
			right = name_node(p, p->text.s);
			mark_array(p, right);
			lex_next(p);
			left = node2(p, N_IN, 0, left->kind == N_GROUP ? left->a : left, right);
			break;
		case '|':
			lex_next(p);	/* getline */
			left = node2(p, N_GETLINE, R_PIPE, getline_target(p), left);
			break;
		case '~':
		case TK_NOMATCH:
			right = parse_binary(p, prec + 1);
			left = node2(p, N_MATCH, op == '~' ? '~' : '!', left, right);
			break;
		case TK_OR:
		case TK_AND:
			right = parse_binary(p, prec + 1);
			left = node2(p, op == TK_OR ? N_OR : N_AND, 0, left, right);
			break;
		case '+': case '-': case '*': case '/': case '%': {
			/* Left-associative: a chain of one precedence grows in place. */
			struct awk_node *step = node2(p, N_BINARY, op, parse_binary(p, prec + 1), NULL);

			if (!step || !step->a)
				return NULL;
			if (left->kind != N_ARITH || left->flag != (prec == P_ADD)) {
				if (!(left = node2(p, N_ARITH, 0, left, NULL)))
					return NULL;
				left->flag = prec == P_ADD;
				left->b = left->c = step;
			} else {
				left->c = left->c->next = step;
			}
			break;
		}
		default:
			right = parse_binary(p, prec + 1);
			left = node2(p, N_CMP, op == '<' ? CMP_LT : op == TK_LE ? CMP_LE : op == TK_EQ ? CMP_EQ :
				     op == TK_NE ? CMP_NE : op == '>' ? CMP_GT : CMP_GE, left, right);
		}
	}
}

struct awk_node *parse_concat(struct awk_parser *p)
{
	return parse_binary(p, P_CONCAT);
}

static struct awk_node *parse_ternary(struct awk_parser *p)
{
	struct awk_node *cond = parse_binary(p, P_OR), *n;

	if (!cond || p->tok != '?')
		return cond;
	lex_next(p);
	skip_newlines(p);
	n = node2(p, N_COND, 0, cond, parse_expr(p));
	skip_newlines(p);
	expect(p, ':');
	skip_newlines(p);
	if (n)
		n->c = parse_expr(p);
	return p->failed ? NULL : n;
}

struct awk_node *parse_expr(struct awk_parser *p)
{
	struct awk_node *left, *n;
	int op;

	if (!parse_enter(p))
		return NULL;
	left = parse_ternary(p);
	switch (p->tok) {
	case '=': op = '='; break;
	case TK_ADD_ASSIGN: op = '+'; break;
	case TK_SUB_ASSIGN: op = '-'; break;
	case TK_MUL_ASSIGN: op = '*'; break;
	case TK_DIV_ASSIGN: op = '/'; break;
	case TK_MOD_ASSIGN: op = '%'; break;
	case TK_POW_ASSIGN: op = '^'; break;
	default:
		p->depth--;
		return left;
	}
	if (!is_lvalue(left)) {
		parse_error(p, "assignment to something that is not a variable");
		return NULL;
	}
	lex_next(p);
	skip_newlines(p);
	n = node2(p, N_ASSIGN, op, left, parse_expr(p));
	p->depth--;
	return p->failed ? NULL : n;
}

struct awk_node *parse_expr_list(struct awk_parser *p, int close)
{
	struct awk_node *head = NULL, **tail = &head;

	while (!p->failed) {
		if (!(*tail = parse_expr(p)))
			return NULL;
		if ((*tail)->kind == N_GROUP && close) {
			parse_error(p, "a parenthesised list is only allowed before 'in'");
			return NULL;
		}
		tail = &(*tail)->next;
		if (p->tok != ',')
			break;
		lex_next(p);
	}
	if (close && p->tok != close)
		expect(p, close);
	return head;
}

/* '(' expr ')' or '(' list ')'; print's '>' is a comparison inside. */
static struct awk_node *parse_group(struct awk_parser *p)
{
	bool no_gt = p->no_gt;
	struct awk_node *e;

	lex_next(p);
	p->no_gt = false;
	e = parse_expr_list(p, 0);
	p->no_gt = no_gt;
	expect(p, ')');
	if (e && e->next)
		e = node2(p, N_GROUP, 0, e, NULL);
	return p->failed ? NULL : e;
}

/* name(args) or a built-in; the name is the current token. */
static struct awk_node *parse_call(struct awk_parser *p)
{
	bool builtin = p->tok == TK_BUILTIN, no_gt = p->no_gt;
	struct awk_node *n = new_node(p, builtin ? N_BUILTIN : N_CALL);
	int nargs = 0;

	if (!n)
		return NULL;
	if (builtin)
		n->op = p->builtin;
	else
		n->fn = func_ref(p, p->text.s);
	lex_next(p);
	if (p->tok != '(') {
		if (n->op != B_LENGTH) {
			parse_error(p, "expected '(' after %s", p->text.s);
			return NULL;
		}
		return n;	/* length without parentheses: of $0 */
	}
	lex_next(p);
	p->no_gt = false;
	if (p->tok != ')')
		n->a = parse_expr_list(p, ')');
	p->no_gt = no_gt;
	expect(p, ')');
	for (struct awk_node *a = n->a; a; a = a->next)
		nargs++;
	if (builtin && (nargs < builtin_args[n->op][0] ||
			(builtin_args[n->op][1] >= 0 && nargs > builtin_args[n->op][1])))
		parse_error(p, "wrong number of arguments to a built-in function");
	if (builtin && n->op == B_SPLIT && n->a && n->a->next) {
		struct awk_node *arr = n->a->next;

		if (arr->kind != N_VAR && arr->kind != N_LOCAL)
			parse_error(p, "split's second argument must be an array name");
		mark_array(p, arr);
	}
	if (builtin && (n->op == B_SUB || n->op == B_GSUB) && n->a && n->a->next &&
	    n->a->next->next && !is_lvalue(n->a->next->next))
		parse_error(p, "sub and gsub change a variable, a field or an element");
	return p->failed ? NULL : n;
}

static struct awk_node *parse_primary(struct awk_parser *p)
{
	struct awk_node *n = NULL;
	char got[48];

	switch (p->tok) {
	case TK_NUMBER:
		if ((n = new_node(p, N_NUM)))
			n->num = p->num;
		lex_next(p);
		return n;
	case TK_STRING:
	case TK_ERE:
		if ((n = new_node(p, p->tok == TK_STRING ? N_STR : N_REGEX))) {
			n->str = prog_str(p, p->text.s, p->text.len);
			if (n->kind == N_REGEX)
				n->re = prog_regex(p, n->str);
		}
		lex_next(p);
		return n;
	case '(':
		return parse_group(p);
	case '$':
		lex_next(p);
		if (!parse_enter(p))
			return NULL;
		/* $ binds tighter than everything but grouping and ++/-- in front. */
		if (p->tok == TK_INCR || p->tok == TK_DECR || p->tok == '-')
			n = parse_unary(p);
		else
			n = parse_primary(p);
		p->depth--;
		return n ? node2(p, N_FIELD, 0, n, NULL) : NULL;
	case TK_FUNC_NAME:
	case TK_BUILTIN:
		return parse_call(p);
	case TK_GETLINE:
		lex_next(p);
		n = node2(p, N_GETLINE, R_NONE, getline_target(p), NULL);
		if (n && p->tok == '<') {
			lex_next(p);
			n->op = R_FILE;
			n->b = parse_primary(p);
		}
		return p->failed ? NULL : n;
	case TK_NAME: {
		bool no_gt = p->no_gt;

		n = name_node(p, p->text.s);
		lex_next(p);
		if (!n || p->tok != '[')
			return n;
		mark_array(p, n);
		lex_next(p);
		p->no_gt = false;
		n = node2(p, N_INDEX, 0, n, parse_expr_list(p, ']'));
		p->no_gt = no_gt;
		expect(p, ']');
		return p->failed ? NULL : n;
	}
	default:
		parse_error(p, "unexpected %s", tok_text(p, got, sizeof(got)));
		return NULL;
	}
}

/* ++/-- around a primary, then ^ (right-associative, its exponent may be negated). */
static struct awk_node *parse_power(struct awk_parser *p)
{
	struct awk_node *n;

	if (p->tok == TK_INCR || p->tok == TK_DECR) {
		int op = p->tok == TK_INCR ? '+' : '-';

		lex_next(p);
		n = parse_primary(p);
		if (n && !is_lvalue(n)) {
			parse_error(p, "++ or -- of something that is not a variable");
			return NULL;
		}
		n = node2(p, N_INCDEC, op, n, NULL);
		if (n)
			n->flag = true;
	} else {
		n = parse_primary(p);
		if (is_lvalue(n) && (p->tok == TK_INCR || p->tok == TK_DECR)) {
			n = node2(p, N_INCDEC, p->tok == TK_INCR ? '+' : '-', n, NULL);
			lex_next(p);
		}
	}
	if (n && p->tok == '^') {
		lex_next(p);
		n = node2(p, N_BINARY, '^', n, parse_unary(p));
	}
	return p->failed ? NULL : n;
}

static struct awk_node *parse_unary(struct awk_parser *p)
{
	int tok = p->tok;
	struct awk_node *n;

	if (tok != '!' && tok != '-' && tok != '+')
		return parse_power(p);
	if (!parse_enter(p))
		return NULL;
	lex_next(p);
	n = parse_unary(p);
	p->depth--;
	return n ? node2(p, tok == '!' ? N_NOT : tok == '-' ? N_NEG : N_PLUS, 0, n, NULL) : NULL;
}
