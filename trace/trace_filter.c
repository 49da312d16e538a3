/*
 * Event filters (see trace_filter.h for the language). A filter compiles
 * to a small program over predicates, one accumulator and forward jumps:
 *
 *   a || b   ->  a; JUMP_IF_TRUE end; b; end:
 *   a && b   ->  a; JUMP_IF_FALSE end; b; end:
 *   !a       ->  a; NOT
 *
 * so matching a record is one loop with no recursion and no allocation,
 * safe in any context the probe runs in. Parsing keeps its own stack of
 * open parentheses, so nesting is bounded by the text alone, as on
 * Linux. Error positions follow Linux's
 * (one past the predicate's start plus the offset inside it), so the
 * error_log caret lands where Linux puts it. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/percpu.h>
#include <kernel/kallsyms.h>
#include <trace/trace_filter.h>

#define FILTER_MAX_STR	256	/* longest string operand, NUL included */
#define FILTER_MAX_NUM	24	/* longest numeric operand */
#define FILTER_MAX_TEXT	32767	/* longest filter: its offsets fit struct filter_group */

enum filter_op { OP_EQ, OP_NE, OP_GE, OP_GT, OP_LE, OP_LT, OP_BAND, OP_GLOB };

/* Longer operators first, so "<=" is not read as "<". */
static const char *const filter_ops[] = {
	[OP_EQ] = "==", [OP_NE] = "!=", [OP_GE] = ">=", [OP_GT] = ">",
	[OP_LE] = "<=", [OP_LT] = "<", [OP_BAND] = "&", [OP_GLOB] = "~",
};

/* One "field op value" test, resolved against the event's layout. */
struct filter_pred {
	u8 op;			/* enum filter_op */
	u8 filter_type;		/* of the field: enum filter_type */
	u8 size;		/* numeric field bytes: 1, 2, 4, 8 */
	bool is_signed;
	u16 offset;		/* in the record */
	u16 field_size;		/* static string room (0: to the NUL) */
	u64 val;		/* numeric operand */
	/*
	 * Numeric comparisons other than '&' as one range test, set up by
	 * pred_set_range: the value, sign bit flipped when signed (so order
	 * is unsigned order), matches when value - lo <= span, or when it
	 * does not with invert.
	 */
	u64 bias, lo, span;
	bool invert;
	char *str;		/* string operand or glob pattern */
};

/* The range test of a numeric comparison (see struct filter_pred). */
static void pred_set_range(struct filter_pred *pred)
{
	const u64 max = ~0ULL;
	u64 b;

	pred->bias = pred->is_signed ? 1ULL << 63 : 0;
	b = pred->val ^ pred->bias;
	pred->invert = false;
	switch (pred->op) {
	case OP_NE:
		pred->invert = true;
		/* fall through */
	case OP_EQ: pred->lo = b; pred->span = 0; break;
	case OP_GE: pred->lo = b; pred->span = max - b; break;
	case OP_GT: pred->lo = b + 1; pred->span = max - b - 1; pred->invert = b == max; break;
	case OP_LE: pred->lo = 0; pred->span = b; break;
	case OP_LT: pred->lo = 0; pred->span = b - 1; pred->invert = b == 0; break;
	default: break;
	}
	if (pred->invert && pred->op != OP_NE) {	/* nothing matches: not everything */
		pred->lo = 0;
		pred->span = max;
	}
}

enum filter_code { FC_PRED, FC_JUMP_IF_TRUE, FC_JUMP_IF_FALSE, FC_NOT };

struct filter_insn {
	u16 code;		/* enum filter_code */
	u16 arg;		/* predicate index, or jump target */
};

struct event_filter {
	char *string;
	struct filter_pred *preds;
	unsigned int nr_preds;
	struct filter_insn *prog;
	unsigned int len;
};

/* Parser state. */
struct filter_parse {
	const struct trace_event_call *call;
	const char *str;
	const char *p;
	struct event_filter *f;
	struct filter_error *err;
	unsigned int cap_preds, cap_prog;
};

