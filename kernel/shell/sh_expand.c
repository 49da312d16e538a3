/*
 * Word expansion: parameters, command substitution, arithmetic, quote
 * removal, field splitting and pathname expansion, in POSIX's order.
 *
 * A word expands into bytes plus one attribute byte each, which says where
 * the byte came from: quoted text is literal, unquoted expansion results
 * are split on IFS and may glob. Two attribute-only bytes mark a field
 * break ("$@") and a field that exists even when empty ("" or '').
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>

#define A_QUOTED	1	/* from quotes: literal */
#define A_SPLIT		2	/* from an unquoted expansion: split, glob */
#define A_BREAK		4	/* marker: a field ends here ("$@") */
#define A_KEEP		8	/* marker: the field exists even if empty */

/* Most words are short: their expansion fits the stack (EXPAND_STACK bytes each). */
#define EXPAND_STACK	128

struct expand {
	struct sh *sh;
	struct sh_buf out, attr;
	bool failed;
	char out_store[EXPAND_STACK], attr_store[EXPAND_STACK];
};

static void expand_init(struct expand *e, struct sh *sh)
{
	e->sh = sh;
	e->failed = false;
	sh_buf_init_on(&e->out, e->out_store, sizeof(e->out_store));
	sh_buf_init_on(&e->attr, e->attr_store, sizeof(e->attr_store));
}

static void emit(struct expand *e, const char *s, size_t n, char attr)
{
	sh_buf_put(&e->out, s, n);
	sh_buf_fill(&e->attr, attr, n);
}

static void emit_marker(struct expand *e, char attr)
{
	emit(e, "", 1, attr);
}

static void emit_value(struct expand *e, const char *v, bool dq)
{
	emit(e, v, strlen(v), dq ? A_QUOTED : A_SPLIT);
}

static void fail(struct expand *e, const char *fmt, ...) __printf(2, 3);
static void fail(struct expand *e, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (e->failed)
		return;
	e->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sh_eprintf("sh: %s\n", msg);
}

/* Scanning helpers over text the lexer has already checked for balance. */
static size_t skip_nested(const char *s, size_t len, size_t i, char close);

static size_t skip_squote(const char *s, size_t len, size_t i)
{
	for (i++; i < len && s[i] != '\''; i++)
		;
	return i < len ? i + 1 : len;
}

static size_t skip_bquote(const char *s, size_t len, size_t i)
{
	for (i++; i < len && s[i] != '`'; i++)
		if (s[i] == '\\')
			i++;
	return i < len ? i + 1 : len;
}

static size_t skip_dollar(const char *s, size_t len, size_t i)
{
	if (i + 1 < len && (s[i + 1] == '(' || s[i + 1] == '{'))
		return skip_nested(s, len, i + 2, s[i + 1] == '(' ? ')' : '}');
	return i + 1;
}

static size_t skip_dquote(const char *s, size_t len, size_t i)
{
	for (i++; i < len && s[i] != '"';) {
		if (s[i] == '\\')
			i += 2;
		else if (s[i] == '$')
			i = skip_dollar(s, len, i);
		else if (s[i] == '`')
			i = skip_bquote(s, len, i);
		else
			i++;
	}
	return i < len ? i + 1 : len;
}

/* From just inside an opening, to just past its close. */
static size_t skip_nested(const char *s, size_t len, size_t i, char close)
{
	int parens = 0;

	while (i < len) {
		char c = s[i];

		if (c == close && parens == 0)
			return i + 1;
		if (c == '\'')
			i = skip_squote(s, len, i);
		else if (c == '"')
			i = skip_dquote(s, len, i);
		else if (c == '`')
			i = skip_bquote(s, len, i);
		else if (c == '\\')
			i += 2;
		else if (c == '$')
			i = skip_dollar(s, len, i);
		else {
			parens += c == '(' ? 1 : c == ')' ? -1 : 0;
			i++;
		}
	}
	return len;
}

