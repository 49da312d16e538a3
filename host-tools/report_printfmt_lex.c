/*
 * Tokens of a print fmt: numbers (with C's suffixes, and character
 * constants), string literals, identifiers and operators, read one at a
 * time by the parser (report_printfmt.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/report_printfmt.h"

void pf_fail(struct pf_parser *ps, const char *msg)
{
	if (!ps->err) {
		ps->err = msg;
		ps->err_pos = (size_t)(ps->tok.p - ps->text);
	}
}

void pf_next(struct pf_parser *ps)
{
	static const char *const two[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *p = ps->pos;
	struct pf_tok *t = &ps->tok;

	while (p < ps->end && isspace((unsigned char)*p))
		p++;
	t->p = p;
	t->len = 0;
	if (p >= ps->end) {
		t->kind = T_END;
		return;
	}
	if (isdigit((unsigned char)*p)) {
		/* A bounded copy: the text is a piece of the file, with no NUL after it. */
		char digits[32], *e;
		size_t n = 0;

		while (n < sizeof(digits) - 1 && p + n < ps->end && isalnum((unsigned char)p[n]))
			n++;
		memcpy(digits, p, n);
		digits[n] = 0;
		t->kind = T_NUM;
		t->num = strtoull(digits, &e, 0);
		e = (char *)p + (e - digits);
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

bool pf_is_punct(const struct pf_parser *ps, const char *s)
{
	return ps->tok.kind == T_PUNCT && !strcmp(ps->tok.punct, s);
}

bool pf_is_ident(const struct pf_parser *ps, const char *s)
{
	return ps->tok.kind == T_IDENT && ps->tok.len == strlen(s) && !memcmp(ps->tok.p, s, ps->tok.len);
}

bool pf_accept(struct pf_parser *ps, const char *s)
{
	if (!pf_is_punct(ps, s))
		return false;
	pf_next(ps);
	return true;
}

void pf_expect(struct pf_parser *ps, const char *s)
{
	if (!pf_accept(ps, s))
		pf_fail(ps, s[0] == ')' ? "expected ')'" : s[0] == ',' ? "expected ','" :
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
char *pf_string_literal(struct pf_parser *ps, size_t *len)
{
	char *s = unquote(ps->tok.p, ps->tok.len, len);

	pf_next(ps);
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
		pf_next(ps);
	}
	return s;
}