/* Linux's error texts for filter parse errors. */
#define FILT_ERR_INVALID_OP	"Invalid operator"
#define FILT_ERR_TOO_MANY_OPEN	"Too many '('"
#define FILT_ERR_TOO_MANY_CLOSE	"Too few '('"
#define FILT_ERR_MISSING_QUOTE	"Missing matching quote"
#define FILT_ERR_OPERAND_TOO_LONG "Operand too long"
#define FILT_ERR_EXPECT_STRING	"Expecting string field"
#define FILT_ERR_EXPECT_DIGIT	"Expecting numeric field"
#define FILT_ERR_ILLEGAL_FIELD_OP "Illegal operation for field type"
#define FILT_ERR_FIELD_NOT_FOUND "Field not found"
#define FILT_ERR_ILLEGAL_INTVAL	"Illegal integer value"
#define FILT_ERR_TOO_MANY_PREDS	"Too many terms in predicate expression"
#define FILT_ERR_INVALID_FILTER	"Meaningless filter expression"
#define FILT_ERR_INVALID_VALUE	"Invalid value (did you forget quotes)?"
#define FILT_ERR_NO_FUNCTION	"Function not found"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int parse_error(struct filter_parse *ps, const char *msg, long pos)
{
	ps->err->msg = msg;
	ps->err->pos = (int)pos;
	return -EINVAL;
}

static void skip_space(struct filter_parse *ps)
{
	while (is_space(*ps->p))
		ps->p++;
}

static int emit(struct filter_parse *ps, enum filter_code code, unsigned int arg)
{
	struct event_filter *f = ps->f;

	if (f->len == ps->cap_prog) {
		unsigned int cap = ps->cap_prog ? ps->cap_prog * 2 : 16;
		struct filter_insn *prog = krealloc(f->prog, cap * sizeof(*prog), GFP_KERNEL);

		if (!prog)
			return -ENOMEM;
		f->prog = prog;
		ps->cap_prog = cap;
	}
	f->prog[f->len].code = (u16)code;
	f->prog[f->len].arg = (u16)arg;
	return (int)f->len++;
}

static bool is_string_type(u8 filter_type)
{
	return filter_type == FILTER_STATIC_STRING || filter_type == FILTER_DYN_STRING ||
	       filter_type == FILTER_RDYN_STRING || filter_type == FILTER_COMM;
}

/* The field a name refers to: the event's own, then cpu/comm, then the common ones. */
static bool find_field(const struct trace_event_call *call, const char *name,
		       struct filter_pred *pred)
{
	const struct trace_event_field *f = NULL;

	for (const struct trace_event_field *e = call->fields; e && e->name; e++)
		if (!strcmp(e->name, name))
			f = e;
	if (!f && (!strcmp(name, "cpu") || !strcmp(name, "common_cpu") ||
		   !strcmp(name, "CPU"))) {
		pred->filter_type = FILTER_CPU;
		pred->size = sizeof(int);
		pred->is_signed = true;
		return true;
	}
	if (!f && (!strcmp(name, "comm") || !strcmp(name, "common_comm") ||
		   !strcmp(name, "COMM"))) {
		pred->filter_type = FILTER_COMM;
		return true;
	}
	if (!f)
		f = trace_find_event_field(call, name);
	if (!f)
		return false;
	pred->filter_type = f->filter_type;
	pred->offset = f->offset;
	pred->field_size = f->size;
	pred->size = (u8)f->size;
	pred->is_signed = f->is_signed;
	return true;
}

/* A numeric field must be readable as one integer. */
static bool numeric_size_ok(const struct filter_pred *pred)
{
	return pred->filter_type == FILTER_CPU ||
	       pred->size == 1 || pred->size == 2 || pred->size == 4 || pred->size == 8;
}

/* "FIELD.function": the field's value is an address, compared by the function holding it. */
#define FUNCTION_MODIFIER	".function"

/* As Linux, a prefix: "x.functions == f" is then an operator error at the 's'. */
static bool has_function_modifier(const char *s)
{
	return !strncmp(s, FUNCTION_MODIFIER, sizeof(FUNCTION_MODIFIER) - 1);
}

/*
 * The value of "FIELD.function == VALUE" at s + *i: a function's name or
 * an address (a number: hex with 0x, else decimal or octal, as strtoul
 * with base 0) inside one. The predicate becomes the range test "inside
 * [start, start + size)" (or outside, for !=) over the field. As Linux,
 * only == and != on a field as wide as an address are allowed, and the
 * value runs to the next blank (a ')' right after it is part of it).
 * A number that does not parse is "Invalid value", a name or address
 * outside every symbol "Function not found", both at the value's end.
 */
