/*
 * spoor report -F: trace-cmd report's event filters.
 *
 *   -F 'EVENTS[:FILTER]'
 *   EVENTS  SYSTEM/EVENT, SYSTEM or EVENT (regular expressions, anchored),
 *           several separated by ','
 *   FILTER  FIELD OP VALUE, combined with &&, || and !, grouped by ( )
 *   OP      == != < <= > >= (numbers or strings), =~ !~ (a regular
 *           expression against a string field), ~ (a glob, as the kernel's
 *           filters take it), & (any bit in common)
 *   VALUE   a number (0x.. too), a "string" or 'string', or another FIELD
 *
 * With any -F given, only records of events some -F names are shown, and
 * a record is shown if one of its event's filters accepts it. Fields are
 * the format file's, common_* included; "COMM" is the task's name.
 */
#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "host-tools/report.h"
#include "host-tools/spoor.h"

enum { NODE_AND, NODE_OR, NODE_NOT, NODE_CMP };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH, OP_NOMATCH, OP_GLOB, OP_AND };

/* An operand: a field of the record, or a constant. */
struct operand {
	const struct rep_field *field;	/* NULL: constant */
	bool comm;			/* the COMM pseudo field */
	bool is_string;
	uint64_t num;
	char *str;
};

struct fnode {
	int type, op;
	struct fnode *l, *r;
	struct operand a, b;
	regex_t re;			/* OP_MATCH, OP_NOMATCH */
	bool have_re;
};

/* One -F: the events it names and, per event, the filter compiled against its fields. */
struct report_filter {
	regex_t *sys_re, *ev_re;	/* per name; sys_re NULL entry: any system */
	unsigned int nr_names;
	struct rep_event **events;	/* events this -F applies to, and their filters */
	struct fnode **trees;		/* NULL: no filter, every record */
	unsigned int nr_events;
	struct report_filter *next;
};

struct parser {
	const char *s;
	const struct rep_event *ev;
	const char *err;
};

static void skip(struct parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static bool accept(struct parser *p, const char *tok)
{
	skip(p);
	if (strncmp(p->s, tok, strlen(tok)))
		return false;
	p->s += strlen(tok);
	return true;
}

static void free_tree(struct fnode *n)
{
	if (!n)
		return;
	free_tree(n->l);
	free_tree(n->r);
	free(n->a.str);
	free(n->b.str);
	if (n->have_re)
		regfree(&n->re);
	free(n);
}

static struct fnode *new_node(int type)
{
	struct fnode *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->type = type;
	return n;
}

static bool operand(struct parser *p, struct operand *o)
{
	skip(p);
	if (*p->s == '"' || *p->s == '\'') {
		char q = *p->s++;
		const char *end = strchr(p->s, q);

		if (!end) {
			p->err = "unterminated string";
			return false;
		}
		o->is_string = true;
		o->str = strndup(p->s, (size_t)(end - p->s));
		p->s = end + 1;
		return true;
	}
	if (isdigit((unsigned char)*p->s) || *p->s == '-') {
		char *end;

		o->num = (uint64_t)strtoll(p->s, &end, 0);
		if (end == p->s) {
			p->err = "expected a number";
			return false;
		}
		p->s = end;
		return true;
	}
	if (isalpha((unsigned char)*p->s) || *p->s == '_') {
		const char *start = p->s;
		char name[128];

		while (isalnum((unsigned char)*p->s) || *p->s == '_')
			p->s++;
		snprintf(name, sizeof(name), "%.*s", (int)(p->s - start), start);
		if (!strcmp(name, "COMM")) {
			o->comm = o->is_string = true;
			return true;
		}
		o->field = rep_find_field(p->ev, name);
		if (!o->field) {
			p->err = "no such field";
			p->s = start;
			return false;
		}
		o->is_string = o->field->flags & FIELD_STRING;
		return true;
	}
	p->err = "expected a field, a number or a string";
	return false;
}

static struct fnode *parse_or(struct parser *p);

static struct fnode *parse_cmp(struct parser *p)
{
	static const struct { const char *tok; int op; } ops[] = {
		{ "==", OP_EQ }, { "!=", OP_NE }, { "<=", OP_LE }, { ">=", OP_GE }, { "=~", OP_MATCH },
		{ "!~", OP_NOMATCH }, { "<", OP_LT }, { ">", OP_GT }, { "&", OP_AND }, { "~", OP_GLOB },
	};
	struct fnode *n = new_node(NODE_CMP);
	size_t i;

	if (!operand(p, &n->a))
		goto fail;
	skip(p);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(p->s, ops[i].tok, strlen(ops[i].tok)) &&
		    !(ops[i].op == OP_AND && p->s[1] == '&'))
			break;
	if (i == sizeof(ops) / sizeof(ops[0])) {
		p->err = "expected a comparison";
		goto fail;
	}
	n->op = ops[i].op;
	p->s += strlen(ops[i].tok);
	if (!operand(p, &n->b))
		goto fail;
	if (n->op == OP_MATCH || n->op == OP_NOMATCH) {
		if (!n->a.is_string || !n->b.str) {
			p->err = "=~ and !~ take a string field and a \"regular expression\"";
			goto fail;
		}
		if (regcomp(&n->re, n->b.str, REG_EXTENDED | REG_NOSUB)) {
			p->err = "bad regular expression";
			goto fail;
		}
		n->have_re = true;
	} else if (n->op == OP_GLOB && (!n->a.is_string || !n->b.str)) {
		p->err = "~ takes a string field and a \"glob\"";
		goto fail;
	} else if (n->a.is_string != n->b.is_string || (n->a.is_string && n->op == OP_AND)) {
		p->err = "a string compares with a string, by ==, !=, <, >, =~ or !~";
		goto fail;
	}
	return n;
fail:
	free_tree(n);
	return NULL;
}

