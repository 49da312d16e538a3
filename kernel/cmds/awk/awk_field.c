/*
 * awk's record and fields: $0 is split on first use with the FS it was
 * read under (POSIX: changing FS affects the next record), assigning a
 * field or NF rebuilds $0 with OFS. Also field splitting itself (FS and
 * split()), and the cache of regular expressions given as strings.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/regex.h>
#include <kernel/cmds/awk/awk.h>

/* $N beyond this is refused: each field up to it would be made. */
#define AWK_MAX_FIELDS	100000

struct regex *awk_regex(struct awk *a, const struct awk_str *text)
{
	struct regex *re;
	char err[80];
	int i;

	for (i = 0; i < AWK_REGEX_CACHE; i++)
		if (a->recache[i].text && a->recache[i].text->len == text->len &&
		    !memcmp(a->recache[i].text->s, text->s, text->len))
			return a->recache[i].re;
	if (regex_compile(&re, text->s, RE_EXTENDED, err, sizeof(err))) {
		awk_error(a, "regular expression /%s/: %s", text->s, err);
		return NULL;
	}
	i = a->recache_next;
	a->recache_next = (i + 1) % AWK_REGEX_CACHE;
	str_put(a->recache[i].text);
	regex_free(a->recache[i].re);
	a->recache[i].text = str_make(a, text->s, text->len);
	a->recache[i].re = re;
	return re;
}

bool awk_match(struct regex *re, const char *s, size_t len, size_t from, size_t *start, size_t *end)
{
	struct re_match m;

	if (!regex_search_longest(re, s, len, from, &m))
		return false;
	*start = (size_t)m.start[0];
	*end = (size_t)m.end[0];
	return true;
}

static bool is_field_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

long awk_split(struct awk *a, const char *s, size_t len, const struct awk_str *fs,
	       struct regex *re, awk_split_fn fn, void *ctx)
{
	long n = 0;
	size_t i = 0;

	if (!re && fs->len == 1 && fs->s[0] == ' ') {
		/* The default: runs of blanks and newlines, none at the ends. */
		for (;;) {
			size_t b;

			while (i < len && is_field_blank(s[i]))
				i++;
			if (i >= len)
				return n;
			for (b = i; i < len && !is_field_blank(s[i]); i++)
				;
			fn(a, ctx, s + b, i - b);
			n++;
		}
	}
	if (!len)
		return 0;
	if (!re && fs->len == 0) {
		for (; i < len; i++, n++)
			fn(a, ctx, s + i, 1);
		return n;
	}
	if (!re && fs->len == 1 && fs->s[0] != '\\') {
		for (size_t b = 0; ; i++) {
			if (i < len && s[i] != fs->s[0])
				continue;
			fn(a, ctx, s + b, i - b);
			n++;
			b = i + 1;
			if (i >= len)
				return n;
		}
	}
	if (!re && !(re = awk_regex(a, fs)))
		return 0;
	for (size_t from = 0, at = 0, ms, me; ; ) {
		bool found = awk_match(re, s, len, at, &ms, &me);

		/* A separator is never empty: after an empty match, look one further. */
		if (found && me == ms) {
			if (ms < len) {
				at = ms + 1;
				continue;
			}
			found = false;
		}
		if (!found) {
			fn(a, ctx, s + from, len - from);
			return n + 1;
		}
		fn(a, ctx, s + from, ms - from);
		n++;
		from = at = me;
	}
}

static bool fields_grow(struct awk *a, long n)
{
	struct awk_val *f;
	long cap;

	if (n < a->fields_cap)
		return true;
	if (n >= AWK_MAX_FIELDS) {
		awk_error(a, "field $%ld is beyond this awk's %d", n, AWK_MAX_FIELDS - 1);
		return false;
	}
	cap = a->fields_cap ? a->fields_cap * 2 : 64;
	while (cap <= n)
		cap *= 2;
	f = krealloc(a->fields, sizeof(*f) * (size_t)cap, GFP_KERNEL);
	if (!f) {
		awk_error(a, "out of memory");
		return false;
	}
	memset(f + a->fields_cap, 0, sizeof(*f) * (size_t)(cap - a->fields_cap));
	a->fields = f;
	a->fields_cap = cap;
	return true;
}