static int parse_function_value(struct filter_parse *ps, struct filter_pred *pred,
				const char *s, size_t *i, long base)
{
	char sym[FILTER_MAX_STR];
	unsigned long long addr = 0;
	unsigned long offset, size;
	const char *name;
	size_t start = *i, len;

	if (is_string_type(pred->filter_type) || pred->filter_type == FILTER_CPU ||
	    pred->size != sizeof(unsigned long))
		return parse_error(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + (long)start);
	if (pred->op != OP_EQ && pred->op != OP_NE)
		return parse_error(ps, FILT_ERR_INVALID_OP, base + (long)start);
	while (s[*i] && !is_space(s[*i]))
		(*i)++;
	len = *i - start;
	if (len >= sizeof(sym))
		return parse_error(ps, FILT_ERR_OPERAND_TOO_LONG, base + (long)*i);
	memcpy(sym, s + start, len);
	sym[len] = '\0';
	if (sym[0] >= '0' && sym[0] <= '9') {
		if (kstrtoull(sym, 0, &addr))
			return parse_error(ps, FILT_ERR_INVALID_VALUE, base + (long)*i);
	} else {
		addr = kallsyms_lookup_name(sym);
	}
	if (!addr || !kallsyms_lookup((unsigned long)addr, &name, &offset, &size))
		return parse_error(ps, FILT_ERR_NO_FUNCTION, base + (long)*i);
	pred->is_signed = false;
	pred->val = addr - offset;
	pred->bias = 0;
	pred->lo = pred->val;
	pred->span = size - 1;
	pred->invert = pred->op == OP_NE;
	return 0;
}

/*
 * One predicate at ps->p. Positions in errors are Linux's: base (one past
 * the predicate's first character) plus the offset inside the predicate.
 */
static int parse_pred(struct filter_parse *ps)
{
	const char *s = ps->p, *q;
	long base = s - ps->str + 1;
	struct filter_pred pred = { 0 };
	char name[64], num[FILTER_MAX_NUM];
	size_t i = 0, len;
	bool function;
	int op, ret;

	while (is_alnum(s[i]) || s[i] == '_')
		i++;
	if (!i || i >= sizeof(name))
		return parse_error(ps, i ? FILT_ERR_FIELD_NOT_FOUND : FILT_ERR_INVALID_FILTER,
				   base + (long)i - 1);
	memcpy(name, s, i);
	name[i] = '\0';
	if (!find_field(ps->call, name, &pred))
		return parse_error(ps, FILT_ERR_FIELD_NOT_FOUND, base + (long)i);
	function = has_function_modifier(s + i);
	if (function)
		i += sizeof(FUNCTION_MODIFIER) - 1;
	while (is_space(s[i]))
		i++;
	for (op = 0; op < (int)ARRAY_SIZE(filter_ops); op++)
		if (!strncmp(s + i, filter_ops[op], strlen(filter_ops[op])))
			break;
	/* "&&" is a conjunction, not "&" with a value starting with '&'. */
	if (op == (int)ARRAY_SIZE(filter_ops) || (op == OP_BAND && s[i + 1] == '&'))
		return parse_error(ps, FILT_ERR_INVALID_OP, base + (long)i);
	pred.op = (u8)op;
	i += strlen(filter_ops[op]);
	while (is_space(s[i]))
		i++;

	if (function) {
		ret = parse_function_value(ps, &pred, s, &i, base);
		if (ret)
			return ret;
	} else if (is_string_type(pred.filter_type)) {
		char quote = (s[i] == '"' || s[i] == '\'') ? s[i] : 0;
		size_t start;

		if (op != OP_EQ && op != OP_NE && op != OP_GLOB)
			return parse_error(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + (long)i);
		if (!quote && (!s[i] || s[i] == ')' || s[i] == '&' || s[i] == '|'))
			return parse_error(ps, FILT_ERR_INVALID_VALUE, base + (long)i);
		start = i + (quote ? 1 : 0);
		for (i = start; s[i]; i++) {
			if (quote ? s[i] == quote :
			    (is_space(s[i]) || s[i] == ')' || s[i] == '&' || s[i] == '|'))
				break;
		}
		if (quote && !s[i])
			return parse_error(ps, FILT_ERR_MISSING_QUOTE, base + (long)i);
		len = i - start;
		if (len >= FILTER_MAX_STR)
			return parse_error(ps, FILT_ERR_OPERAND_TOO_LONG, base + (long)i);
		pred.str = kstrndup(s + start, len, GFP_KERNEL);
		if (!pred.str)
			return -ENOMEM;
		if (quote)
			i++;
	} else if (s[i] == '"' || s[i] == '\'') {
		return parse_error(ps, FILT_ERR_EXPECT_DIGIT, base + (long)i);
	} else if ((s[i] >= '0' && s[i] <= '9') || s[i] == '-') {
		size_t start = i;
		unsigned long long v;
		long long sv;

		if (op == OP_GLOB)
			return parse_error(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + (long)i);
		if (!numeric_size_ok(&pred))
			return parse_error(ps, FILT_ERR_EXPECT_STRING, base + (long)i);
		if (s[i] == '-')
			i++;
		while (is_alnum(s[i]))
			i++;
		len = i - start;
		if (len >= sizeof(num))
			return parse_error(ps, FILT_ERR_OPERAND_TOO_LONG, base + (long)i);
		memcpy(num, s + start, len);
		num[len] = '\0';
		if (pred.is_signed) {
			ret = kstrtoll(num, 0, &sv);
			v = (unsigned long long)sv;
		} else {
			ret = kstrtoull(num, 0, &v);
		}
		if (ret)
			return parse_error(ps, FILT_ERR_ILLEGAL_INTVAL, base + (long)start);
		pred.val = v;
		pred_set_range(&pred);
	} else {
		return parse_error(ps, FILT_ERR_INVALID_VALUE, base + (long)i);
	}

	q = s + i;
	if (ps->f->nr_preds == FILTER_MAX_PREDS) {
		kfree(pred.str);
		return parse_error(ps, FILT_ERR_TOO_MANY_PREDS, q - ps->str);
	}
	if (ps->f->nr_preds == ps->cap_preds) {
		unsigned int cap = ps->cap_preds ? ps->cap_preds * 2 : 8;
		struct filter_pred *preds = krealloc(ps->f->preds, cap * sizeof(*preds), GFP_KERNEL);

		if (!preds) {
			kfree(pred.str);
			return -ENOMEM;
		}
		ps->f->preds = preds;
		ps->cap_preds = cap;
	}
	ps->f->preds[ps->f->nr_preds] = pred;
	ret = emit(ps, FC_PRED, ps->f->nr_preds++);
	ps->p = q;
	return ret < 0 ? ret : 0;
}