/* Quotes, escapes, $ and `: where a word stops being its own text. */
static bool starts_expansion(char c)
{
	return c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`';
}

static bool has_expansion(const char *word)
{
	for (; *word; word++)
		if (starts_expansion(*word))
			return true;
	return false;
}

static void expand_raw(struct expand *e, const char *s, size_t len, bool dq);

/*
 * The expansion as one string: markers dropped ("$@" breaks become
 * spaces); for a pattern, quoted glob bytes escaped. Frees e's buffers.
 */
static char *flatten(struct expand *e, bool pattern)
{
	char store[EXPAND_STACK];
	struct sh_buf b;

	sh_buf_init_on(&b, store, sizeof(store));

	for (size_t i = 0; i < e->out.len && !e->failed; i++) {
		char c = e->out.s[i], a = e->attr.s[i];

		if (a & (A_BREAK | A_KEEP)) {
			if (a & A_BREAK)
				sh_buf_putc(&b, ' ');
			continue;
		}
		if (pattern && (a & A_QUOTED) && strchr("*?[]\\", c))
			sh_buf_putc(&b, '\\');
		sh_buf_putc(&b, c);
	}
	sh_buf_free(&e->out);
	sh_buf_free(&e->attr);
	if (e->failed) {
		sh_buf_free(&b);
		return NULL;
	}
	return sh_buf_take(&b);
}

/* Expand text with no splitting into a plain string (or a pattern). */
static char *expand_string(struct sh *sh, const char *s, size_t len, bool pattern, bool *failed)
{
	struct expand e;
	char *r;

	expand_init(&e, sh);
	expand_raw(&e, s, len, false);
	*failed = e.failed;
	r = flatten(&e, pattern);
	if (!r && !*failed) {
		sh_eprintf("sh: out of memory\n");
		*failed = true;
	}
	return r;
}

/* $name for the special parameters and positional ones; NULL if unset. */
static const char *special_param(struct expand *e, const char *name, char *tmp, size_t tmpsize)
{
	struct sh *sh = e->sh;

	if (sh_isdigit(name[0])) {
		long long n = 0;

		for (const char *p = name; *p && n < 100000; p++)
			n = n * 10 + (*p - '0');
		if (n == 0)
			return sh->arg0;
		return n <= sh->argc ? sh->argv[n - 1] : NULL;
	}
	if (name[1])
		return NULL;
	switch (name[0]) {
	case '?':
		snprintf(tmp, tmpsize, "%d", sh->status);
		return tmp;
	case '#':
		snprintf(tmp, tmpsize, "%d", sh->argc);
		return tmp;
	case '$':
		snprintf(tmp, tmpsize, "%d", (int)sh->pid);
		return tmp;
	case '!':
		if (!sh->last_bg)
			return NULL;
		snprintf(tmp, tmpsize, "%d", (int)sh->last_bg);
		return tmp;
	case '-':
		snprintf(tmp, tmpsize, "%s%s%s%s", sh->opt_errexit ? "e" : "", sh->opt_noglob ? "f" : "",
			 sh->opt_nounset ? "u" : "", sh->opt_xtrace ? "x" : "");
		return tmp;
	}
	return NULL;
}

static bool is_special(char c)
{
	return c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' || c == '-' ||
	       sh_isdigit(c);
}

/* $@ and $*: every positional parameter. */
static void emit_params(struct expand *e, char which, bool dq)
{
	struct sh *sh = e->sh;

	for (int i = 0; i < sh->argc; i++) {
		if (i) {
			if (dq && which == '@')
				emit_marker(e, A_BREAK);
			else
				emit(e, " ", 1, dq ? A_QUOTED : A_SPLIT);
		}
		emit_value(e, sh->argv[i], dq);
	}
}

/* The value of a parameter by name; NULL if unset. $@ and $* joined. */
static const char *param_value(struct expand *e, const char *name, char *tmp, size_t size,
			       struct sh_buf *joined)
{
	if (!strcmp(name, "@") || !strcmp(name, "*")) {
		for (int i = 0; i < e->sh->argc; i++) {
			if (i)
				sh_buf_putc(joined, ' ');
			sh_buf_puts(joined, e->sh->argv[i]);
		}
		return joined->s ? joined->s : "";
	}
	if (is_special(name[0]))
		return special_param(e, name, tmp, size);
	return sh_getvar(e->sh, name);
}

/* Remove the shortest/longest prefix/suffix of v matching pat. */
static char *trim(const char *v, const char *pat, bool suffix, bool longest)
{
	size_t n = strlen(v);
	char *copy = kstrdup(v, GFP_KERNEL);

	if (!copy)
		return NULL;
	for (size_t k = 0; k <= n; k++) {
		size_t cut = longest ? n - k : k;	/* length of the part tried */
		bool hit;

		if (suffix) {
			hit = sh_match(pat, v + n - cut);
			if (hit) {
				copy[n - cut] = '\0';
				return copy;
			}
		} else {
			char save = copy[cut];

			copy[cut] = '\0';
			hit = sh_match(pat, copy);
			copy[cut] = save;
			if (hit) {
				memmove(copy, copy + cut, n - cut + 1);
				return copy;
			}
		}
	}
	return copy;
}

/* One arithmetic operand of ${name:offset:length}; an empty one is 0. */
static bool substring_arith(struct expand *e, const char *s, size_t len, long long *v)
{
	bool failed;
	char *text = expand_string(e->sh, s, len, false, &failed);
	char msg[64];
	bool ok = true;

	*v = 0;
	if (!text) {
		e->failed = true;
		return false;
	}
	if (*text && sh_arith(e->sh, text, v, msg, sizeof(msg))) {
		fail(e, "arithmetic expression: %s: \"%s\"", msg, text);
		ok = false;
	}
	kfree(text);
	return ok;
}

/*
 * ${name:offset} and ${name:offset:length}, as bash has them: both are
 * arithmetic; a negative offset counts from the end (write it `: -1` or
 * `:(-1)`, since `:-` is the default-value operator), a negative length
 * stops that many bytes before the end.
 */
static void emit_substring(struct expand *e, const char *name, const char *value,
			   const char *word, size_t wlen, bool dq)
{
	long long n = (long long)strlen(value), off, count;
	size_t colon = 0;
	int depth = 0;

	/* The length starts at the first ':' outside $( ), ${ } and ( ). */
	while (colon < wlen && (word[colon] != ':' || depth)) {
		if (word[colon] == '$') {
			colon = skip_dollar(word, wlen, colon);
			continue;
		}
		depth += word[colon] == '(' ? 1 : word[colon] == ')' ? -1 : 0;
		colon++;
	}
	if (!substring_arith(e, word, colon, &off))
		return;
	count = n;
	if (colon < wlen && !substring_arith(e, word + colon + 1, wlen - colon - 1, &count))
		return;
	if (off < 0)
		off += n;
	if (off < 0 || off > n)
		return;
	if (count < 0) {
		count += n - off;
		if (count < 0) {
			fail(e, "%s: substring expression < 0", name);
			return;
		}
	}
	if (count > n - off)
		count = n - off;
	emit(e, value + off, (size_t)count, dq ? A_QUOTED : A_SPLIT);
}

/* ${...}: body is the text between the braces. */
static void expand_brace(struct expand *e, const char *body, size_t len, bool dq)
{
	char name[64], tmp[32], op[3] = "";
	struct sh_buf joined = { 0 };
	const char *value, *word;
	size_t n = 0, wlen;
	bool length = false, unset;

	if (len > 1 && body[0] == '#') {
		length = true;
		body++;
		len--;
	}
	if (len && is_special(body[0]) && !sh_isdigit(body[0])) {
		n = 1;
	} else if (len && sh_isdigit(body[0])) {
		while (n < len && sh_isdigit(body[n]))
			n++;
	} else {
		while (n < len && sh_isname(body[n]))
			n++;
		if (n && !sh_isname1(body[0]))
			n = 0;
	}
	if (!n || n >= sizeof(name))
		goto bad;
	memcpy(name, body, n);
	name[n] = '\0';
	word = body + n;
	wlen = len - n;
	if (wlen) {
		size_t oplen = 1;

		if (word[0] == ':' && wlen > 1 && strchr("-=+?", word[1]))
			oplen = 2;
		else if ((word[0] == '#' || word[0] == '%') && wlen > 1 && word[1] == word[0])
			oplen = 2;
		else if (!strchr(":-=+?#%", word[0]))
			goto bad;
		/* ${name:} and substrings of $@ and $* are not supported. */
		if (length || (oplen == 1 && word[0] == ':' && (wlen == 1 || name[0] == '@' ||
								 name[0] == '*')))
			goto bad;
		memcpy(op, word, oplen);
		op[oplen] = '\0';
		word += oplen;
		wlen -= oplen;
	}
	value = param_value(e, name, tmp, sizeof(tmp), &joined);
	unset = !value || (op[0] == ':' && !*value);
	if (length) {
		if (!value && e->sh->opt_nounset)
			fail(e, "%s: parameter not set", name);
		snprintf(tmp, sizeof(tmp), "%zu", value ? strlen(value) : 0);
		emit_value(e, tmp, dq);
	} else if (!op[0]) {
		if (!value && e->sh->opt_nounset)
			fail(e, "%s: parameter not set", name);
		else if (dq && name[0] == '@')
			emit_params(e, '@', dq);
		else if (value)
			emit_value(e, value, dq);
	} else if (op[0] == ':' && !op[1]) {
		if (!value && e->sh->opt_nounset)
			fail(e, "%s: parameter not set", name);
		else
			emit_substring(e, name, value ? value : "", word, wlen, dq);
	} else if (op[0] == '#' || op[0] == '%') {
		bool failed;
		char *pat = expand_string(e->sh, word, wlen, true, &failed);
		char *r = NULL;

		if (!pat)
			e->failed = true;
		else if (!(r = trim(value ? value : "", pat, op[0] == '%', op[1] != '\0')))
			fail(e, "out of memory");
		else
			emit_value(e, r, dq);
		kfree(pat);
		kfree(r);
	} else {
		char kind = op[op[0] == ':' ? 1 : 0];

		if (kind == '+') {
			if (!unset)
				expand_raw(e, word, wlen, dq);
		} else if (!unset) {
			emit_value(e, value, dq);
		} else if (kind == '-') {
			expand_raw(e, word, wlen, dq);
		} else {
			bool failed;
			char *w = expand_string(e->sh, word, wlen, false, &failed);

			if (!w) {
				e->failed = true;
			} else if (kind == '?') {
				fail(e, "%s: %s", name, *w ? w : "parameter null or not set");
			} else if (!sh_is_name(name, strlen(name))) {
				fail(e, "%s: cannot assign in this way", name);
			} else {
				sh_setvar(e->sh, name, w, false);
				emit_value(e, w, dq);
			}
			kfree(w);
		}
	}
	sh_buf_free(&joined);
	return;
bad:
	sh_buf_free(&joined);
	fail(e, "${%.*s}: bad substitution", (int)(len > 40 ? 40 : len), body);
}

/* Strip the trailing newlines of a command substitution and emit it. */
static void emit_subst(struct expand *e, char *out, bool dq)
{
	size_t n;

	if (!out) {
		fail(e, "command substitution failed");
		return;
	}
	n = strlen(out);
	while (n && out[n - 1] == '\n')
		n--;
	emit(e, out, n, dq ? A_QUOTED : A_SPLIT);
	kfree(out);
}

static void expand_arith(struct expand *e, const char *s, size_t len, bool dq)
{
	bool failed;
	char *text = expand_string(e->sh, s, len, false, &failed);
	char msg[64], num[24];
	long long v;

	if (!text) {
		e->failed = true;
		return;
	}
	if (sh_arith(e->sh, text, &v, msg, sizeof(msg))) {
		fail(e, "arithmetic expression: %s: \"%s\"", msg, text);
	} else {
		snprintf(num, sizeof(num), "%lld", v);
		emit_value(e, num, dq);
	}
	kfree(text);
}

/* At s[*i] == '$'. */
static void expand_dollar(struct expand *e, const char *s, size_t len, size_t *i, bool dq)
{
	size_t start = *i + 1, end;
	char name[64], tmp[32];

	if (start >= len) {
		emit(e, "$", 1, dq ? A_QUOTED : 0);
		*i = start;
		return;
	}
	if (s[start] == '(') {
		end = skip_nested(s, len, start + 1, ')');
		*i = end;
		if (start + 1 < len && s[start + 1] == '(' && end >= 2 && s[end - 2] == ')' &&
		    end - start >= 4)
			expand_arith(e, s + start + 2, end - start - 4, dq);
		else
			emit_subst(e, sh_command_subst(e->sh, s + start + 1, end - start - 2), dq);
		return;
	}
	if (s[start] == '{') {
		end = skip_nested(s, len, start + 1, '}');
		*i = end;
		expand_brace(e, s + start + 1, end - start - 2, dq);
		return;
	}
	if (is_special(s[start])) {
		const char *v;

		*i = start + 1;
		if (s[start] == '@' || s[start] == '*') {
			emit_params(e, s[start], dq);
			return;
		}
		name[0] = s[start];
		name[1] = '\0';
		v = special_param(e, name, tmp, sizeof(tmp));
		if (!v && e->sh->opt_nounset && sh_isdigit(name[0]))
			fail(e, "%s: parameter not set", name);
		if (v)
			emit_value(e, v, dq);
		return;
	}
	if (sh_isname1(s[start])) {
		const char *v;

		for (end = start; end < len && sh_isname(s[end]); end++)
			;
		*i = end;
		if (end - start >= sizeof(name)) {
			fail(e, "%.*s: name too long", 20, s + start);
			return;
		}
		memcpy(name, s + start, end - start);
		name[end - start] = '\0';
		v = sh_getvar(e->sh, name);
		if (!v && e->sh->opt_nounset)
			fail(e, "%s: parameter not set", name);
		else if (v)
			emit_value(e, v, dq);
		return;
	}
	emit(e, "$", 1, dq ? A_QUOTED : 0);
	*i = start;
}

/* `...`: backslash escapes \\ \` \$ are undone before the text runs. */
static void expand_bquote(struct expand *e, const char *s, size_t len, size_t *i, bool dq)
{
	size_t end = skip_bquote(s, len, *i);
	struct sh_buf cmd = { 0 };

	for (size_t k = *i + 1; k < end - 1; k++) {
		if (s[k] == '\\' && k + 1 < end - 1 && strchr("\\`$", s[k + 1]))
			k++;
		sh_buf_putc(&cmd, s[k]);
	}
	*i = end;
	emit_subst(e, sh_command_subst(e->sh, cmd.s ? cmd.s : "", cmd.len), dq);
	sh_buf_free(&cmd);
}

