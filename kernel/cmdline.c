/*
 * Command-line splitting. The copy in buf is cut in place: each word gets
 * a NUL at its end, the '=' after a key becomes a NUL, and the quotes
 * Linux strips are overwritten, so params point straight into buf.
 */
#include <kernel/cmdline.h>
#include <kernel/string.h>
#include <kernel/errno.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Cuts the word starting at s. Quotes toggle whether whitespace ends the
 * word; afterwards a quote that opened the word or the value is dropped,
 * together with a quote that closes the word. Returns where to go on.
 */
static char *split_word(char *s, struct cmdline_param *p)
{
	bool quoted = false, in_quote = false;
	char *eq = NULL, *end;

	if (*s == '"') {
		quoted = in_quote = true;
		s++;
	}
	for (end = s; *end && (in_quote || !is_space(*end)); end++) {
		if (*end == '=' && !eq)
			eq = end;
		if (*end == '"')
			in_quote = !in_quote;
	}
	p->key = s;
	p->val = NULL;
	if (eq) {
		*eq = '\0';
		p->val = eq + 1;
		if (*p->val == '"') {
			p->val++;
			quoted = true;
		}
	}
	if (quoted && end > s && end[-1] == '"')
		end[-1] = '\0';
	if (*end)
		*end++ = '\0';
	return end;
}

int cmdline_parse(struct cmdline *cl, const char *line)
{
	bool after_dashes = false;
	unsigned int n = 0;
	int ret = 0;
	char *s;

	if (!line)
		line = "";
	if (strscpy(cl->raw, line, sizeof(cl->raw)) == (size_t)-E2BIG)
		ret = -E2BIG;
	memcpy(cl->buf, cl->raw, sizeof(cl->buf));
	cl->nr_params = 0;
	cl->nr_init_args = 0;
	for (s = cl->buf;;) {
		struct cmdline_param p;

		while (is_space(*s))
			s++;
		if (!*s)
			break;
		if (n == CMDLINE_MAX_PARAMS) {
			ret = -E2BIG;
			break;
		}
		s = split_word(s, &p);
		if (!after_dashes && !p.val && !strcmp(p.key, "--")) {
			after_dashes = true;
			continue;
		}
		cl->params[n++] = p;
		if (after_dashes)
			cl->nr_init_args++;
		else
			cl->nr_params++;
	}
	return ret;
}

/* Linux's parameq: '-' and '_' are the same character in a key. */
static bool key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct cmdline_param *cmdline_find(const struct cmdline *cl, const char *key)
{
	for (unsigned int i = cl->nr_params; i-- > 0;)
		if (key_eq(cl->params[i].key, key))
			return &cl->params[i];
	return NULL;
}

bool cmdline_has(const struct cmdline *cl, const char *key)
{
	return cmdline_find(cl, key) != NULL;
}

const char *cmdline_get(const struct cmdline *cl, const char *key)
{
	const struct cmdline_param *p = cmdline_find(cl, key);

	return p ? p->val : NULL;
}

/* The value of key for a typed getter: -ENOENT or -EINVAL when there is none. */
static int typed_value(const struct cmdline *cl, const char *key, const char **val)
{
	const struct cmdline_param *p = cmdline_find(cl, key);

	if (!p)
		return -ENOENT;
	if (!p->val)
		return -EINVAL;
	*val = p->val;
	return 0;
}

int cmdline_get_ulong(const struct cmdline *cl, const char *key, unsigned long *res)
{
	unsigned long long v;
	const char *val;
	int err = typed_value(cl, key, &val);

	if (!err)
		err = kstrtoull(val, 0, &v);
	if (!err)
		*res = v;
	return err;
}

int cmdline_get_int(const struct cmdline *cl, const char *key, int *res)
{
	long long v;
	const char *val;
	int err = typed_value(cl, key, &val);

	if (!err)
		err = kstrtoll(val, 0, &v);
	if (!err && (v < -2147483648LL || v > 2147483647LL))
		err = -ERANGE;
	if (!err)
		*res = (int)v;
	return err;
}

int cmdline_get_bool(const struct cmdline *cl, const char *key, bool *res)
{
	const struct cmdline_param *p = cmdline_find(cl, key);
	const char *v;

	if (!p)
		return -ENOENT;
	v = p->val;
	if (!v || !strcmp(v, "y") || !strcmp(v, "Y") || !strcmp(v, "1") || !strcmp(v, "on")) {
		*res = true;
		return 0;
	}
	if (!strcmp(v, "n") || !strcmp(v, "N") || !strcmp(v, "0") || !strcmp(v, "off")) {
		*res = false;
		return 0;
	}
	return -EINVAL;
}