/* Patch every jump in [from, to) that still points nowhere to the current end. */
static void patch_jumps(struct filter_parse *ps, unsigned int from, enum filter_code code)
{
	for (unsigned int i = from; i < ps->f->len; i++)
		if (ps->f->prog[i].code == code && ps->f->prog[i].arg == 0xffff)
			ps->f->prog[i].arg = (u16)ps->f->len;
}

/*
 * A group being parsed: the whole filter (the bottom of the stack) or one
 * open parenthesis. Offsets fit: the text is shorter than a program.
 */
struct filter_group {
	u16 or_start;	/* its first insn: where its '||' jumps start */
	u16 and_start;	/* the first insn of its current '&&' chain */
	u16 nots;	/* '!'s waiting for the operand being parsed */
	u16 open;	/* offset of its '(' */
};

/*
 *   or    := and ('||' and)*
 *   and   := unary ('&&' unary)*
 *   unary := '!' unary | '(' or ')' | predicate
 *
 * parsed without recursion: each '(' pushes a group on stack (room for
 * every '(' of the text), so any nesting that fits the text is taken, as
 * Linux's parser takes it. A ')' closing nothing is "Too few '('" only
 * outside every group and '!', as a recursive descent would find it.
 */
static int parse_groups(struct filter_parse *ps, struct filter_group *stack)
{
	struct filter_group *top = stack;
	int ret;

	*top = (struct filter_group){ .or_start = (u16)ps->f->len, .and_start = (u16)ps->f->len };
	for (;;) {
		/* An operand: its '!'s and '('s, then a predicate. */
		skip_space(ps);
		if (*ps->p == '!' && ps->p[1] != '=') {
			top->nots++;
			ps->p++;
			continue;
		}
		if (*ps->p == '(') {
			*++top = (struct filter_group){ .or_start = (u16)ps->f->len,
							.and_start = (u16)ps->f->len,
							.open = (u16)(ps->p - ps->str) };
			ps->p++;
			continue;
		}
		if (!*ps->p || *ps->p == ')' || *ps->p == '&' || *ps->p == '|')
			return parse_error(ps, *ps->p == ')' && top == stack && !top->nots ?
					   FILT_ERR_TOO_MANY_CLOSE : FILT_ERR_INVALID_FILTER,
					   ps->p - ps->str + 1);
		ret = parse_pred(ps);
		if (ret)
			return ret;
		/* After an operand: its '!'s, then '&&', '||', or the end of its group. */
		for (;;) {
			for (; top->nots; top->nots--)
				if (emit(ps, FC_NOT, 0) < 0)
					return -ENOMEM;
			skip_space(ps);
			if (ps->p[0] == '&' && ps->p[1] == '&') {
				ps->p += 2;
				if (emit(ps, FC_JUMP_IF_FALSE, 0xffff) < 0)
					return -ENOMEM;
				break;
			}
			patch_jumps(ps, top->and_start, FC_JUMP_IF_FALSE);
			if (ps->p[0] == '|' && ps->p[1] == '|') {
				ps->p += 2;
				if (emit(ps, FC_JUMP_IF_TRUE, 0xffff) < 0)
					return -ENOMEM;
				top->and_start = (u16)ps->f->len;
				break;
			}
			patch_jumps(ps, top->or_start, FC_JUMP_IF_TRUE);
			if (top == stack)
				return 0;
			if (*ps->p != ')')
				return parse_error(ps, *ps->p ? FILT_ERR_INVALID_FILTER : FILT_ERR_TOO_MANY_OPEN,
						   *ps->p ? ps->p - ps->str + 1 : top->open + 1);
			ps->p++;
			top--;	/* the group is the operand of the one around it */
		}
	}
}