static void expand_raw(struct expand *e, const char *s, size_t len, bool dq)
{
	size_t i = 0;

	while (i < len && !e->failed) {
		char c = s[i];

		if (c == '\'' && !dq) {
			size_t end = skip_squote(s, len, i);

			emit(e, s + i + 1, end - i - 2, A_QUOTED);
			emit_marker(e, A_KEEP);
			i = end;
		} else if (c == '"' && !dq) {
			size_t end = skip_dquote(s, len, i);

			expand_raw(e, s + i + 1, end - i - 2, true);
			/* "$@" with no parameters is no field at all. */
			if (!(end - i == 4 && s[i + 1] == '$' && s[i + 2] == '@' && !e->sh->argc))
				emit_marker(e, A_KEEP);
			i = end;
		} else if (c == '\\') {
			if (i + 1 >= len) {
				emit(e, "\\", 1, A_QUOTED);
				i++;
			} else if (!dq || strchr("$`\"\\\n", s[i + 1])) {
				emit(e, s + i + 1, 1, A_QUOTED);
				i += 2;
			} else {
				emit(e, s + i, 2, A_QUOTED);
				i += 2;
			}
		} else if (c == '$') {
			expand_dollar(e, s, len, &i, dq);
		} else if (c == '`') {
			expand_bquote(e, s, len, &i, dq);
		} else {
			/* A run of plain bytes goes in at once. */
			size_t end = i + 1;

			while (end < len && !starts_expansion(s[end]))
				end++;
			emit(e, s + i, end - i, dq ? A_QUOTED : 0);
			i = end;
		}
	}
	if (e->out.oom || e->attr.oom)
		fail(e, "out of memory");
}

