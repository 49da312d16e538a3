/*
 * Regular expressions (regex.h): a parser to a syntax tree, a compiler to
 * instructions, and a backtracking matcher over them.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/regex.h>
#include <kernel/shell/regex_prog.h>

#define RE_MAX_PROG	8192
#define RE_MAX_STEPS	2000000
#define RE_INF		-1

enum re_node_type { RN_CHAR, RN_ANY, RN_CLASS, RN_BOL, RN_EOL, RN_WORDB, RN_NWORDB,
		    RN_WBEGIN, RN_WEND, RN_CAT, RN_ALT, RN_REPEAT, RN_GROUP, RN_EMPTY };

/* A node of the parsed expression. */
struct re_node {
	enum re_node_type type;
	unsigned char c;
	int min, max, group;
	u8 *set;			/* RN_CLASS: 256-bit map */
	struct re_node *a, *b;		/* CAT/ALT operands, REPEAT/GROUP body */
};

struct re_parser {
	struct regex *re;
	const char *pattern;
	const char *p;
	bool ere;
	int ngroups, depth;
	char *err;
	size_t errsize;
	bool failed;
};

static struct re_node *re_fail(struct re_parser *rp, const char *msg)
{
	if (!rp->failed)
		snprintf(rp->err, rp->errsize, "%s", msg);
	rp->failed = true;
	return NULL;
}

static struct re_node *new_node(struct re_parser *rp, enum re_node_type type)
{
	struct regex *re = rp->re;
	struct re_node *n;

	if (re->nnodes == re->nodecap) {
		int cap = re->nodecap ? re->nodecap * 2 : 32;
		struct re_node **v = krealloc(re->nodes, sizeof(*v) * (size_t)cap, GFP_KERNEL);

		if (!v)
			return re_fail(rp, "out of memory");
		re->nodes = v;
		re->nodecap = cap;
	}
	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n)
		return re_fail(rp, "out of memory");
	re->nodes[re->nnodes++] = n;
	n->type = type;
	return n;
}

static bool in_class(const char *name, int c)
{
	if (!strcmp(name, "alpha")) return sh_isalpha(c);
	if (!strcmp(name, "digit")) return sh_isdigit(c);
	if (!strcmp(name, "alnum")) return sh_isalnum(c);
	if (!strcmp(name, "space")) return sh_isspace(c);
	if (!strcmp(name, "blank")) return c == ' ' || c == '\t';
	if (!strcmp(name, "upper")) return c >= 'A' && c <= 'Z';
	if (!strcmp(name, "lower")) return c >= 'a' && c <= 'z';
	if (!strcmp(name, "xdigit")) return sh_isdigit(c) || ((c | 32) >= 'a' && (c | 32) <= 'f');
	if (!strcmp(name, "punct")) return c > 32 && c < 127 && !sh_isalnum(c);
	if (!strcmp(name, "print")) return c >= 32 && c < 127;
	if (!strcmp(name, "cntrl")) return c < 32 || c == 127;
	return false;
}

static void set_bit(u8 *set, int c)
{
	set[c >> 3] |= (u8)(1 << (c & 7));
}

/* A class from a shorthand: \w \W \s \S. */
static struct re_node *shorthand(struct re_parser *rp, char k)
{
	struct re_node *n = new_node(rp, RN_CLASS);

	if (!n || !(n->set = kzalloc(32, GFP_KERNEL)))
		return re_fail(rp, "out of memory");
	for (int c = 0; c < 256; c++) {
		bool in = (k | 32) == 'w' ? is_word(c) : sh_isspace(c);

		if (in != (k >= 'A' && k <= 'Z'))
			set_bit(n->set, c);
	}
	return n;
}

/* After '[': a bracket expression up to its ']'. */
static struct re_node *parse_bracket(struct re_parser *rp)
{
	struct re_node *n = new_node(rp, RN_CLASS);
	bool neg = false, first = true;

