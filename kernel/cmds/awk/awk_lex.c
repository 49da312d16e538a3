/*
 * awk's lexer: tokens with their line and column. A '/' starts a regular
 * expression where an operand may start and divides after one; newlines
 * are tokens (they end statements) except after , { && || do else, where
 * POSIX lets a program continue on the next line.
 */
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/cmds/awk/awk_parse.h>

static const struct { const char *name; int tok; } keywords[] = {
	{ "BEGIN", TK_BEGIN }, { "END", TK_END }, { "function", TK_FUNCTION },
	{ "func", TK_FUNCTION }, { "if", TK_IF }, { "else", TK_ELSE },
	{ "while", TK_WHILE }, { "for", TK_FOR }, { "do", TK_DO }, { "break", TK_BREAK },
	{ "continue", TK_CONTINUE }, { "next", TK_NEXT }, { "nextfile", TK_NEXTFILE },
	{ "exit", TK_EXIT }, { "return", TK_RETURN }, { "delete", TK_DELETE },
	{ "getline", TK_GETLINE }, { "print", TK_PRINT }, { "printf", TK_PRINTF },
	{ "in", TK_IN },
};

static const char *const builtins[] = {
	[B_LENGTH] = "length", [B_SUBSTR] = "substr", [B_INDEX] = "index",
	[B_SPLIT] = "split", [B_SUB] = "sub", [B_GSUB] = "gsub", [B_MATCH] = "match",
	[B_SPRINTF] = "sprintf", [B_TOLOWER] = "tolower", [B_TOUPPER] = "toupper",
	[B_INT] = "int", [B_SQRT] = "sqrt", [B_EXP] = "exp", [B_LOG] = "log", [B_SIN] = "sin",
	[B_COS] = "cos", [B_ATAN2] = "atan2", [B_RAND] = "rand", [B_SRAND] = "srand",
	[B_SYSTEM] = "system", [B_CLOSE] = "close", [B_FFLUSH] = "fflush",
};

/* Two-character operators, longest first where one is a prefix of another. */
static const struct { char s[4]; int tok; } ops[] = {
	{ "**=", TK_POW_ASSIGN }, { "**", '^' }, { "+=", TK_ADD_ASSIGN },
	{ "-=", TK_SUB_ASSIGN }, { "*=", TK_MUL_ASSIGN }, { "/=", TK_DIV_ASSIGN },
	{ "%=", TK_MOD_ASSIGN }, { "^=", TK_POW_ASSIGN }, { "||", TK_OR }, { "&&", TK_AND },
	{ "!~", TK_NOMATCH }, { "==", TK_EQ }, { "<=", TK_LE }, { ">=", TK_GE },
	{ "!=", TK_NE }, { "++", TK_INCR }, { "--", TK_DECR }, { ">>", TK_APPEND },
};