/* Pathname expansion of one field, or the field itself. */
static void finish_field(struct expand *e, struct sh_buf *field, struct sh_buf *fattr,
			 struct sh_argv *out)
{
	char store[EXPAND_STACK];
	struct sh_buf pat;
	bool glob = false;

	sh_buf_init_on(&pat, store, sizeof(store));

	for (size_t k = 0; k < field->len; k++) {
		char c = field->s[k];
		bool quoted = fattr->s[k] & A_QUOTED;

		if (!quoted && (c == '*' || c == '?' || c == '['))
			glob = true;
		if ((quoted || c == '\\') && strchr("*?[]\\", c))
			sh_buf_putc(&pat, '\\');
		sh_buf_putc(&pat, c);
	}
	/* A '[' with no ']' after it matches only itself: no directory to read. */
	if (!glob || e->sh->opt_noglob || pat.oom || !sh_has_glob(pat.s) || !sh_glob(pat.s, out))
		sh_argv_push(out, kstrndup(field->s ? field->s : "", field->len, GFP_KERNEL));
	sh_buf_free(&pat);
	field->len = fattr->len = 0;
}

/* Field splitting: unquoted expansion results split on IFS. */
static void split_fields(struct expand *e, struct sh_argv *out)
{
	const char *ifs = sh_getvar(e->sh, "IFS");
	char field_store[EXPAND_STACK], fattr_store[EXPAND_STACK];
	struct sh_buf field, fattr;
	bool keep = false, after_white = false;

	sh_buf_init_on(&field, field_store, sizeof(field_store));
	sh_buf_init_on(&fattr, fattr_store, sizeof(fattr_store));
	if (!ifs)
		ifs = " \t\n";
	for (size_t i = 0; i < e->out.len; i++) {
		char c = e->out.s[i], a = e->attr.s[i];

		if (a & A_KEEP) {
			keep = true;
			continue;
		}
		if (a & A_BREAK) {
			finish_field(e, &field, &fattr, out);
			keep = true;
			continue;
		}
		if ((a & A_SPLIT) && c && strchr(ifs, c)) {
			bool white = c == ' ' || c == '\t' || c == '\n';

			/* White space next to a delimiter is part of it. */
			if (field.len || keep || (!white && !after_white))
				finish_field(e, &field, &fattr, out);
			keep = false;
			after_white = white;
			continue;
		}
		sh_buf_putc(&field, c);
		sh_buf_putc(&fattr, a);
		if (a & A_QUOTED)
			keep = true;
		after_white = false;
	}
	if (field.len || keep)
		finish_field(e, &field, &fattr, out);
	sh_buf_free(&field);
	sh_buf_free(&fattr);
}

