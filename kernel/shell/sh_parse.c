/*
 * Recursive-descent parser for the POSIX shell grammar subset: lists,
 * and-or lists, pipelines, simple commands with assignments and
 * redirections, ( ), { }, if, while, until, for, case and functions.
 * Reserved words are plain words the parser recognizes by position.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_lex.h>

/* A growable array of pointers, copied into the arena when complete. */
struct ptrvec {
	void **v;
	int n, cap;
	bool oom;
};

static void vec_push(struct ptrvec *v, void *x)
{
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 8;
		void **nv = krealloc(v->v, sizeof(*nv) * (size_t)cap, GFP_KERNEL);

		if (!nv) {
			v->oom = true;
			return;
		}
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = x;
}

static void *vec_finish(struct sh_parser *p, struct ptrvec *v)
{
	void **a = sh_arena_alloc(p->arena, sizeof(void *) * (size_t)(v->n ? v->n : 1));

	if (a && v->n)
		memcpy(a, v->v, sizeof(void *) * (size_t)v->n);
	if (!a || v->oom)
		sh_syntax_error(p, false, "out of memory");
	kfree(v->v);
	return v->oom ? NULL : a;
}

static int tok(struct sh_parser *p)
{
	if (!p->have_tok) {
		sh_lex(p);
		p->have_tok = true;
	}
	return p->tok.type;
}

static void consume(struct sh_parser *p)
{
	p->have_tok = false;
}

/* Is the current token the reserved word kw? */
static bool is_kw(struct sh_parser *p, const char *kw)
{
	return tok(p) == T_WORD && !p->tok.quoted && p->tok.io_number < 0 &&
	       !strcmp(p->tok.text, kw);
}

static void *unexpected(struct sh_parser *p)
{
	int t = tok(p);

	if (t == T_EOF)
		sh_syntax_error(p, true, "unexpected end of file");
	else if (t == T_NEWLINE)
		sh_syntax_error(p, false, "unexpected newline");
	else if (t != T_ERROR)
		sh_syntax_error(p, false, "unexpected '%s'", sh_tok_text(&p->tok));
	return NULL;
}

static bool expect_kw(struct sh_parser *p, const char *kw)
{
	if (!is_kw(p, kw)) {
		unexpected(p);
		return false;
	}
	consume(p);
	return true;
}

static void linebreak(struct sh_parser *p)
{
	while (tok(p) == T_NEWLINE)
		consume(p);
}

static struct sh_node *new_node(struct sh_parser *p, enum sh_node_type type)
{
	struct sh_node *n = sh_arena_alloc(p->arena, sizeof(*n));

	if (!n) {
		sh_syntax_error(p, false, "out of memory");
		return NULL;
	}
	n->type = type;
	n->lineno = p->tok.lineno;
	return n;
}

bool sh_is_name(const char *s, size_t len)
{
	if (!len || !sh_isname1(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!sh_isname(s[i]))
			return false;
	return true;
}

/* Words that end a compound list: a command cannot start with them. */
static bool at_list_end(struct sh_parser *p)
{
	static const char *const ends[] = { "then", "else", "elif", "fi", "do", "done", "esac", "}" };
	int t = tok(p);

	if (t == T_EOF || t == T_RPAREN || t == T_DSEMI || t == T_ERROR)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(ends); i++)
		if (is_kw(p, ends[i]))
			return true;
	return false;
}

static struct sh_node *parse_and_or(struct sh_parser *p);
static struct sh_node *parse_command(struct sh_parser *p);

static struct sh_node *make_list(struct sh_parser *p, struct ptrvec *items, struct ptrvec *bg)
{
	struct sh_node *n;

	if (items->n == 1 && !bg->v[0]) {
		n = items->v[0];
		kfree(items->v);
		kfree(bg->v);
		return n;
	}
	n = new_node(p, SH_N_LIST);
	if (!n) {
		kfree(items->v);
		kfree(bg->v);
		return NULL;
	}
	n->list.n = items->n;
	n->list.background = sh_arena_alloc(p->arena, sizeof(bool) * (size_t)items->n);
	if (n->list.background)
		for (int i = 0; i < items->n; i++)
			n->list.background[i] = bg->v[i] != NULL;
	kfree(bg->v);
	n->list.items = vec_finish(p, items);
	return n->list.items && n->list.background ? n : NULL;
}

/*
 * A list of and-or lists separated by ; & or newlines. At the top level
 * it ends at a newline; inside a compound command at a closing word.
 */
static struct sh_node *parse_list(struct sh_parser *p, bool top, bool allow_empty)
{
	struct ptrvec items = { 0 }, bg = { 0 };