	if (!n || !(n->set = kzalloc(32, GFP_KERNEL)))
		return re_fail(rp, "out of memory");
	if (*rp->p == '^') {
		neg = true;
		rp->p++;
	}
	while (*rp->p && (first || *rp->p != ']')) {
		int lo = (unsigned char)*rp->p, hi;

		first = false;
		if (lo == '[' && rp->p[1] == ':') {
			const char *end = strstr(rp->p + 2, ":]");
			char name[16];

			if (!end || end - rp->p - 2 >= (long)sizeof(name))
				return re_fail(rp, "invalid character class");
			memcpy(name, rp->p + 2, (size_t)(end - rp->p - 2));
			name[end - rp->p - 2] = '\0';
			if (!strstr(":alpha:digit:alnum:space:blank:upper:lower:xdigit:punct:print:cntrl:", name) ||
			    !name[0] || strchr(name, ':'))
				return re_fail(rp, "invalid character class");
			for (int c = 0; c < 256; c++)
				if (in_class(name, c))
					set_bit(n->set, c);
			rp->p = end + 2;
			continue;
		}
		rp->p++;
		hi = lo;
		if (rp->p[0] == '-' && rp->p[1] && rp->p[1] != ']') {
			hi = (unsigned char)rp->p[1];
			rp->p += 2;
			if (hi < lo)
				return re_fail(rp, "invalid range end");
		}
		for (int c = lo; c <= hi; c++)
			set_bit(n->set, c);
	}
	if (*rp->p != ']')
		return re_fail(rp, "unmatched [, [^, [:, [., or [=");
	rp->p++;
	if (rp->re->icase)
		for (int c = 'a'; c <= 'z'; c++)
			if (test_bit(n->set, c) || test_bit(n->set, c - 32)) {
				set_bit(n->set, c);
				set_bit(n->set, c - 32);
			}
	if (neg)
		for (int i = 0; i < 32; i++)
			n->set[i] = (u8)~n->set[i];
	return n;
}

static struct re_node *parse_alt(struct re_parser *rp);

/* Is the next token an operator? (BRE spells most of them with a backslash.) */
static bool at_op(struct re_parser *rp, char op)
{
	if (rp->ere)
		return rp->p[0] == op;
	if (op == '*')
		return rp->p[0] == '*';
	return rp->p[0] == '\\' && rp->p[1] == op;
}

static void skip_op(struct re_parser *rp, char op)
{
	rp->p += (rp->ere || op == '*') ? 1 : 2;
}

static struct re_node *parse_atom(struct re_parser *rp, bool at_start)
{
	struct re_node *n;
	char c = *rp->p;

	if (at_op(rp, '(')) {
		int group = ++rp->ngroups;

		skip_op(rp, '(');
		if (++rp->depth > 64)
			return re_fail(rp, "regular expression too deeply nested");
		n = new_node(rp, RN_GROUP);
		if (!n || !(n->a = parse_alt(rp)))
			return NULL;
		n->group = group < RE_NGROUPS ? group : 0;
		if (!at_op(rp, ')'))
			return re_fail(rp, "unmatched ( or \\(");
		skip_op(rp, ')');
		rp->depth--;
		return n;
	}
	if (c == '^' && (rp->ere || at_start)) {
		rp->p++;
		return new_node(rp, RN_BOL);
	}
	if (c == '$' && (rp->ere || !rp->p[1] || (rp->p[1] == '\\' && (rp->p[2] == ')' || rp->p[2] == '|')))) {
		rp->p++;
		return new_node(rp, RN_EOL);
	}
	if (c == '.') {
		rp->p++;
		return new_node(rp, RN_ANY);
	}
	if (c == '[') {
		rp->p++;
		return parse_bracket(rp);
	}
	/* An ERE operator with nothing to repeat; a leading * is literal, as in GNU grep. */
	if (rp->ere && (c == '+' || c == '?' || c == '{' || (c == '*' && rp->p != rp->pattern)))
		return re_fail(rp, "invalid preceding regular expression");
	if (c == '\\') {
		char k = rp->p[1];

		if (!k)
			return re_fail(rp, "trailing backslash (\\)");
		rp->p += 2;
		switch (k) {
		case 'w': case 'W': case 's': case 'S':
			return shorthand(rp, k);
		case 'b': return new_node(rp, RN_WORDB);
		case 'B': return new_node(rp, RN_NWORDB);
		case '<': return new_node(rp, RN_WBEGIN);
		case '>': return new_node(rp, RN_WEND);
		case 'n': c = '\n'; break;
		case 't': c = '\t'; break;
		default:
			if (sh_isdigit(k))
				return re_fail(rp, "back-references are not supported");
			c = k;
		}
	} else {
		rp->p++;
	}
	n = new_node(rp, RN_CHAR);
	if (n)
		n->c = (unsigned char)(rp->re->icase && c >= 'A' && c <= 'Z' ? c | 32 : c);
	return n;
}