static struct fnode *parse_unary(struct parser *p)
{
	struct fnode *n;

	if (accept(p, "!") ) {
		n = new_node(NODE_NOT);
		n->l = parse_unary(p);
		if (!n->l) {
			free_tree(n);
			return NULL;
		}
		return n;
	}
	if (accept(p, "(")) {
		n = parse_or(p);
		if (n && !accept(p, ")")) {
			p->err = "missing ')'";
			free_tree(n);
			return NULL;
		}
		return n;
	}
	return parse_cmp(p);
}

static struct fnode *parse_binary(struct parser *p, const char *tok, int type,
				  struct fnode *(*sub)(struct parser *))
{
	struct fnode *l = sub(p);

	while (l && accept(p, tok)) {
		struct fnode *n = new_node(type);

		n->l = l;
		n->r = sub(p);
		if (!n->r) {
			free_tree(n);
			return NULL;
		}
		l = n;
	}
	return l;
}

static struct fnode *parse_and(struct parser *p)
{
	return parse_binary(p, "&&", NODE_AND, parse_unary);
}

static struct fnode *parse_or(struct parser *p)
{
	return parse_binary(p, "||", NODE_OR, parse_and);
}

/* A string operand's text, in buf (NUL-terminated). */
static const char *string_of(const struct rep_ctx *ctx, const struct operand *o,
			     const struct rep_record *r, int32_t pid, char *buf, size_t size)
{
	const unsigned char *data;
	unsigned int len;

	if (!o->field && !o->comm)
		return o->str;
	if (o->comm) {
		const char *c = pid ? syms_comm(&ctx->syms, pid) : "<idle>";

		snprintf(buf, size, "%s", c ? c : "<...>");
		return buf;
	}
	if (o->field->flags & (FIELD_DYNAMIC | FIELD_RELATIVE)) {
		data = rep_dyn_data(ctx, r, o->field, &len);
	} else {
		data = o->field->offset + o->field->size <= r->size ? r->data + o->field->offset : NULL;
		len = data ? o->field->size : 0;
	}
	len = len < size - 1 ? len : (unsigned int)size - 1;
	memcpy(buf, data ? (const char *)data : "", data ? len : 0);
	buf[data ? len : 0] = '\0';
	return buf;
}

static int64_t number_of(const struct rep_ctx *ctx, const struct operand *o,
			 const struct rep_record *r)
{
	if (!o->field)
		return (int64_t)o->num;
	return (int64_t)rep_read_num(ctx, r, o->field->offset, o->field->size, o->field->is_signed);
}

static bool eval(const struct rep_ctx *ctx, const struct fnode *n, const struct rep_record *r,
		 int32_t pid)
{
	char abuf[256], bbuf[256];
	int64_t a, b;
	int c;

	switch (n->type) {
	case NODE_AND:
		return eval(ctx, n->l, r, pid) && eval(ctx, n->r, r, pid);
	case NODE_OR:
		return eval(ctx, n->l, r, pid) || eval(ctx, n->r, r, pid);
	case NODE_NOT:
		return !eval(ctx, n->l, r, pid);
	}
	if (n->a.is_string) {
		const char *s = string_of(ctx, &n->a, r, pid, abuf, sizeof(abuf));

		if (n->have_re)
			return !regexec(&n->re, s, 0, NULL, 0) == (n->op == OP_MATCH);
		if (n->op == OP_GLOB)
			return !fnmatch(n->b.str, s, 0);
		c = strcmp(s, string_of(ctx, &n->b, r, pid, bbuf, sizeof(bbuf)));
		a = c;
		b = 0;
	} else {
		a = number_of(ctx, &n->a, r);
		b = number_of(ctx, &n->b, r);
	}
	switch (n->op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	default: return (a & b) != 0;
	}
}

