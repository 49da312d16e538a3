/*
 * Shell pattern matching (*, ?, [...] with ! or ^ and ranges, backslash
 * escapes) and pathname expansion over sh_os->readdir.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_util.h>

/*
 * Match one bracket expression at pat (just after '['); returns the byte
 * after its ']' and sets *hit, or NULL if the '[' is not a bracket
 * expression and stands for itself.
 */
static const char *match_bracket(const char *pat, unsigned char c, bool *hit)
{
	bool neg = false, found = false;
	const char *p = pat;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	for (bool first = true; *p && (first || *p != ']'); first = false) {
		unsigned char lo = (unsigned char)*p, hi;

		if (lo == '\\' && p[1])
			lo = (unsigned char)*++p;
		p++;
		hi = lo;
		if (*p == '-' && p[1] && p[1] != ']') {
			p++;
			if (*p == '\\' && p[1])
				p++;
			hi = (unsigned char)*p++;
		}
		if (c >= lo && c <= hi)
			found = true;
	}
	if (*p != ']')
		return NULL;
	*hit = found != neg;
	return p + 1;
}

bool sh_match(const char *pat, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		const char *next;
		bool hit;

		if (*pat == '*') {
			while (*pat == '*')
				pat++;
			if (!*pat)
				return true;
			star_p = pat;
			star_s = s;
			continue;
		}
		if (!*s) {
			if (!*pat)
				return true;
			goto backtrack;
		}
		switch (*pat) {
		case '\0':
			goto backtrack;
		case '?':
			pat++;
			s++;
			continue;
		case '[':
			next = match_bracket(pat + 1, (unsigned char)*s, &hit);
			if (next) {
				if (!hit)
					goto backtrack;
				pat = next;
				s++;
				continue;
			}
			break;
		case '\\':
			if (pat[1])
				pat++;
			break;
		}
		if (*pat != *s)
			goto backtrack;
		pat++;
		s++;
		continue;
backtrack:
		if (!star_p || !*star_s)
			return false;
		pat = star_p;
		s = ++star_s;
	}
}

/* A '[' counts only when it opens a bracket expression; alone it is a plain byte. */
bool sh_has_glob(const char *pat)
{
	bool hit;

	for (; *pat; pat++) {
		if (*pat == '\\' && pat[1])
			pat++;
		else if (*pat == '*' || *pat == '?' || (*pat == '[' && match_bracket(pat + 1, 0, &hit)))
			return true;
	}
	return false;
}

/* The pattern with its backslash escapes removed. */
static char *unescape(const char *pat, size_t len)
{
	char *s = kmalloc(len + 1, GFP_KERNEL), *d = s;

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (pat[i] == '\\' && i + 1 < len)
			i++;
		*d++ = pat[i];
	}
	*d = '\0';
	return s;
}

struct glob_walk {
	const char *comp;	/* the pattern component, NUL-terminated */
	struct sh_argv names;
};

static int glob_entry(void *ctx, const char *name, enum sh_ftype type)
{
	struct glob_walk *w = ctx;

	if (name[0] == '.' && w->comp[0] != '.')
		return 0;	/* hidden unless the pattern says so */
	if (sh_match(w->comp, name))
		sh_argv_push(&w->names, kstrdup(name, GFP_KERNEL));
	return 0;
}

/* Expand the components of rest under dir (which ends in '/' or is ""). */
static void glob_in(const char *dir, const char *rest, struct sh_argv *out)
{
	const char *slash = strchr(rest, '/');
	size_t clen = slash ? (size_t)(slash - rest) : strlen(rest);
	char *comp = kstrndup(rest, clen, GFP_KERNEL);
	struct sh_buf path = { 0 };

	if (!comp)
		return;
	if (!sh_has_glob(comp)) {
		/* A literal component: no directory read, just a lookup. */
		char *lit = unescape(comp, clen);
		struct sh_stat st;

		sh_buf_printf(&path, "%s%s", dir, lit ? lit : "");
		kfree(lit);
		if (path.s && sh_os->stat(path.s, &st) == 0) {
			if (!slash)
				sh_argv_push(out, sh_buf_take(&path));
			else if (st.type == SH_FT_DIR) {
				sh_buf_putc(&path, '/');
				glob_in(path.s, slash + 1, out);
			}
		}
	} else {
		struct glob_walk w = { .comp = comp };

		sh_os->readdir(*dir ? dir : ".", glob_entry, &w);
		sh_sort_strings(w.names.argv, (size_t)w.names.argc);
		for (int i = 0; i < w.names.argc; i++) {
			struct sh_stat st;

			sh_buf_free(&path);
			sh_buf_printf(&path, "%s%s", dir, w.names.argv[i]);
			if (!path.s)
				break;
			if (!slash) {
				sh_argv_push(out, sh_buf_take(&path));
			} else if (sh_os->stat(path.s, &st) == 0 && st.type == SH_FT_DIR) {
				sh_buf_putc(&path, '/');
				glob_in(path.s, slash + 1, out);
			}
		}
		sh_argv_free(&w.names);
	}
	sh_buf_free(&path);
	kfree(comp);
}

int sh_glob(const char *pat, struct sh_argv *out)
{
	int before = out->argc;

	if (pat[0] == '/')
		glob_in("/", pat + 1, out);
	else
		glob_in("", pat, out);
	return out->argc - before;
}