/* {m}, {m,}, {m,n} after the brace; BRE closes with \}. */
static bool parse_interval(struct re_parser *rp, int *min, int *max)
{
	int v = 0;

	if (!sh_isdigit(*rp->p))
		return false;
	while (sh_isdigit(*rp->p) && v < 1000)
		v = v * 10 + (*rp->p++ - '0');
	*min = *max = v;
	if (*rp->p == ',') {
		rp->p++;
		*max = RE_INF;
		if (sh_isdigit(*rp->p)) {
			for (v = 0; sh_isdigit(*rp->p) && v < 1000; )
				v = v * 10 + (*rp->p++ - '0');
			*max = v;
		}
	}
	if (!at_op(rp, '}'))
		return false;
	skip_op(rp, '}');
	return *min <= 255 && (*max == RE_INF || (*max <= 255 && *max >= *min));
}

static struct re_node *parse_repeat(struct re_parser *rp, bool at_start)
{
	struct re_node *n;

	/* A leading * in a BRE is literal. */
	if (!rp->ere && at_start && *rp->p == '*') {
		rp->p++;
		n = new_node(rp, RN_CHAR);
		if (n)
			n->c = '*';
	} else {
		n = parse_atom(rp, at_start);
	}
	while (n) {
		int min, max;
		struct re_node *r;

		if (at_op(rp, '*')) {
			skip_op(rp, '*');
			min = 0, max = RE_INF;
		} else if (at_op(rp, '+')) {
			skip_op(rp, '+');
			min = 1, max = RE_INF;
		} else if (at_op(rp, '?')) {
			skip_op(rp, '?');
			min = 0, max = 1;
		} else if (at_op(rp, '{')) {
			skip_op(rp, '{');
			if (!parse_interval(rp, &min, &max))
				return re_fail(rp, "invalid content of \\{\\}");
		} else {
			break;
		}
		if (n->type == RN_BOL || n->type == RN_EOL)
			return re_fail(rp, "invalid preceding regular expression");
		r = new_node(rp, RN_REPEAT);
		if (!r)
			return NULL;
		r->a = n;
		r->min = min;
		r->max = max;
		n = r;
	}
	return n;
}

static struct re_node *parse_concat(struct re_parser *rp)
{
	struct re_node *left = NULL;
	bool at_start = true;

	while (*rp->p && !at_op(rp, '|') && !at_op(rp, ')')) {
		struct re_node *n = parse_repeat(rp, at_start), *cat;

		if (!n)
			return NULL;
		at_start = n->type == RN_BOL;
		if (!left) {
			left = n;
			continue;
		}
		cat = new_node(rp, RN_CAT);
		if (!cat)
			return NULL;
		cat->a = left;
		cat->b = n;
		left = cat;
	}
	return left ? left : new_node(rp, RN_EMPTY);
}

static struct re_node *parse_alt(struct re_parser *rp)
{
	struct re_node *left = parse_concat(rp);

	while (left && at_op(rp, '|')) {
		struct re_node *alt = new_node(rp, RN_ALT);

		skip_op(rp, '|');
		if (!alt)
			return NULL;
		alt->a = left;
		if (!(alt->b = parse_concat(rp)))
			return NULL;
		left = alt;
	}
	return left;
}