static void advance(struct awk_parser *p)
{
	if (*p->p == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
	p->p++;
}

void parse_error(struct awk_parser *p, const char *fmt, ...)
{
	const char *ls = p->src;
	char msg[160];
	va_list ap;
	int l = 1, len;

	if (p->failed)
		return;
	p->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The line of the error, with a caret under the column. */
	while (l < p->tline && *ls)
		if (*ls++ == '\n')
			l++;
	len = (int)strcspn(ls, "\n");
	sh_eprintf("awk: line %d, column %d: syntax error: %s\n  %.*s\n  %*s\n",
		   p->tline, p->tcol, msg, len > 200 ? 200 : len, ls, p->tcol, "^");
	p->tok = TK_EOF;
}

const char *tok_text(struct awk_parser *p, char *buf, size_t size)
{
	switch (p->tok) {
	case TK_EOF: return "end of program";
	case TK_NEWLINE: return "newline";
	case TK_NUMBER: return "number";
	case TK_STRING: return "string";
	case TK_ERE: return "regular expression";
	default:
		break;
	}
	if (p->tok < 256) {
		snprintf(buf, size, "'%c'", p->tok);
	} else if (p->tok == TK_NAME || p->tok == TK_FUNC_NAME || p->tok == TK_BUILTIN) {
		snprintf(buf, size, "'%s'", p->text.s ? p->text.s : "");
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
			if (keywords[i].tok == p->tok)
				snprintf(buf, size, "'%s'", keywords[i].name);
		for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
			if (ops[i].tok == p->tok)
				snprintf(buf, size, "'%s'", ops[i].s);
	}
	return buf;
}

bool expect(struct awk_parser *p, int tok)
{
	char got[48];

	if (p->tok == tok) {
		lex_next(p);
		return true;
	}
	if (tok < 256)
		parse_error(p, "expected '%c', got %s", tok, tok_text(p, got, sizeof(got)));
	else
		parse_error(p, "unexpected %s", tok_text(p, got, sizeof(got)));
	return false;
}

void skip_newlines(struct awk_parser *p)
{
	while (p->tok == TK_NEWLINE)
		lex_next(p);
}

/* Can the previous token end an operand (so '/' divides)? */
static bool after_operand(int prev)
{
	return prev == TK_NAME || prev == TK_NUMBER || prev == TK_STRING || prev == TK_ERE ||
	       prev == TK_BUILTIN || prev == ')' || prev == ']' || prev == '$' ||
	       prev == TK_INCR || prev == TK_DECR;
}

void awk_unescape(struct sh_buf *b, const char *s, size_t len)
{
	static const char from[] = "\"\\/abfnrtv", to[] = "\"\\/\a\b\f\n\r\t\v";

	for (size_t i = 0; i < len; i++) {
		const char *e;
		int v = 0, k;

		if (s[i] != '\\' || i + 1 == len) {
			sh_buf_putc(b, s[i]);
			continue;
		}
		i++;
		if (s[i] == '\n')
			continue;	/* a continued line */
		if (s[i] >= '0' && s[i] <= '7') {
			for (k = 0; k < 3 && i < len && s[i] >= '0' && s[i] <= '7'; k++, i++)
				v = v * 8 + (s[i] - '0');
			sh_buf_putc(b, (char)v);
			i--;
			continue;
		}
		/* An unknown escape keeps its backslash: "\." stays a regex's literal dot. */
		if ((e = strchr(from, s[i])) && *e)
			sh_buf_putc(b, to[e - from]);
		else
			sh_buf_putc(b, '\\'), sh_buf_putc(b, s[i]);
	}
}

static void lex_string(struct awk_parser *p)
{
	const char *start;

	advance(p);
	start = p->p;
	while (*p->p != '"') {
		if (!*p->p || *p->p == '\n') {
			parse_error(p, "unterminated string");
			return;
		}
		if (*p->p == '\\' && p->p[1])
			advance(p);
		advance(p);
	}
	awk_unescape(&p->text, start, (size_t)(p->p - start));
	advance(p);
	p->tok = TK_STRING;
}

static void lex_ere(struct awk_parser *p)
{
	bool bracket = false;

	advance(p);
	while (bracket || *p->p != '/') {
		char c = *p->p;

		if (!c || c == '\n') {
			parse_error(p, "unterminated regular expression");
			return;
		}
		advance(p);
		if (c == '\\' && *p->p == '/') {
			c = '/';
			advance(p);
		} else if (c == '\\' && *p->p) {
			sh_buf_putc(&p->text, c);
			c = *p->p;
			advance(p);
		} else if (c == '[' && !bracket) {
			bracket = true;
			sh_buf_putc(&p->text, c);
			/* A ']' first in the bracket (after any '^') is a member. */
			if (*p->p == '^')
				sh_buf_putc(&p->text, *p->p), advance(p);
			if (*p->p == ']')
				sh_buf_putc(&p->text, *p->p), advance(p);
			continue;
		} else if (c == '[' && *p->p == ':') {
			const char *end = strstr(p->p, ":]");

			sh_buf_putc(&p->text, c);
			while (end && p->p < end + 2)
				sh_buf_putc(&p->text, *p->p), advance(p);
			continue;
		} else if (c == ']') {
			bracket = false;
		}
		sh_buf_putc(&p->text, c);
	}
	advance(p);
	p->tok = TK_ERE;
}

static void lex_word(struct awk_parser *p)
{
	while (sh_isname(*p->p)) {
		sh_buf_putc(&p->text, *p->p);
		advance(p);
	}
	p->tok = TK_NAME;
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(p->text.s, keywords[i].name)) {
			p->tok = keywords[i].tok;
			return;
		}
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(p->text.s, builtins[i])) {
			p->tok = TK_BUILTIN;
			p->builtin = (int)i;
			return;
		}
	if (*p->p == '(')
		p->tok = TK_FUNC_NAME;
}

static void lex_token(struct awk_parser *p)
{
	char c;

	for (;;) {
		if (*p->p == ' ' || *p->p == '\t' || *p->p == '\r')
			advance(p);
		else if (*p->p == '\\' && (p->p[1] == '\n' || (p->p[1] == '\r' && p->p[2] == '\n')))
			advance(p), advance(p);
		else if (*p->p == '#')
			while (*p->p && *p->p != '\n')
				advance(p);
		else
			break;
	}
	p->tline = p->line;
	p->tcol = p->col;
	p->text.len = 0;
	if (p->text.s)
		p->text.s[0] = '\0';
	c = *p->p;
	if (!c) {
		p->tok = TK_EOF;
		return;
	}
	if (c == '\n') {
		advance(p);
		p->tok = TK_NEWLINE;
		return;
	}
	if (sh_isdigit(c) || (c == '.' && sh_isdigit(p->p[1]))) {
		size_t n = awk_num_scan(p->p, strlen(p->p), &p->num);

		while (n--)
			advance(p);
		p->tok = TK_NUMBER;
		return;
	}
	if (c == '"')
		return lex_string(p);
	if (c == '/' && !after_operand(p->prev))
		return lex_ere(p);
	if (sh_isname1(c))
		return lex_word(p);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].s);

		if (!strncmp(p->p, ops[i].s, n)) {
			while (n--)
				advance(p);
			p->tok = ops[i].tok;
			return;
		}
	}
	if (!strchr("{}()[];,+-*/%^!><|?:~$=", c)) {
		p->tok = c;
		parse_error(p, "unexpected character '%c'", c);
		return;
	}
	advance(p);
	p->tok = c;
}

void lex_next(struct awk_parser *p)
{
	int prev = p->tok;

	if (p->failed)
		return;
	p->prev = prev;
	lex_token(p);
	if (prev == ',' || prev == '{' || prev == TK_AND || prev == TK_OR || prev == TK_DO ||
	    prev == TK_ELSE)
		while (p->tok == TK_NEWLINE && !p->failed)
			lex_token(p);
	if (p->text.oom)
		parse_error(p, "out of memory");
}

bool lex_getline_follows(const struct awk_parser *p)
{
	const char *s = p->p;

	while (*s == ' ' || *s == '\t')
		s++;
	return !strncmp(s, "getline", 7) && !sh_isname(s[7]);
}