	if (!top)
		linebreak(p);
	for (;;) {
		struct sh_node *n;
		int t;

		if (!top && at_list_end(p))
			break;
		n = parse_and_or(p);
		if (!n)
			goto fail;
		vec_push(&items, n);
		t = tok(p);
		vec_push(&bg, t == T_AMP ? (void *)1 : NULL);
		if (t == T_SEMI || t == T_AMP) {
			consume(p);
			t = tok(p);
		} else if (t != T_NEWLINE && (top || !at_list_end(p))) {
			if (t == T_EOF)
				break;
			unexpected(p);
			goto fail;
		}
		if (top) {
			if (t == T_NEWLINE || t == T_EOF)
				break;
		} else {
			linebreak(p);
		}
	}
	if (items.n == 0) {
		kfree(items.v);
		kfree(bg.v);
		return allow_empty ? NULL : unexpected(p);
	}
	return make_list(p, &items, &bg);
fail:
	kfree(items.v);
	kfree(bg.v);
	return NULL;
}

static struct sh_node *parse_pipeline(struct sh_parser *p)
{
	struct ptrvec cmds = { 0 };
	struct sh_node *n, *pipe;
	bool negate = false;

	if (is_kw(p, "!")) {
		consume(p);
		negate = true;
	}
	for (;;) {
		n = parse_command(p);
		if (!n) {
			kfree(cmds.v);
			return NULL;
		}
		vec_push(&cmds, n);
		if (tok(p) != T_PIPE)
			break;
		consume(p);
		linebreak(p);
	}
	if (cmds.n == 1) {
		kfree(cmds.v);
	} else {
		pipe = new_node(p, SH_N_PIPE);
		if (!pipe) {
			kfree(cmds.v);
			return NULL;
		}
		pipe->pipe.n = cmds.n;
		pipe->pipe.cmds = vec_finish(p, &cmds);
		if (!pipe->pipe.cmds)
			return NULL;
		n = pipe;
	}
	if (negate) {
		struct sh_node *not = new_node(p, SH_N_NOT);

		if (!not)
			return NULL;
		not->one.body = n;
		n = not;
	}
	return n;
}

static struct sh_node *parse_and_or(struct sh_parser *p)
{
	struct sh_node *left = parse_pipeline(p);

	while (left && (tok(p) == T_AND_IF || tok(p) == T_OR_IF)) {
		struct sh_node *n = new_node(p, tok(p) == T_AND_IF ? SH_N_AND : SH_N_OR);

		consume(p);
		linebreak(p);
		if (!n)
			return NULL;
		n->bin.left = left;
		n->bin.right = parse_pipeline(p);
		if (!n->bin.right)
			return NULL;
		left = n;
	}
	return left;
}

/* A redirection operator is current (with its io_number, if any, consumed). */
static struct sh_redir *parse_redir(struct sh_parser *p, int fd)
{
	struct sh_redir *r = sh_arena_alloc(p->arena, sizeof(*r));
	int t = tok(p);

	if (!r) {
		sh_syntax_error(p, false, "out of memory");
		return NULL;
	}
	switch (t) {
	case T_LESS: r->op = SH_R_IN; break;
	case T_GREAT:
	case T_CLOBBER: r->op = SH_R_OUT; break;
	case T_DGREAT: r->op = SH_R_APPEND; break;
	case T_LESSGREAT: r->op = SH_R_RDWR; break;
	case T_LESSAND: r->op = SH_R_DUPIN; break;
	case T_GREATAND: r->op = SH_R_DUPOUT; break;
	default: r->op = SH_R_HEREDOC; break;
	}
	r->fd = fd >= 0 ? fd : (t == T_LESS || t == T_LESSGREAT || t == T_LESSAND ||
				t == T_DLESS || t == T_DLESSDASH) ? 0 : 1;
	consume(p);
	if (tok(p) != T_WORD)
		return unexpected(p);
	r->word = p->tok.text;
	consume(p);
	if (r->op == SH_R_HEREDOC) {
		struct sh_redir **pp = &p->heredocs;

		r->strip_tabs = t == T_DLESSDASH;
		while (*pp)
			pp = &(*pp)->next_heredoc;
		*pp = r;
	}
	return r;
}

static bool is_redir_tok(int t)
{
	return t >= T_LESS && t <= T_DLESSDASH;
}

/* Redirections after a compound command or among a simple command's words. */
static bool parse_redirs(struct sh_parser *p, struct sh_redir ***tail)
{
	for (;;) {
		int fd = -1;
		struct sh_redir *r;

		if (tok(p) == T_WORD && p->tok.io_number >= 0) {
			fd = p->tok.io_number;
			consume(p);
		} else if (!is_redir_tok(tok(p))) {
			return true;
		}
		r = parse_redir(p, fd);
		if (!r)
			return false;
		**tail = r;
		*tail = &r->next;
	}
}

static bool is_assignment(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq && sh_is_name(s, (size_t)(eq - s));
}

