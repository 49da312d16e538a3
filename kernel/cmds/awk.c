/*
 * awk [-F SEP] 'PROGRAM' [FILE]...: the field-printing core of awk that
 * test scripts lean on. PROGRAM is one or more rules
 *	[/ERE/] { print [ITEM[, ITEM]...] }
 * an ITEM being $N, $NF, NF, NR or a "string", juxtaposed items joined
 * with nothing and comma-separated ones with a space. Fields split on runs
 * of blanks (leading ones ignored), or on each SEP character with -F.
 * Anything beyond this grammar is refused with exit 2, never guessed at.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/regex.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define AWK_RULES	8
#define AWK_ITEMS	16
#define AWK_FIELDS	256	/* fields past this one read as empty */

enum awk_item_kind { ITEM_FIELD, ITEM_NF_FIELD, ITEM_NF, ITEM_NR, ITEM_STRING };

/* One thing print prints; comma says an output separator comes first. */
struct awk_item {
	enum awk_item_kind kind;
	long field;		/* ITEM_FIELD: 0 is the whole line */
	const char *str;	/* ITEM_STRING: into the program text */
	size_t len;
	bool comma;
};

/* A pattern (or none) and the print it runs. */
struct awk_rule {
	struct regex *re;
	struct awk_item items[AWK_ITEMS];
	int n_items;
};

struct awk_prog {
	struct awk_rule rules[AWK_RULES];
	int n_rules;
	char sep;		/* 0: runs of blanks */
};

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == ';')
		s++;
	return s;
}

static int parse_item(struct awk_item *it, const char **sp)
{
	const char *s = *sp;

	if (*s == '$') {
		s++;
		if (!strncmp(s, "NF", 2)) {
			it->kind = ITEM_NF_FIELD;
			s += 2;
		} else if (sh_isdigit(*s)) {
			it->kind = ITEM_FIELD;
			for (it->field = 0; sh_isdigit(*s); s++)
				it->field = it->field < AWK_FIELDS ? it->field * 10 + (*s - '0') : AWK_FIELDS;
		} else {
			return -1;
		}
	} else if (!strncmp(s, "NF", 2) || !strncmp(s, "NR", 2)) {
		it->kind = s[1] == 'F' ? ITEM_NF : ITEM_NR;
		s += 2;
	} else if (*s == '"') {
		it->kind = ITEM_STRING;
		it->str = ++s;
		while (*s && *s != '"')
			s++;
		if (!*s)
			return -1;
		it->len = (size_t)(s++ - it->str);
	} else {
		return -1;
	}
	*sp = s;
	return 0;
}

/* "{ print ITEMS }" after the pattern; s points at the '{'. */
static int parse_action(struct awk_rule *r, const char **sp)
{
	const char *s = skip_blanks(*sp + 1);
	bool comma = false;

	if (strncmp(s, "print", 5))
		return -1;
	s += 5;
	for (;;) {
		s = skip_blanks(s);
		if (*s == '}')
			break;
		if (*s == ',') {
			if (!r->n_items || comma)
				return -1;
			comma = true;
			s++;
			continue;
		}
		if (r->n_items == AWK_ITEMS)
			return -1;
		r->items[r->n_items].comma = comma;
		if (parse_item(&r->items[r->n_items++], &s))
			return -1;
		comma = false;
	}
	if (comma)
		return -1;
	*sp = s + 1;
	return 0;
}

static int awk_compile(struct awk_prog *p, const char *text)
{
	const char *s = skip_blanks(text);
	char err[80];

	while (*s) {
		struct awk_rule *r;

		if (p->n_rules == AWK_RULES)
			return -1;
		r = &p->rules[p->n_rules++];
		if (*s == '/') {
			const char *end = ++s;
			char *pat;
			int ret;

			while (*end && *end != '/')
				end += end[0] == '\\' && end[1] ? 2 : 1;
			if (!*end)
				return -1;
			pat = kstrndup(s, (size_t)(end - s), GFP_KERNEL);
			if (!pat)
				return -1;
			ret = regex_compile(&r->re, pat, RE_EXTENDED, err, sizeof(err));
			kfree(pat);
			if (ret)
				return -1;
			s = skip_blanks(end + 1);
		}
		if (*s != '{' || parse_action(r, &s))
			return -1;
		s = skip_blanks(s);
	}
	return p->n_rules ? 0 : -1;
}

