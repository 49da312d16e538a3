/*
 * Tokenizer. Words keep their quotes: the expander needs them. Here a word
 * only has to be found whole, which means skipping over quotes and over
 * nested $(...), ${...} and `...` so that their operators do not end it.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_lex.h>

void sh_syntax_error(struct sh_parser *p, bool incomplete, const char *fmt, ...)
{
	va_list ap;

	if (p->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	p->err_line = p->lineno;
	p->incomplete = incomplete;
}

/* The current byte, after any backslash-newline line continuations; -1 at the end. */
static int peek(struct sh_parser *p)
{
	while (p->pos + 1 < p->len && p->src[p->pos] == '\\' && p->src[p->pos + 1] == '\n') {
		p->pos += 2;
		p->lineno++;
	}
	return p->pos < p->len ? (unsigned char)p->src[p->pos] : -1;
}

/* Consume the current byte and append it to b. */
static int take(struct sh_parser *p, struct sh_buf *b)
{
	int c = peek(p);

	if (c < 0)
		return c;
	p->pos++;
	if (c == '\n')
		p->lineno++;
	if (b)
		sh_buf_putc(b, (char)c);
	return c;
}

static int lex_part(struct sh_parser *p, struct sh_buf *b, int c);

static int lex_squote(struct sh_parser *p, struct sh_buf *b)
{
	sh_buf_putc(b, (char)p->src[p->pos++]);
	for (;;) {
		if (p->pos >= p->len) {
			sh_syntax_error(p, true, "unterminated quoted string");
			return -1;
		}
		char c = p->src[p->pos++];

		if (c == '\n')
			p->lineno++;
		sh_buf_putc(b, c);
		if (c == '\'')
			return 0;
	}
}

static int lex_backslash(struct sh_parser *p, struct sh_buf *b)
{
	take(p, b);
	if (p->pos >= p->len)
		return 0;	/* a trailing backslash stands for itself */
	take(p, b);
	return 0;
}

/*
 * "..." or `...` up to its closing quote. A backslash always escapes the
 * next byte; inside double quotes $ and ` also start substitutions, whose
 * own quotes must not end the string.
 */
static int lex_quoted(struct sh_parser *p, struct sh_buf *b, int close)
{
	take(p, b);
	for (;;) {
		int c = peek(p), r = 0;

		if (c < 0) {
			sh_syntax_error(p, true, "unterminated quoted string");
			return -1;
		}
		if (c == close) {
			take(p, b);
			return 0;
		}
		if (c == '\\' || (close == '"' && (c == '$' || c == '`')))
			r = lex_part(p, b, c);
		else
			take(p, b);
		if (r)
			return r;
	}
}

/*
 * The inside of $( ), $(( )) or ${ }, up to the matching close: quotes and
 * nested substitutions are skipped whole, parentheses counted.
 */
static int lex_nested(struct sh_parser *p, struct sh_buf *b, int close)
{
	int parens = 0;

	if (++p->depth > SH_MAX_NESTING) {
		sh_syntax_error(p, false, "nesting too deep");
		return -1;
	}
	for (;;) {
		int c = peek(p), r;

		if (c < 0) {
			sh_syntax_error(p, true, "missing '%c'", close);
			return -1;
		}
		if (c == close && parens == 0) {
			take(p, b);
			p->depth--;
			return 0;
		}
		if (c == '(')
			parens++;
		else if (c == ')')
			parens--;
		r = lex_part(p, b, c);
		if (r)
			return r;
	}
}

/* After '$': $(...), $((...)), ${...} or a plain $. */
static int lex_dollar(struct sh_parser *p, struct sh_buf *b)
{
	int c;

	take(p, b);
	c = peek(p);
	if (c == '(') {
		take(p, b);
		return lex_nested(p, b, ')');
	}
	if (c == '{') {
		take(p, b);
		return lex_nested(p, b, '}');
	}
	return 0;
}

/*
 * The piece of a word that starts with c (the current byte): a quoted
 * string, an escape or a substitution, taken whole, or else the one byte.
 */
static int lex_part(struct sh_parser *p, struct sh_buf *b, int c)
{
	switch (c) {
	case '\'':
		return lex_squote(p, b);
	case '"':
	case '`':
		return lex_quoted(p, b, c);
	case '\\':
		return lex_backslash(p, b);
	case '$':
		return lex_dollar(p, b);
	default:
		take(p, b);
		return 0;
	}
}

static bool is_meta(int c)
{
	return c < 0 || c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' ||
	       c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
}

static int lex_word(struct sh_parser *p)
{
	struct sh_buf b = { 0 };
	bool digits = true;
	int r = 0, c;

	p->tok.quoted = false;
	while (!is_meta(c = peek(p))) {
		if (!sh_isdigit(c))
			digits = false;
		if (c == '\'' || c == '"' || c == '\\')
			p->tok.quoted = true;
		r = lex_part(p, &b, c);
		if (r) {
			sh_buf_free(&b);
			return T_ERROR;
		}
	}
	if (b.oom) {
		sh_syntax_error(p, false, "out of memory");
		return T_ERROR;
	}
	p->tok.io_number = -1;
	if (digits && (c == '<' || c == '>') && b.len < 5) {
		p->tok.io_number = 0;
		for (size_t i = 0; i < b.len; i++)
			p->tok.io_number = p->tok.io_number * 10 + (b.s[i] - '0');
	}
	p->tok.text = sh_arena_strdup(p->arena, b.s, b.len);
	sh_buf_free(&b);
	if (!p->tok.text) {
		sh_syntax_error(p, false, "out of memory");
		return T_ERROR;
	}
	return T_WORD;
}

