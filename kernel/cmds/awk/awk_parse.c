/*
 * awk's parser for the program's structure: rules (BEGIN, END, patterns,
 * ranges), function definitions and statements, into nodes allocated in
 * the program's arena. Expressions are awk_expr.c's.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/regex.h>
#include <kernel/cmds/awk/awk_parse.h>

static const char *const special_names[V_NSPECIAL] = {
	[V_NF] = "NF", [V_NR] = "NR", [V_FNR] = "FNR", [V_FS] = "FS", [V_OFS] = "OFS",
	[V_ORS] = "ORS", [V_RS] = "RS", [V_FILENAME] = "FILENAME", [V_SUBSEP] = "SUBSEP",
	[V_RSTART] = "RSTART", [V_RLENGTH] = "RLENGTH", [V_CONVFMT] = "CONVFMT",
	[V_OFMT] = "OFMT", [V_ENVIRON] = "ENVIRON", [V_ARGC] = "ARGC", [V_ARGV] = "ARGV",
};

/* Append item to the array *v of *n, growing *cap; false when out of memory. */
static bool push_ptr(void ***v, int *n, int *cap, void *item)
{
	if (*n == *cap) {
		int c = *cap ? *cap * 2 : 16;
		void **nv = krealloc(*v, sizeof(*nv) * (size_t)c, GFP_KERNEL);

		if (!nv)
			return false;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = item;
	return true;
}

struct awk_node *new_node(struct awk_parser *p, enum awk_kind kind)
{
	struct awk_node *n = sh_arena_alloc(p->prog->arena, sizeof(*n));

	if (!n) {
		parse_error(p, "out of memory");
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = p->tline;
	return n;
}

struct awk_str *prog_str(struct awk_parser *p, const char *s, size_t len)
{
	struct awk_str *str = str_make(NULL, s ? s : "", len);

	if ((str == &awk_empty && len) ||
	    !push_ptr((void ***)&p->prog->strs, &p->prog->nstrs, &p->prog->strs_cap, str)) {
		str_put(str);
		parse_error(p, "out of memory");
		return &awk_empty;
	}
	return str;
}

struct regex *prog_regex(struct awk_parser *p, const struct awk_str *text)
{
	struct regex *re;
	char err[80];

	if (regex_compile(&re, text->s, RE_EXTENDED, err, sizeof(err))) {
		parse_error(p, "/%s/: %s", text->s, err);
		return NULL;
	}
	if (!push_ptr((void ***)&p->prog->res, &p->prog->nres, &p->prog->res_cap, re)) {
		regex_free(re);
		parse_error(p, "out of memory");
		return NULL;
	}
	return re;
}

bool parse_enter(struct awk_parser *p)
{
	if (++p->depth > AWK_MAX_DEPTH || sh_os->stack_left() < AWK_STACK_RESERVE) {
		parse_error(p, "nested too deeply");
		return false;
	}
	return true;
}

static int global_slot(struct awk_parser *p, const char *name)
{
	struct awk_prog *prog = p->prog;
	char *copy;

	for (int i = 0; i < prog->nglobals; i++)
		if (!strcmp(prog->globals[i], name))
			return i;
	copy = sh_arena_strdup(prog->arena, name, strlen(name));
	if (!copy || !push_ptr((void ***)&prog->globals, &prog->nglobals, &prog->globals_cap, copy)) {
		parse_error(p, "out of memory");
		return 0;
	}
	return prog->nglobals - 1;
}

struct awk_node *name_node(struct awk_parser *p, const char *name)
{
	struct awk_node *n;

	for (int i = 0; p->func && i < p->func->nparams; i++)
		if (!strcmp(p->params[i], name)) {
			if ((n = new_node(p, N_LOCAL)))
				n->slot = i;
			return n;
		}
	for (int i = 0; i < p->prog->nfuncs; i++)
		if (!strcmp(p->prog->funcs[i]->name, name)) {
			parse_error(p, "%s is a function, not a variable", name);
			return NULL;
		}
	if ((n = new_node(p, N_VAR)))
		n->slot = global_slot(p, name);
	return n;
}

void mark_array(struct awk_parser *p, struct awk_node *n)
{
	if (n && n->kind == N_LOCAL && n->slot < 64)
		p->func->array_params |= 1ULL << n->slot;
}

struct awk_func *func_ref(struct awk_parser *p, const char *name)
{
	struct awk_func *f;

	for (int i = 0; i < p->prog->nfuncs; i++)
		if (!strcmp(p->prog->funcs[i]->name, name))
			return p->prog->funcs[i];
	f = sh_arena_alloc(p->prog->arena, sizeof(*f));
	if (!f || !(f->name = sh_arena_strdup(p->prog->arena, name, strlen(name))) ||
	    !push_ptr((void ***)&p->prog->funcs, &p->prog->nfuncs, &p->prog->funcs_cap, f)) {
		parse_error(p, "out of memory");
		return NULL;
	}
	*f = (struct awk_func){ .name = f->name, .line = p->tline, .col = p->tcol };
	return f;
}

static struct awk_node *parse_stmt(struct awk_parser *p);

/* ; or newlines end a simple statement; a '}' or the end may follow it directly. */
static void end_simple(struct awk_parser *p)
{
	char got[48];

	if (p->tok == ';' || p->tok == TK_NEWLINE)
		lex_next(p);
	else if (p->tok != '}' && p->tok != TK_EOF && p->tok != TK_ELSE)
		parse_error(p, "unexpected %s", tok_text(p, got, sizeof(got)));
	skip_newlines(p);
}

/* Statements up to the '}' (consumed); the '{' was. */
static struct awk_node *parse_block(struct awk_parser *p)
{
	struct awk_node *blk = new_node(p, S_BLOCK), **tail = blk ? &blk->a : NULL;

	while (blk && !p->failed) {
		while (p->tok == TK_NEWLINE || p->tok == ';')
			lex_next(p);
		if (p->tok == '}')
			break;
		if (p->tok == TK_EOF) {
			parse_error(p, "missing '}'");
			break;
		}
		if ((*tail = parse_stmt(p)))
			tail = &(*tail)->next;
	}
	expect(p, '}');
	return p->failed ? NULL : blk;
}

static struct awk_node *parse_print(struct awk_parser *p, enum awk_kind kind)
{
	struct awk_node *s = new_node(p, kind);

	lex_next(p);
	if (!s)
		return NULL;
	p->no_gt = true;
	if (p->tok != ';' && p->tok != TK_NEWLINE && p->tok != '}' && p->tok != '>' &&
	    p->tok != TK_APPEND && p->tok != '|' && p->tok != TK_EOF)
		s->a = parse_expr_list(p, 0);
	p->no_gt = false;
	/* print (a, b) > "f": the parenthesised list is the list. */
	if (s->a && s->a->kind == N_GROUP && !s->a->next)
		s->a = s->a->a;
	if (kind == S_PRINTF && !s->a)
		parse_error(p, "printf needs a format");
	s->op = p->tok == '>' ? R_FILE : p->tok == TK_APPEND ? R_APPEND : p->tok == '|' ? R_PIPE : R_NONE;
	if (s->op != R_NONE) {
		lex_next(p);
		s->b = parse_concat(p);
	}
	return s;
}

static struct awk_node *parse_simple(struct awk_parser *p)
{
	struct awk_node *s;
	char got[48];
	int tok = p->tok;

	switch (tok) {
	case TK_PRINT:
		return parse_print(p, S_PRINT);
	case TK_PRINTF:
		return parse_print(p, S_PRINTF);
	case TK_DELETE:
		s = new_node(p, S_DELETE);
		lex_next(p);
		if (p->tok != TK_NAME) {
			parse_error(p, "delete needs an array name, got %s", tok_text(p, got, sizeof(got)));
			return NULL;
		}
		if (s && (s->a = name_node(p, p->text.s)))
			mark_array(p, s->a);
		lex_next(p);
		if (s && p->tok == '[') {
			lex_next(p);
			s->b = parse_expr_list(p, ']');
			expect(p, ']');
		}
		return s;
	case TK_NEXT:
	case TK_NEXTFILE:
		/* In a function, only a run from BEGIN or END finds it wrong. */
		if (p->rule_kind != RULE_MAIN && !p->func) {
			parse_error(p, "%s is only allowed in a main rule", tok == TK_NEXT ? "next" : "nextfile");
			return NULL;
		}
		s = new_node(p, tok == TK_NEXT ? S_NEXT : S_NEXTFILE);
		lex_next(p);
		return s;
	case TK_BREAK:
	case TK_CONTINUE:
		if (!p->loops) {
			parse_error(p, "%s outside a loop", tok == TK_BREAK ? "break" : "continue");
			return NULL;
		}
		s = new_node(p, tok == TK_BREAK ? S_BREAK : S_CONTINUE);
		lex_next(p);
		return s;
	case TK_EXIT:
	case TK_RETURN:
		if (tok == TK_RETURN && !p->func) {
			parse_error(p, "return outside a function");
			return NULL;
		}
		s = new_node(p, tok == TK_EXIT ? S_EXIT : S_RETURN);
		lex_next(p);
		if (s && p->tok != ';' && p->tok != TK_NEWLINE && p->tok != '}' && p->tok != TK_EOF)
			s->a = parse_expr(p);
		return s;
	default:
		s = new_node(p, S_EXPR);
		if (s && (s->a = parse_expr(p)) && s->a->kind == N_GROUP)
			parse_error(p, "a parenthesised list is only allowed before 'in'");
		return s;
	}
}

/* A loop body: break and continue are allowed in it. */
static struct awk_node *parse_body(struct awk_parser *p)
{
	struct awk_node *s;

	skip_newlines(p);
	p->loops++;
	s = parse_stmt(p);
	p->loops--;
	return s;
}

static struct awk_node *parse_for(struct awk_parser *p)
{
	struct awk_node *s = new_node(p, S_FOR), *init = NULL;

	lex_next(p);
	expect(p, '(');
	if (!s)
		return NULL;
	if (p->tok != ';')
		init = parse_simple(p);
	/* for (k in a): the init parsed as the expression `k in a`. */
	if (init && init->kind == S_EXPR && init->a && init->a->kind == N_IN &&
	    (init->a->a->kind == N_VAR || init->a->a->kind == N_LOCAL) && !init->a->a->next &&
	    p->tok == ')') {
		lex_next(p);
		s->kind = S_FORIN;
		s->a = init->a->a;
		s->b = init->a->b;
		s->c = parse_body(p);
		return s;
	}
	s->a = init;
	expect(p, ';');
	skip_newlines(p);
	if (p->tok != ';')
		s->b = parse_expr(p);
	expect(p, ';');
	skip_newlines(p);
	if (p->tok != ')')
		s->c = parse_simple(p);
	expect(p, ')');
	s->d = parse_body(p);
	return s;
}

static struct awk_node *parse_stmt(struct awk_parser *p)
{
	struct awk_node *s = NULL;

	if (!parse_enter(p))
		return NULL;
	switch (p->tok) {
	case '{':
		lex_next(p);
		s = parse_block(p);
		break;
	case ';':
		lex_next(p);
		s = new_node(p, S_BLOCK);
		break;
	case TK_IF:
		s = new_node(p, S_IF);
		lex_next(p);
		expect(p, '(');
		if (s)
			s->a = parse_expr(p);
		expect(p, ')');
		skip_newlines(p);
		if (s)
			s->b = parse_stmt(p);
		while (p->tok == TK_NEWLINE || p->tok == ';')
			lex_next(p);
		if (p->tok == TK_ELSE) {
			lex_next(p);
			if (s)
				s->c = parse_stmt(p);
		}
		break;
	case TK_WHILE:
		s = new_node(p, S_WHILE);
		lex_next(p);
		expect(p, '(');
		if (s)
			s->a = parse_expr(p);
		expect(p, ')');
		if (p->tok == ';') {	/* while (x); */
			lex_next(p);
			break;
		}
		if (s)
			s->b = parse_body(p);
		break;
	case TK_DO:
		s = new_node(p, S_DO);
		lex_next(p);
		if (s)
			s->b = parse_body(p);
		while (p->tok == TK_NEWLINE || p->tok == ';')
			lex_next(p);
		expect(p, TK_WHILE);
		expect(p, '(');
		if (s)
			s->a = parse_expr(p);
		expect(p, ')');
		end_simple(p);
		break;
	case TK_FOR:
		s = parse_for(p);
		break;
	default:
		s = parse_simple(p);
		end_simple(p);
	}
	p->depth--;
	return p->failed ? NULL : s;
}

static void add_rule(struct awk_parser *p, int kind, struct awk_node *pat, struct awk_node *pat2)
{
	struct awk_rule *r = sh_arena_alloc(p->prog->arena, sizeof(*r));

	if (!r) {
		parse_error(p, "out of memory");
		return;
	}
	*r = (struct awk_rule){ .kind = kind, .pattern = pat, .pattern2 = pat2 };
	if (kind != RULE_BEGIN)
		p->prog->has_main = true;
	p->rule_kind = kind;
	if (p->tok == '{') {
		lex_next(p);
		r->action = parse_block(p);
	} else if (kind != RULE_MAIN) {
		expect(p, '{');
	}
	*p->prog->tail = r;
	p->prog->tail = &r->next;
}

static void parse_function(struct awk_parser *p)
{
	struct awk_func *f;
	char *params[64];
	int n = 0;

	lex_next(p);
	if (p->tok != TK_NAME && p->tok != TK_FUNC_NAME) {
		parse_error(p, "expected a function name");
		return;
	}
	f = func_ref(p, p->text.s);
	if (f && f->defined)
		parse_error(p, "function %s defined twice", f->name);
	for (int i = 0; i < p->prog->nglobals; i++)
		if (f && !strcmp(p->prog->globals[i], f->name))
			parse_error(p, "%s is a variable, not a function", f->name);
	lex_next(p);
	expect(p, '(');
	while (!p->failed && p->tok != ')') {
		if (p->tok != TK_NAME || n == (int)ARRAY_SIZE(params)) {
			parse_error(p, n == (int)ARRAY_SIZE(params) ? "too many parameters" :
				    "expected a parameter name");
			return;
		}
		params[n] = sh_arena_strdup(p->prog->arena, p->text.s, strlen(p->text.s));
		for (int i = 0; i < n; i++)
			if (params[n] && !strcmp(params[i], params[n]))
				parse_error(p, "parameter %s given twice", params[n]);
		n++;
		lex_next(p);
		if (p->tok == ',')
			lex_next(p);
		else if (p->tok != ')')
			expect(p, ')');
	}
	lex_next(p);
	skip_newlines(p);
	if (!f || p->failed)
		return;
	f->defined = true;
	f->nparams = n;
	p->func = f;
	p->params = params;
	p->rule_kind = RULE_BEGIN;
	if (expect(p, '{'))
		f->body = parse_block(p);
	p->func = NULL;
	p->params = NULL;
}

static void parse_item(struct awk_parser *p)
{
	struct awk_node *pat, *pat2 = NULL;

	switch (p->tok) {
	case TK_FUNCTION:
		parse_function(p);
		return;
	case TK_BEGIN:
	case TK_END:
		lex_next(p);
		add_rule(p, p->prev == TK_BEGIN ? RULE_BEGIN : RULE_END, NULL, NULL);
		return;
	case '{':
		add_rule(p, RULE_MAIN, NULL, NULL);
		return;
	}
	p->rule_kind = RULE_MAIN;
	pat = parse_expr(p);
	if (p->tok == ',') {
		lex_next(p);
		pat2 = parse_expr(p);
	}
	if (!p->failed)
		add_rule(p, RULE_MAIN, pat, pat2);
}

struct awk_prog *awk_compile(const char *text)
{
	struct awk_prog *prog = kzalloc(sizeof(*prog), GFP_KERNEL);
	struct awk_parser p = { .src = text, .p = text, .line = 1, .col = 1, .tok = TK_NEWLINE, .prog = prog };

	if (!prog || !(prog->arena = sh_arena_new())) {
		kfree(prog);
		sh_eprintf("awk: out of memory\n");
		return NULL;
	}
	prog->tail = &prog->rules;
	for (int i = 0; i < V_NSPECIAL; i++)
		global_slot(&p, special_names[i]);
	lex_next(&p);
	while (p.tok == TK_NEWLINE || p.tok == ';')
		lex_next(&p);
	while (!p.failed && p.tok != TK_EOF) {
		char got[48];

		parse_item(&p);
		/* Items end with a newline or ';', or with the '}' of an action. */
		if (p.prev != '}' && p.tok != TK_NEWLINE && p.tok != ';' && p.tok != TK_EOF)
			parse_error(&p, "unexpected %s", tok_text(&p, got, sizeof(got)));
		while (p.tok == TK_NEWLINE || p.tok == ';')
			lex_next(&p);
	}
	for (int i = 0; !p.failed && i < prog->nfuncs; i++)
		if (!prog->funcs[i]->defined) {
			p.tline = prog->funcs[i]->line;
			p.tcol = prog->funcs[i]->col;
			parse_error(&p, "function %s is not defined", prog->funcs[i]->name);
		}
	sh_buf_free(&p.text);
	if (p.failed) {
		awk_prog_free(prog);
		return NULL;
	}
	return prog;
}

void awk_prog_free(struct awk_prog *p)
{
	for (int i = 0; i < p->nstrs; i++)
		str_put(p->strs[i]);
	for (int i = 0; i < p->nres; i++)
		regex_free(p->res[i]);
	kfree(p->strs);
	kfree(p->res);
	kfree(p->globals);
	kfree(p->funcs);
	sh_arena_put(p->arena);
	kfree(p);
}