/* The whole filter: a stack as deep as its '('s, then parse_groups. */
static int parse_filter(struct filter_parse *ps)
{
	struct filter_group *stack;
	size_t opens = 0;
	int ret;

	for (const char *c = ps->str; *c; c++)
		opens += *c == '(';
	stack = kmalloc((opens + 1) * sizeof(*stack), GFP_KERNEL);
	if (!stack)
		return -ENOMEM;
	ret = parse_groups(ps, stack);
	kfree(stack);
	return ret;
}

void filter_free(struct event_filter *filter)
{
	if (!filter)
		return;
	for (unsigned int i = 0; i < filter->nr_preds; i++)
		kfree(filter->preds[i].str);
	kfree(filter->preds);
	kfree(filter->prog);
	kfree(filter->string);
	kfree(filter);
}

int filter_parse(const struct trace_event_call *call, const char *str,
		 struct event_filter **filter, struct filter_error *err)
{
	struct filter_parse ps = { .call = call, .str = str, .err = err };
	struct filter_error dummy;
	size_t len;
	int ret;

	if (!err)
		ps.err = err = &dummy;
	err->msg = NULL;
	err->pos = 0;
	*filter = NULL;
	len = strlen(str);
	while (len && is_space(str[len - 1]))
		len--;
	/* Program offsets are 16 bits; tracefs writes (Linux's too) are a page at most. */
	if (len > FILTER_MAX_TEXT)
		return -E2BIG;
	ps.p = str;
	skip_space(&ps);
	if (ps.p == str + len || (ps.p + 1 == str + len && *ps.p == '0'))
		return 0;
	ps.f = kzalloc(sizeof(*ps.f), GFP_KERNEL);
	if (!ps.f)
		return -ENOMEM;
	ps.f->string = kstrndup(str, len, GFP_KERNEL);
	if (!ps.f->string) {
		filter_free(ps.f);
		return -ENOMEM;
	}
	ps.str = ps.f->string;
	ps.p = ps.str;
	ret = parse_filter(&ps);
	if (!ret) {
		skip_space(&ps);
		if (*ps.p == ')')
			ret = parse_error(&ps, FILT_ERR_TOO_MANY_CLOSE, ps.p - ps.str + 1);
		else if (*ps.p)
			ret = parse_error(&ps, FILT_ERR_INVALID_FILTER, ps.p - ps.str + 1);
	}
	if (ret) {
		if (ret == -ENOMEM)
			err->msg = NULL;
		filter_free(ps.f);
		return ret;
	}
	*filter = ps.f;
	return 0;
}

const char *filter_string(const struct event_filter *filter)
{
	return filter ? filter->string : "none";
}