/* Remove quoting from a here-document delimiter; says if there was any. */
static bool unquote_delim(char *s)
{
	bool quoted = false;
	char *d = s, q = 0;

	for (; *s; s++) {
		if (!q && (*s == '\'' || *s == '"')) {
			q = *s;
			quoted = true;
		} else if (q && *s == q) {
			q = 0;
		} else if (*s == '\\' && q != '\'' && s[1]) {
			quoted = true;
			*d++ = *++s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
	return quoted;
}

/* After a newline: the bodies of the here-documents begun on its line. */
static int read_heredocs(struct sh_parser *p)
{
	for (struct sh_redir *r = p->heredocs; r; r = r->next_heredoc) {
		struct sh_buf b = { 0 };
		char *delim = r->word;
		size_t dlen;
		bool found = false;

		r->quoted = unquote_delim(delim);
		dlen = strlen(delim);
		while (p->pos < p->len) {
			const char *line = p->src + p->pos;
			const char *nl = memchr(line, '\n', p->len - p->pos);
			size_t n = nl ? (size_t)(nl - line) : p->len - p->pos;

			p->pos += n + (nl ? 1 : 0);
			p->lineno++;
			if (r->strip_tabs)
				while (n && *line == '\t') {
					line++;
					n--;
				}
			if (n == dlen && !memcmp(line, delim, n)) {
				found = true;
				break;
			}
			sh_buf_put(&b, line, n);
			sh_buf_putc(&b, '\n');
		}
		if (!found) {
			sh_buf_free(&b);
			sh_syntax_error(p, true, "here-document delimited by end of file");
			return -1;
		}
		r->word = sh_arena_strdup(p->arena, b.s ? b.s : "", b.len);
		sh_buf_free(&b);
		if (!r->word) {
			sh_syntax_error(p, false, "out of memory");
			return -1;
		}
	}
	p->heredocs = NULL;
	return 0;
}

static int lex_op(struct sh_parser *p, int c)
{
	take(p, NULL);
	int n = peek(p);

	switch (c) {
	case '\n':
		return read_heredocs(p) ? T_ERROR : T_NEWLINE;
	case ';':
		return n == ';' ? (take(p, NULL), T_DSEMI) : T_SEMI;
	case '&':
		return n == '&' ? (take(p, NULL), T_AND_IF) : T_AMP;
	case '|':
		return n == '|' ? (take(p, NULL), T_OR_IF) : T_PIPE;
	case '(':
		return T_LPAREN;
	case ')':
		return T_RPAREN;
	case '>':
		if (n == '>')
			return take(p, NULL), T_DGREAT;
		if (n == '&')
			return take(p, NULL), T_GREATAND;
		if (n == '|')
			return take(p, NULL), T_CLOBBER;
		return T_GREAT;
	default: /* '<' */
		if (n == '&')
			return take(p, NULL), T_LESSAND;
		if (n == '>')
			return take(p, NULL), T_LESSGREAT;
		if (n == '<') {
			take(p, NULL);
			if (peek(p) == '-')
				return take(p, NULL), T_DLESSDASH;
			return T_DLESS;
		}
		return T_LESS;
	}
}

int sh_lex(struct sh_parser *p)
{
	int c;

	for (;;) {
		c = peek(p);
		if (c == ' ' || c == '\t' || c == '\r') {
			take(p, NULL);
		} else if (c == '#') {
			while ((c = peek(p)) >= 0 && c != '\n')
				p->pos++;
		} else {
			break;
		}
	}
	p->tok.lineno = p->lineno;
	p->tok.text = NULL;
	p->tok.io_number = -1;
	if (c < 0)
		p->tok.type = p->heredocs ? (read_heredocs(p), T_ERROR) : T_EOF;
	else if (is_meta(c))
		p->tok.type = lex_op(p, c);
	else
		p->tok.type = lex_word(p);
	return p->tok.type;
}

const char *sh_tok_text(const struct sh_token *t)
{
	static const char *const names[] = {
		[T_EOF] = "end of file", [T_NEWLINE] = "newline", [T_SEMI] = ";",
		[T_AMP] = "&", [T_PIPE] = "|", [T_AND_IF] = "&&", [T_OR_IF] = "||",
		[T_DSEMI] = ";;", [T_LPAREN] = "(", [T_RPAREN] = ")", [T_LESS] = "<",
		[T_GREAT] = ">", [T_DGREAT] = ">>", [T_LESSAND] = "<&",
		[T_GREATAND] = ">&", [T_LESSGREAT] = "<>", [T_CLOBBER] = ">|",
		[T_DLESS] = "<<", [T_DLESSDASH] = "<<-", [T_ERROR] = "error",
	};

	if (t->type == T_WORD)
		return t->text;
	return names[t->type];
}