static int emit(struct re_parser *rp, enum re_op op)
{
	struct regex *re = rp->re;

	if (re->n == RE_MAX_PROG) {
		re_fail(rp, "regular expression too big");
		return -1;
	}
	if (re->n == re->cap) {
		int cap = re->cap ? re->cap * 2 : 64;
		struct re_inst *p = krealloc(re->prog, sizeof(*p) * (size_t)cap, GFP_KERNEL);

		if (!p) {
			re_fail(rp, "out of memory");
			return -1;
		}
		re->prog = p;
		re->cap = cap;
	}
	memset(&re->prog[re->n], 0, sizeof(re->prog[0]));
	re->prog[re->n].op = op;
	return re->n++;
}

static void compile(struct re_parser *rp, struct re_node *n)
{
	static const enum re_op simple[] = {
		[RN_ANY] = OP_ANY, [RN_BOL] = OP_BOL, [RN_EOL] = OP_EOL, [RN_WORDB] = OP_WORDB,
		[RN_NWORDB] = OP_NWORDB, [RN_WBEGIN] = OP_WBEGIN, [RN_WEND] = OP_WEND,
	};
	struct regex *re = rp->re;
	int i, j;

	if (rp->failed)
		return;
	switch (n->type) {
	case RN_EMPTY:
		return;
	case RN_CHAR:
		if ((i = emit(rp, OP_CHAR)) >= 0)
			re->prog[i].c = n->c;
		return;
	case RN_CLASS:
		if ((i = emit(rp, OP_CLASS)) >= 0)
			re->prog[i].set = n->set;
		return;
	case RN_CAT:
		compile(rp, n->a);
		compile(rp, n->b);
		return;
	case RN_ALT:
		/* SPLIT L1, L2; L1: a; JMP end; L2: b */
		if ((i = emit(rp, OP_SPLIT)) < 0)
			return;
		re->prog[i].x = i + 1;
		compile(rp, n->a);
		if ((j = emit(rp, OP_JMP)) < 0)
			return;
		re->prog[i].y = j + 1;
		compile(rp, n->b);
		re->prog[j].x = re->n;
		return;
	case RN_GROUP:
		/* Groups beyond \9 only group. */
		if (n->group && (i = emit(rp, OP_SAVE)) >= 0)
			re->prog[i].x = 2 * n->group;
		compile(rp, n->a);
		if (n->group && (i = emit(rp, OP_SAVE)) >= 0)
			re->prog[i].x = 2 * n->group + 1;
		return;
	case RN_REPEAT:
		for (int k = 0; k < n->min; k++)
			compile(rp, n->a);
		if (n->max == RE_INF) {
			/* L: SPLIT body, out; body; JMP L */
			if ((i = emit(rp, OP_SPLIT)) < 0)
				return;
			re->prog[i].x = i + 1;
			compile(rp, n->a);
			if ((j = emit(rp, OP_JMP)) < 0)
				return;
			re->prog[j].x = i;
			re->prog[i].y = re->n;
			return;
		}
		for (int k = n->min; k < n->max; k++) {
			if ((i = emit(rp, OP_SPLIT)) < 0)
				return;
			re->prog[i].x = i + 1;
			compile(rp, n->a);
			re->prog[i].y = re->n;
		}
		return;
	default:
		emit(rp, simple[n->type]);
	}
}

/*
 * Add to first the characters a match of n can begin with; true if n can
 * also match the empty string (or only assert: ^, $, \b), when what
 * follows n may begin the match too.
 */
static bool first_chars(const struct regex *re, const struct re_node *n, u8 *first)
{
	switch (n->type) {
	case RN_CHAR:
		set_bit(first, n->c);
		if (re->icase && n->c >= 'a' && n->c <= 'z')
			set_bit(first, n->c & ~32);
		return false;
	case RN_ANY:
		for (int c = 0; c < 256; c++)
			if (c != '\n')
				set_bit(first, c);
		return false;
	case RN_CLASS:
		for (int i = 0; i < 32; i++)
			first[i] |= n->set[i];
		return false;
	case RN_CAT:
		return first_chars(re, n->a, first) && first_chars(re, n->b, first);
	case RN_ALT:
		return first_chars(re, n->a, first) | first_chars(re, n->b, first);
	case RN_REPEAT:
		return first_chars(re, n->a, first) || n->min == 0;
	case RN_GROUP:
		return first_chars(re, n->a, first);
	default:
		return true;
	}
}