/* NAME=... operand of a declaration utility: expanded as one field, as in an assignment. */
static bool declaration_assignment(char **words, int i)
{
	const char *eq;

	if (i == 0 || (strcmp(words[0], "local") && strcmp(words[0], "export")))
		return false;
	eq = strchr(words[i], '=');
	return eq && sh_is_name(words[i], (size_t)(eq - words[i]));
}

/* A word with nothing to expand, split or glob: it is its own field. */
bool sh_word_is_literal(const char *word)
{
	return !has_expansion(word) && !sh_has_glob(word);
}

int sh_expand_words(struct sh *sh, char **words, int n, struct sh_argv *out)
{
	for (int i = 0; i < n; i++) {
		struct expand e;

		if (sh_word_is_literal(words[i])) {
			sh_argv_push(out, kstrdup(words[i], GFP_KERNEL));
			continue;
		}
		if (declaration_assignment(words, i)) {
			char *field = sh_expand_word(sh, words[i]);

			if (!field)
				return -1;
			sh_argv_push(out, field);
			continue;
		}

		expand_init(&e, sh);
		expand_raw(&e, words[i], strlen(words[i]), false);
		if (!e.failed)
			split_fields(&e, out);
		sh_buf_free(&e.out);
		sh_buf_free(&e.attr);
		if (e.failed)
			return -1;
	}
	if (out->oom) {
		sh_eprintf("sh: out of memory\n");
		return -1;
	}
	return 0;
}