/* "sched/sched_switch" -> anchored regexes for the system (or none) and the event. */
static bool add_name(struct report_filter *f, const char *name)
{
	const char *slash = strchr(name, '/');
	char pat[256];
	unsigned int i = f->nr_names;

	f->sys_re = realloc(f->sys_re, (i + 1) * sizeof(*f->sys_re));
	f->ev_re = realloc(f->ev_re, (i + 1) * sizeof(*f->ev_re));
	if (!f->sys_re || !f->ev_re)
		abort();
	snprintf(pat, sizeof(pat), "^(%.*s)$", slash ? (int)(slash - name) : (int)strlen(name), name);
	if (regcomp(&f->sys_re[i], pat, REG_EXTENDED | REG_NOSUB))
		return false;
	snprintf(pat, sizeof(pat), "^(%s)$", slash ? slash + 1 : name);
	if (regcomp(&f->ev_re[i], pat, REG_EXTENDED | REG_NOSUB)) {
		regfree(&f->sys_re[i]);
		return false;
	}
	f->nr_names++;
	return true;
}

/* Does name i cover ev? SYSTEM/EVENT must match both; a name alone, either. */
static bool names_event(const struct report_filter *f, unsigned int i, bool with_system,
			const struct rep_event *ev)
{
	if (with_system)
		return !regexec(&f->sys_re[i], ev->system, 0, NULL, 0) &&
		       !regexec(&f->ev_re[i], ev->name, 0, NULL, 0);
	return !regexec(&f->sys_re[i], ev->system, 0, NULL, 0) ||
	       !regexec(&f->ev_re[i], ev->name, 0, NULL, 0);
}

int report_filter_add(struct report_filter **list, struct rep_ctx *ctx, const char *spec)
{
	struct report_filter *f = calloc(1, sizeof(*f));
	const char *colon = strchr(spec, ':');
	char *names = strndup(spec, colon ? (size_t)(colon - spec) : strlen(spec));
	bool *slashes = calloc(strlen(spec) + 1, sizeof(*slashes));
	int rc = 0;

	if (!f || !names || !slashes)
		abort();
	for (char *tok = strtok(names, ","); tok && !rc; tok = strtok(NULL, ",")) {
		while (isspace((unsigned char)*tok))
			tok++;
		for (char *e = tok + strlen(tok); e > tok && isspace((unsigned char)e[-1]); )
			*--e = '\0';
		slashes[f->nr_names] = strchr(tok, '/');
		if (!*tok || !add_name(f, tok)) {
			spoor_err("report: -F %s: '%s' is no event name or regular expression", spec, tok);
			rc = -1;
		}
	}
	for (unsigned int e = 0; e < ctx->nr_events && !rc; e++) {
		struct rep_event *ev = ctx->events[e];
		struct parser p = { .s = colon ? colon + 1 : "", .ev = ev };
		struct fnode *tree = NULL;
		bool named = false;

		for (unsigned int i = 0; i < f->nr_names && !named; i++)
			named = names_event(f, i, slashes[i], ev);
		if (!named || !rep_event_load(ctx, ev))
			continue;
		skip(&p);
		if (*p.s) {
			tree = parse_or(&p);
			skip(&p);
			if (tree && *p.s) {
				p.err = "unexpected text";
				free_tree(tree);
				tree = NULL;
			}
			if (!tree) {
				spoor_err("report: -F %s: %s:%s: %s at '%.20s'", spec, ev->system, ev->name,
					  p.err, p.s);
				rc = -1;
				break;
			}
		}
		f->events = realloc(f->events, (f->nr_events + 1) * sizeof(*f->events));
		f->trees = realloc(f->trees, (f->nr_events + 1) * sizeof(*f->trees));
		if (!f->events || !f->trees)
			abort();
		f->events[f->nr_events] = ev;
		f->trees[f->nr_events++] = tree;
	}
	if (!rc && !f->nr_events) {
		spoor_err("report: -F %s: no event of the file matches", spec);
		rc = -1;
	}
	free(names);
	free(slashes);
	f->next = *list;
	*list = f;
	return rc;
}

bool report_filter_match(const struct report_filter *list, const struct rep_ctx *ctx,
			 const struct rep_event *ev, const struct rep_record *r, int32_t pid)
{
	if (!list)
		return true;
	for (const struct report_filter *f = list; f; f = f->next)
		for (unsigned int i = 0; i < f->nr_events; i++)
			if (f->events[i] == ev && (!f->trees[i] || eval(ctx, f->trees[i], r, pid)))
				return true;
	return false;
}

void report_filter_free(struct report_filter *list)
{
	while (list) {
		struct report_filter *next = list->next;

		for (unsigned int i = 0; i < list->nr_names; i++) {
			regfree(&list->sys_re[i]);
			regfree(&list->ev_re[i]);
		}
		for (unsigned int i = 0; i < list->nr_events; i++)
			free_tree(list->trees[i]);
		free(list->sys_re);
		free(list->ev_re);
		free(list->events);
		free(list->trees);
		free(list);
		list = next;
	}
}