static void add_field(struct awk *a, void *ctx, const char *s, size_t len)
{
	if (!fields_grow(a, a->nf + 1))
		return;
	a->nf++;
	val_input(&a->fields[a->nf], str_make(a, s, len));
}

static void fields_clear(struct awk *a)
{
	for (long i = 1; i <= a->nf; i++)
		val_free(&a->fields[i]);
	a->nf = 0;
}

void fields_split(struct awk *a)
{
	const struct awk_str *rs = a->globals[V_RS].val.str;
	struct awk_str *fs = a->split_fs, *para = NULL;

	if (a->split)
		return;
	a->split = true;
	fields_clear(a);
	if (!a->record)
		return awk_set_num(a, V_NF, 0);
	/* Records of paragraphs (RS = ""): a newline separates fields too. */
	if (rs && !rs->len && fs && !(fs->len == 1 && fs->s[0] == ' ')) {
		struct sh_buf b = { 0 };

		if (fs->len == 1)	/* one character stands for itself */
			sh_buf_printf(&b, strchr(".[]()*+?{}|^$\\", fs->s[0]) ? "\n|\\%c" : "\n|%c", fs->s[0]);
		else
			sh_buf_printf(&b, "\n|%s", fs->s);
		para = str_make(a, b.s ? b.s : "", b.len);
		sh_buf_free(&b);
		fs = para;
	}
	awk_split(a, a->record->s, a->record->len, fs ? fs : &awk_empty, NULL, add_field, NULL);
	str_put(para);
	awk_set_num(a, V_NF, awk_num_from_int(a->nf));
}

void rec_set(struct awk *a, struct awk_str *s)
{
	str_put(a->record);
	a->record = s;
	a->split = false;
	str_put(a->split_fs);
	a->split_fs = val_tostr(a, &a->globals[V_FS].val, false);
}

/* $0 again from the fields and OFS. */
static void rebuild(struct awk *a)
{
	struct awk_str *ofs = val_tostr(a, &a->globals[V_OFS].val, false), *s;
	struct sh_buf b = { 0 };

	for (long i = 1; i <= a->nf; i++) {
		s = val_tostr(a, &a->fields[i], false);
		sh_buf_put(&b, s->s, s->len);
		str_put(s);
		if (i < a->nf)
			sh_buf_put(&b, ofs->s, ofs->len);
	}
	str_put(ofs);
	if (b.oom)
		awk_error(a, "out of memory");
	str_put(a->record);
	a->record = b.oom ? str_get(&awk_empty) : str_make(a, b.s ? b.s : "", b.len);
	sh_buf_free(&b);
	awk_set_num(a, V_NF, awk_num_from_int(a->nf));
}

void field_get(struct awk *a, long i, struct awk_val *out)
{
	*out = (struct awk_val){ 0 };
	if (i < 0) {
		awk_error(a, "field $%ld: a field number must not be negative", i);
		return;
	}
	if (!i) {
		if (a->record)
			val_input(out, str_get(a->record));
		return;
	}
	fields_split(a);
	if (i <= a->nf)
		val_copy(out, &a->fields[i]);
}

void nf_set(struct awk *a, long nf)
{
	fields_split(a);
	if (nf < 0) {
		awk_error(a, "NF set to %ld", nf);
		return;
	}
	if (!fields_grow(a, nf))
		return;
	while (a->nf > nf)
		val_free(&a->fields[a->nf--]);
	a->nf = nf;
	rebuild(a);
}

void field_set(struct awk *a, long i, struct awk_val *v)
{
	if (i <= 0) {
		if (i < 0) {
			awk_error(a, "field $%ld: a field number must not be negative", i);
		} else {
			rec_set(a, val_tostr(a, v, false));
		}
		val_free(v);
		return;
	}
	fields_split(a);
	if (!fields_grow(a, i)) {
		val_free(v);
		return;
	}
	if (i > a->nf)
		a->nf = i;
	val_free(&a->fields[i]);
	a->fields[i] = *v;
	rebuild(a);
}

void fields_free(struct awk *a)
{
	fields_clear(a);
	kfree(a->fields);
	str_put(a->record);
	str_put(a->split_fs);
	for (int i = 0; i < AWK_REGEX_CACHE; i++) {
		str_put(a->recache[i].text);
		regex_free(a->recache[i].re);
	}
}