char *sh_expand_word(struct sh *sh, const char *word)
{
	bool failed;

	if (!has_expansion(word)) {
		char *copy = kstrdup(word, GFP_KERNEL);

		if (!copy)
			sh_eprintf("sh: out of memory\n");
		return copy;
	}
	return expand_string(sh, word, strlen(word), false, &failed);
}

char *sh_expand_pattern(struct sh *sh, const char *word)
{
	bool failed;

	return expand_string(sh, word, strlen(word), true, &failed);
}

/* Here-document bodies: expansions and \$ \` \\ escapes, quotes stay. */
char *sh_expand_heredoc(struct sh *sh, const char *body)
{
	struct expand e;
	size_t len = strlen(body);

	expand_init(&e, sh);
	for (size_t i = 0; i < len && !e.failed;) {
		if (body[i] == '\\' && i + 1 < len && strchr("$`\\\n", body[i + 1])) {
			if (body[i + 1] != '\n')
				emit(&e, body + i + 1, 1, A_QUOTED);
			i += 2;
		} else if (body[i] == '$') {
			expand_dollar(&e, body, len, &i, true);
		} else if (body[i] == '`') {
			expand_bquote(&e, body, len, &i, true);
		} else {
			emit(&e, body + i, 1, A_QUOTED);
			i++;
		}
	}
	return flatten(&e, false);
}