static struct sh_node *parse_simple(struct sh_parser *p, char *first)
{
	struct sh_node *n = new_node(p, SH_N_SIMPLE);
	struct ptrvec words = { 0 }, assigns = { 0 };
	struct sh_redir **tail;

	if (!n)
		return NULL;
	tail = &n->redirs;
	if (first)
		vec_push(&words, first);
	for (;;) {
		if (!parse_redirs(p, &tail))
			goto fail;
		if (tok(p) != T_WORD)
			break;
		if (!words.n && is_assignment(p->tok.text))
			vec_push(&assigns, p->tok.text);
		else
			vec_push(&words, p->tok.text);
		consume(p);
	}
	if (!words.n && !assigns.n && !n->redirs) {
		unexpected(p);
		goto fail;
	}
	n->simple.nwords = words.n;
	n->simple.nassigns = assigns.n;
	n->simple.words = vec_finish(p, &words);
	n->simple.assigns = vec_finish(p, &assigns);
	return n->simple.words && n->simple.assigns ? n : NULL;
fail:
	kfree(words.v);
	kfree(assigns.v);
	return NULL;
}

static struct sh_node *parse_if(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_N_IF);

	consume(p);	/* if or elif */
	if (!n || !(n->ifn.cond = parse_list(p, false, false)) || !expect_kw(p, "then") ||
	    !(n->ifn.then = parse_list(p, false, false)))
		return NULL;
	if (is_kw(p, "elif"))
		return (n->ifn.els = parse_if(p)) ? n : NULL;
	if (is_kw(p, "else")) {
		consume(p);
		if (!(n->ifn.els = parse_list(p, false, false)))
			return NULL;
	}
	return expect_kw(p, "fi") ? n : NULL;
}

static struct sh_node *parse_do_group(struct sh_parser *p)
{
	struct sh_node *body;

	linebreak(p);
	if (!expect_kw(p, "do") || !(body = parse_list(p, false, false)) || !expect_kw(p, "done"))
		return NULL;
	return body;
}

static struct sh_node *parse_loop(struct sh_parser *p, enum sh_node_type type)
{
	struct sh_node *n = new_node(p, type);

	consume(p);
	if (!n || !(n->loop.cond = parse_list(p, false, false)) ||
	    !(n->loop.body = parse_do_group(p)))
		return NULL;
	return n;
}

static struct sh_node *parse_for(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_N_FOR);
	struct ptrvec words = { 0 };

	consume(p);
	if (!n)
		return NULL;
	if (tok(p) != T_WORD)
		return unexpected(p);
	if (!sh_is_name(p->tok.text, strlen(p->tok.text))) {
		sh_syntax_error(p, false, "bad for loop variable '%s'", p->tok.text);
		return NULL;
	}
	n->forn.var = p->tok.text;
	consume(p);
	linebreak(p);
	if (is_kw(p, "in")) {
		consume(p);
		n->forn.has_in = true;
		while (tok(p) == T_WORD) {
			vec_push(&words, p->tok.text);
			consume(p);
		}
		if (tok(p) != T_SEMI && tok(p) != T_NEWLINE) {
			kfree(words.v);
			return unexpected(p);
		}
		consume(p);
		n->forn.nwords = words.n;
		if (!(n->forn.words = vec_finish(p, &words)))
			return NULL;
	} else if (tok(p) == T_SEMI) {
		consume(p);
	}
	return (n->forn.body = parse_do_group(p)) ? n : NULL;
}

static struct sh_case_item *parse_case_item(struct sh_parser *p)
{
	struct sh_case_item *it = sh_arena_alloc(p->arena, sizeof(*it));
	struct ptrvec pats = { 0 };

	if (!it)
		return unexpected(p);
	if (tok(p) == T_LPAREN)
		consume(p);
	for (;;) {
		if (tok(p) != T_WORD) {
			kfree(pats.v);
			return unexpected(p);
		}
		vec_push(&pats, p->tok.text);
		consume(p);
		if (tok(p) != T_PIPE)
			break;
		consume(p);
	}
	if (tok(p) != T_RPAREN) {
		kfree(pats.v);
		return unexpected(p);
	}
	consume(p);
	it->npats = pats.n;
	if (!(it->pats = vec_finish(p, &pats)))
		return NULL;
	it->body = parse_list(p, false, true);
	if (p->err[0])
		return NULL;
	if (tok(p) == T_DSEMI) {
		consume(p);
		linebreak(p);
	} else if (!is_kw(p, "esac")) {
		return unexpected(p);
	}
	return it;
}