/* Append n's text to re->lit if n is plain characters; false if it is not, or too long. */
static bool literal_of(struct regex *re, const struct re_node *n)
{
	if (n->type == RN_CAT)
		return literal_of(re, n->a) && literal_of(re, n->b);
	if (n->type != RN_CHAR || re->lit_len == (int)sizeof(re->lit))
		return false;
	re->lit[re->lit_len++] = (char)n->c;
	return true;
}

/* Can a match start only at the beginning of the line? */
static bool starts_with_bol(const struct re_node *n)
{
	switch (n->type) {
	case RN_BOL:
		return true;
	case RN_CAT:
	case RN_GROUP:
		return starts_with_bol(n->a);
	case RN_ALT:
		return starts_with_bol(n->a) && starts_with_bol(n->b);
	default:
		return false;
	}
}

void regex_free(struct regex *re)
{
	if (!re)
		return;
	for (int i = 0; i < re->nnodes; i++) {
		kfree(re->nodes[i]->set);
		kfree(re->nodes[i]);
	}
	kfree(re->nodes);
	kfree(re->prog);
	kfree(re);
}

int regex_compile(struct regex **out, const char *pattern, int flags, char *err, size_t errsize)
{
	struct regex *re = kzalloc(sizeof(*re), GFP_KERNEL);
	struct re_parser rp = { .re = re, .pattern = pattern, .p = pattern, .ere = flags & RE_EXTENDED,
				.err = err, .errsize = errsize };
	struct re_node *root;
	int i;

	*out = NULL;
	if (!re) {
		snprintf(err, errsize, "out of memory");
		return -ENOMEM;
	}
	re->icase = flags & RE_ICASE;
	root = parse_alt(&rp);
	if (root && *rp.p)
		re_fail(&rp, rp.ere ? "unmatched ) or \\)" : "unmatched ( or \\(");
	if (root && !rp.failed) {
		re->anchored = starts_with_bol(root);
		re->any_start = first_chars(re, root, re->first);
		/* a plain string (grep's commonest pattern) is found without the matcher */
		if (re->icase || !literal_of(re, root))
			re->lit_len = 0;
		if ((i = emit(&rp, OP_SAVE)) >= 0)
			re->prog[i].x = 0;
		compile(&rp, root);
		if ((i = emit(&rp, OP_SAVE)) >= 0)
			re->prog[i].x = 1;
		emit(&rp, OP_MATCH);
	}
	if (rp.failed) {
		regex_free(re);
		return -EINVAL;
	}
	*out = re;
	return 0;
}

/* A backtracking entry: resume at pc/pos, or (pc < 0) restore a capture slot. */
struct re_frame {
	int pc;
	long pos;
};

struct re_run {
	const struct regex *re;
	const char *s;
	long len;
	long caps[2 * RE_NGROUPS];
	struct re_frame *stack;		/* small, until a match needs more */
	int top, cap;
	long steps;
	struct re_frame small[64];
};

static bool push(struct re_run *r, int pc, long pos)
{
	if (r->top == r->cap) {
		int cap = r->cap ? r->cap * 2 : 64;
		struct re_frame *st;

		if (cap > 1 << 20)
			return false;
		st = krealloc(r->stack == r->small ? NULL : r->stack, sizeof(*st) * (size_t)cap,
			      GFP_KERNEL);
		if (!st)
			return false;
		if (r->stack == r->small)
			memcpy(st, r->small, sizeof(r->small));
		r->stack = st;
		r->cap = cap;
	}
	r->stack[r->top].pc = pc;
	r->stack[r->top].pos = pos;
	r->top++;
	return true;
}

static bool word_at(struct re_run *r, long pos)
{
	return pos >= 0 && pos < r->len && is_word((unsigned char)r->s[pos]);
}