static void awk_free(struct awk_prog *p)
{
	for (int i = 0; i < p->n_rules; i++)
		if (p->rules[i].re)
			regex_free(p->rules[i].re);
}

/* Field bounds of line: start[i], len[i] for 1 <= i <= the count returned. */
static int split_fields(const struct awk_prog *p, const char *line, size_t len,
			size_t *start, size_t *flen)
{
	int nf = 0;
	size_t i = 0;

	if (p->sep) {
		if (!len)
			return 0;
		for (size_t b = 0; ; i++) {
			if (i < len && line[i] != p->sep)
				continue;
			if (++nf < AWK_FIELDS)
				start[nf] = b, flen[nf] = i - b;
			b = i + 1;
			if (i >= len)
				break;
		}
		return nf < AWK_FIELDS ? nf : AWK_FIELDS - 1;
	}
	for (;;) {
		size_t b;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i >= len)
			break;
		for (b = i; i < len && line[i] != ' ' && line[i] != '\t'; i++)
			;
		if (++nf < AWK_FIELDS)
			start[nf] = b, flen[nf] = i - b;
	}
	return nf < AWK_FIELDS ? nf : AWK_FIELDS - 1;
}

static void awk_line(const struct awk_prog *p, struct sh_out *o, const char *line, size_t len, long nr)
{
	size_t start[AWK_FIELDS], flen[AWK_FIELDS];
	int nf = split_fields(p, line, len, start, flen);

	start[0] = 0;
	flen[0] = len;
	for (int r = 0; r < p->n_rules; r++) {
		const struct awk_rule *rule = &p->rules[r];
		struct re_match m;

		if (rule->re && !regex_search(rule->re, line, len, 0, &m))
			continue;
		if (!rule->n_items)
			out_put(o, line, len);
		for (int i = 0; i < rule->n_items; i++) {
			const struct awk_item *it = &rule->items[i];
			long f = it->kind == ITEM_NF_FIELD ? nf : it->field;

			if (it->comma)
				out_putc(o, ' ');
			switch (it->kind) {
			case ITEM_FIELD:
			case ITEM_NF_FIELD:
				if (f <= nf)
					out_put(o, line + start[f], flen[f]);
				break;
			case ITEM_NF: out_printf(o, "%d", nf); break;
			case ITEM_NR: out_printf(o, "%ld", nr); break;
			case ITEM_STRING: out_put(o, it->str, it->len); break;
			}
		}
		out_putc(o, '\n');
	}
}

int cmd_awk(int argc, char **argv, char **envp)
{
	struct awk_prog p = { 0 };
	struct sh_getopt g = { 0 };
	struct sh_out o;
	long nr = 0;
	int opt, status = 0;

	while ((opt = sh_getopt(&g, argc, argv, "F:")) != -1) {
		if (opt != 'F')
			return 2;
		if (strlen(g.arg) != 1) {
			sh_eprintf("awk: -F takes a single character\n");
			return 2;
		}
		p.sep = g.arg[0];
	}
	if (g.ind >= argc) {
		sh_eprintf("awk: usage: awk [-F SEP] 'PROGRAM' [FILE]...\n");
		return 2;
	}
	if (awk_compile(&p, argv[g.ind])) {
		awk_free(&p);
		sh_eprintf("awk: unsupported program: %s\n", argv[g.ind]);
		return 2;
	}
	out_init(&o, 1);
	for (int i = g.ind + 1; i < argc || i == g.ind + 1; i++) {
		int fd = i < argc ? sh_open_input("awk", argv[i]) : 0;
		struct sh_in in;
		ssize_t len;
		char *line;

		if (fd < 0) {
			status = 2;
			continue;
		}
		in_init(&in, fd);
		while ((len = in_getline(&in, &line, NULL)) >= 0)
			awk_line(&p, &o, line, (size_t)len, ++nr);
		in_free(&in);
		if (fd)
			sh_os->close(fd);
		if (i >= argc)
			break;
	}
	awk_free(&p);
	return out_finish(&o, "awk", status);
}