/* Glob match with * ? and [...] classes ([!...] negated), as Linux's glob_match. */
static bool glob_match(const char *pat, const char *str, size_t n)
{
	const char *back_pat = NULL;
	size_t back_str = 0, i = 0;

	for (;;) {
		char c = i < n ? str[i] : '\0', d = *pat++;

		switch (d) {
		case '?':
			if (!c)
				return false;
			break;
		case '*':
			if (!*pat)
				return true;
			back_pat = pat;
			back_str = i;
			continue;
		case '[': {
			bool match = false, inverted = (*pat == '!');
			const char *cls = pat + inverted;
			char a = *cls++;

			do {
				char b = a;

				if (!a)
					goto literal;
				if (cls[0] == '-' && cls[1] != ']' && cls[1]) {
					b = cls[1];
					cls += 2;
					if (a > b) {
						char t = a;

						a = b;
						b = t;
					}
				}
				match |= (a <= c && c <= b);
			} while ((a = *cls++) != ']');
			if (match == inverted || !c)
				goto backtrack;
			pat = cls;
			break;
		}
		default:
literal:
			if (c == d) {
				if (!d)
					return true;
				break;
			}
backtrack:
			if (!c || !back_pat)
				return false;
			pat = back_pat;
			i = ++back_str;
			continue;
		}
		i++;
	}
}

/* The string a predicate looks at in a record, and its length. */
static const char *pred_string(const struct filter_pred *pred, const char *rec, size_t *n)
{
	const char *s;
	u32 loc;

	switch (pred->filter_type) {
	case FILTER_COMM:
		s = tracing_task_comm();
		*n = strnlen(s, 16);
		return s;
	case FILTER_DYN_STRING:
		memcpy(&loc, rec + pred->offset, 4);
		s = rec + (loc & 0xffff);
		*n = strnlen(s, loc >> 16);
		return s;
	case FILTER_RDYN_STRING:
		memcpy(&loc, rec + pred->offset, 4);
		s = rec + pred->offset + 4 + (loc & 0xffff);
		*n = strnlen(s, loc >> 16);
		return s;
	default:	/* FILTER_STATIC_STRING; a trailing char[] ends at its NUL */
		s = rec + pred->offset;
		*n = pred->field_size ? strnlen(s, pred->field_size) : strlen(s);
		return s;
	}
}

static bool pred_match(const struct filter_pred *pred, const char *rec)
{
	if (is_string_type(pred->filter_type)) {
		size_t n;
		const char *s = pred_string(pred, rec, &n);
		bool eq;

		if (pred->op == OP_GLOB)
			return glob_match(pred->str, s, n);
		eq = strlen(pred->str) == n && !memcmp(pred->str, s, n);
		return pred->op == OP_EQ ? eq : !eq;
	}

	u64 x;

	if (pred->filter_type == FILTER_CPU) {
		x = (u64)smp_processor_id();
	} else {
		const char *p = rec + pred->offset;

		/* sign- or zero-extended, as the field's type says */
		switch (pred->size) {
		case 1: { u8 b; memcpy(&b, p, 1); x = pred->is_signed ? (u64)(s8)b : b; break; }
		case 2: { u16 b; memcpy(&b, p, 2); x = pred->is_signed ? (u64)(s16)b : b; break; }
		case 4: { u32 b; memcpy(&b, p, 4); x = pred->is_signed ? (u64)(s32)b : b; break; }
		default: memcpy(&x, p, 8); break;
		}
	}
	if (pred->op == OP_BAND)
		return (x & pred->val) != 0;
	return ((x ^ pred->bias) - pred->lo <= pred->span) != pred->invert;
}

bool filter_match(const struct event_filter *filter, const void *rec)
{
	bool r = true;

	if (!filter)
		return true;
	if (filter->len == 1)		/* the common case: one test */
		return pred_match(&filter->preds[filter->prog[0].arg], rec);
	for (unsigned int pc = 0; pc < filter->len; pc++) {
		const struct filter_insn *in = &filter->prog[pc];

		switch (in->code) {
		case FC_PRED:
			r = pred_match(&filter->preds[in->arg], rec);
			break;
		case FC_JUMP_IF_TRUE:
			if (r)
				pc = in->arg - 1u;
			break;
		case FC_JUMP_IF_FALSE:
			if (!r)
				pc = in->arg - 1u;
			break;
		case FC_NOT:
			r = !r;
			break;
		}
	}
	return r;
}

int filter_format_error(char *buf, size_t size, u64 ts, const char *cmd,
			const struct filter_error *err)
{
	u64 usecs = ts / 1000;
	int pos = err->pos < 0 ? 0 : err->pos;

	return snprintf(buf, size,
			"[%5lu.%06lu] event filter parse error: error: %s\n  Command: %s\n"
			"           %*s^\n",
			(unsigned long)(usecs / 1000000), (unsigned long)(usecs % 1000000),
			err->msg ? err->msg : "Error", cmd, pos, "");
}