/* Run the program from pos; true if it reaches MATCH. */
static bool run(struct re_run *r, long start)
{
	const struct re_inst *prog = r->re->prog;

	r->top = 0;
	if (!push(r, 0, start))
		return false;
	while (r->top) {
		struct re_frame f = r->stack[--r->top];
		int pc = f.pc;
		long pos = f.pos;

		if (pc < 0) {
			r->caps[-pc - 1] = pos;	/* undo a SAVE */
			continue;
		}
		for (;;) {
			const struct re_inst *in = &prog[pc];
			bool ok = true;
			int c = pos < r->len ? (unsigned char)r->s[pos] : -1;

			if (++r->steps > RE_MAX_STEPS)
				return false;
			if (r->re->icase && c >= 'A' && c <= 'Z')
				c |= 32;
			switch (in->op) {
			case OP_CHAR: ok = c == in->c; pos++; break;
			case OP_ANY: ok = c >= 0 && c != '\n'; pos++; break;
			case OP_CLASS: ok = c >= 0 && test_bit(in->set, pos < r->len ? (unsigned char)r->s[pos] : 0); pos++; break;
			case OP_BOL: ok = pos == 0; break;
			case OP_EOL: ok = pos == r->len; break;
			case OP_WORDB: ok = word_at(r, pos - 1) != word_at(r, pos); break;
			case OP_NWORDB: ok = word_at(r, pos - 1) == word_at(r, pos); break;
			case OP_WBEGIN: ok = !word_at(r, pos - 1) && word_at(r, pos); break;
			case OP_WEND: ok = word_at(r, pos - 1) && !word_at(r, pos); break;
			case OP_SPLIT:
				if (!push(r, in->y, pos))
					return false;
				pc = in->x;
				continue;
			case OP_JMP:
				pc = in->x;
				continue;
			case OP_SAVE:
				if (!push(r, -in->x - 1, r->caps[in->x]))
					return false;
				r->caps[in->x] = pos;
				break;
			case OP_MATCH:
				return true;
			}
			if (!ok)
				break;
			pc++;
		}
	}
	return false;
}

/* regex_search for a plain string. */
static bool literal_search(const struct regex *re, const char *s, size_t len, size_t from,
			   struct re_match *m)
{
	size_t n = (size_t)re->lit_len;

	for (const char *p = s + from; len >= n && p <= s + len - n; p++) {
		p = memchr(p, re->lit[0], (size_t)(s + len - n - p) + 1);
		if (!p)
			return false;
		if (!memcmp(p + 1, re->lit + 1, n - 1)) {
			for (int i = 0; i < RE_NGROUPS; i++)
				m->start[i] = m->end[i] = -1;
			m->start[0] = p - s;
			m->end[0] = m->start[0] + (long)n;
			return true;
		}
	}
	return false;
}

bool regex_search(const struct regex *re, const char *s, size_t len, size_t from, struct re_match *m)
{
	struct re_run r = { .re = re, .s = s, .len = (long)len };
	bool found = false;

	if (re->lit_len)
		return literal_search(re, s, len, from, m);
	r.stack = r.small;
	r.cap = ARRAY_SIZE(r.small);
	for (long start = (long)from; start <= (long)len && !found; start++) {
		/* most lines hold no character a match can begin with: skip to one */
		while (!re->any_start && start < (long)len &&
		       !test_bit(re->first, (unsigned char)s[start]) && !re->anchored)
			start++;
		if (!re->any_start && (start == (long)len ||
				       !test_bit(re->first, (unsigned char)s[start])))
			break;
		for (int i = 0; i < 2 * RE_NGROUPS; i++)
			r.caps[i] = -1;
		found = run(&r, start);
		if (re->anchored || r.steps > RE_MAX_STEPS)
			break;
	}
	if (found)
		for (int i = 0; i < RE_NGROUPS; i++) {
			m->start[i] = r.caps[2 * i];
			m->end[i] = r.caps[2 * i + 1];
		}
	if (r.stack != r.small)
		kfree(r.stack);
	return found;
}