static struct sh_node *parse_case(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_N_CASE);
	struct sh_case_item **tail;

	consume(p);
	if (!n)
		return NULL;
	if (tok(p) != T_WORD)
		return unexpected(p);
	n->casen.word = p->tok.text;
	consume(p);
	linebreak(p);
	if (!expect_kw(p, "in"))
		return NULL;
	linebreak(p);
	tail = &n->casen.items;
	while (!is_kw(p, "esac")) {
		struct sh_case_item *it = parse_case_item(p);

		if (!it)
			return NULL;
		*tail = it;
		tail = &it->next;
	}
	consume(p);
	return n;
}

static struct sh_node *parse_group(struct sh_parser *p, enum sh_node_type type)
{
	struct sh_node *n = new_node(p, type);

	consume(p);
	if (!n || !(n->one.body = parse_list(p, false, false)))
		return NULL;
	if (type == SH_N_SUBSHELL) {
		if (tok(p) != T_RPAREN)
			return unexpected(p);
		consume(p);
		return n;
	}
	return expect_kw(p, "}") ? n : NULL;
}

static struct sh_node *parse_compound(struct sh_parser *p)
{
	if (tok(p) == T_LPAREN)
		return parse_group(p, SH_N_SUBSHELL);
	if (is_kw(p, "{"))
		return parse_group(p, SH_N_GROUP);
	if (is_kw(p, "if"))
		return parse_if(p);
	if (is_kw(p, "while"))
		return parse_loop(p, SH_N_WHILE);
	if (is_kw(p, "until"))
		return parse_loop(p, SH_N_UNTIL);
	if (is_kw(p, "for"))
		return parse_for(p);
	if (is_kw(p, "case"))
		return parse_case(p);
	return NULL;
}

static bool starts_compound(struct sh_parser *p)
{
	static const char *const kws[] = { "{", "if", "while", "until", "for", "case" };

	if (tok(p) == T_LPAREN)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(kws); i++)
		if (is_kw(p, kws[i]))
			return true;
	return false;
}

static struct sh_node *parse_compound_redirs(struct sh_parser *p)
{
	struct sh_node *n;
	struct sh_redir **tail;

	if (++p->depth > SH_MAX_NESTING) {
		sh_syntax_error(p, false, "nesting too deep");
		return NULL;
	}
	n = parse_compound(p);
	p->depth--;
	if (!n)
		return NULL;
	tail = &n->redirs;
	return parse_redirs(p, &tail) ? n : NULL;
}

static struct sh_node *parse_command(struct sh_parser *p)
{
	struct sh_node *n;
	char *name;

	if (starts_compound(p))
		return parse_compound_redirs(p);
	if (at_list_end(p) || is_kw(p, "!"))
		return unexpected(p);
	if (tok(p) != T_WORD || p->tok.io_number >= 0 || is_assignment(p->tok.text))
		return parse_simple(p, NULL);
	name = p->tok.text;
	consume(p);
	if (tok(p) != T_LPAREN)
		return parse_simple(p, name);
	/* name ( ) compound-command: a function definition. */
	consume(p);
	if (tok(p) != T_RPAREN)
		return unexpected(p);
	consume(p);
	if (!sh_is_name(name, strlen(name))) {
		sh_syntax_error(p, false, "bad function name '%s'", name);
		return NULL;
	}
	linebreak(p);
	if (!starts_compound(p))
		return unexpected(p);
	n = new_node(p, SH_N_FUNC);
	if (!n)
		return NULL;
	n->func.name = name;
	n->func.body = parse_compound_redirs(p);
	return n->func.body ? n : NULL;
}

void sh_parser_init(struct sh_parser *p, const char *src, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->src = src;
	p->len = len;
	p->lineno = 1;
}

int sh_parse_next(struct sh_parser *p, struct sh_node **out, struct sh_arena **arena)
{
	struct sh_node *n;

	*out = NULL;
	*arena = NULL;
	if (p->err[0])
		return SH_PARSE_ERROR;
	if (p->pos == 0 && memchr(p->src, '\0', p->len)) {
		p->lineno = 1;
		sh_syntax_error(p, false, "NUL byte in input");
		return SH_PARSE_ERROR;
	}
	p->arena = sh_arena_new();
	if (!p->arena) {
		sh_syntax_error(p, false, "out of memory");
		return SH_PARSE_ERROR;
	}
	p->have_tok = false;
	p->heredocs = NULL;
	p->depth = 0;
	linebreak(p);
	if (tok(p) == T_EOF) {
		sh_arena_put(p->arena);
		p->arena = NULL;
		return SH_PARSE_EOF;
	}
	n = parse_list(p, true, false);
	if (!n || p->err[0]) {
		if (!p->err[0])
			unexpected(p);
		sh_arena_put(p->arena);
		p->arena = NULL;
		return SH_PARSE_ERROR;
	}
	if (tok(p) == T_NEWLINE)
		consume(p);
	*out = n;
	*arena = p->arena;
	p->arena = NULL;
	return SH_PARSE_OK;
}
