/*
 * awk's expressions evaluated. Every evaluation leaves an owned value in
 * *out; after an error, exit or next inside a function, a->unwind is set
 * and the callers stop at their next check, so nothing here needs to
 * return early for correctness, only for speed.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_os.h>
#include <kernel/cmds/awk/awk.h>

#define AWK_MAX_CALLS		1000

void awk_error(struct awk *a, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (a->unwind == X_ERROR)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sh_eprintf("awk: line %d: %s\n", a->line, msg);
	a->unwind = X_ERROR;
	a->status = 2;
}

struct awk_cell *awk_cell(struct awk *a, struct awk_node *n)
{
	return n->kind == N_LOCAL ? &a->frame[n->slot] : &a->globals[n->slot];
}

struct awk_array *awk_array_of(struct awk *a, struct awk_node *n)
{
	struct awk_cell *c = awk_cell(a, n);

	if (c->arr)
		return c->arr;
	if (c->val.type != T_UNINIT) {
		awk_error(a, "a scalar used as an array");
		return NULL;
	}
	return c->arr = arr_new(a);
}

struct awk_str *awk_subscript(struct awk *a, struct awk_node *n)
{
	struct sh_buf b = { 0 };
	struct awk_str *s;

	if (!n->next)
		return awk_eval_str(a, n);
	for (; n; n = n->next) {
		s = awk_eval_str(a, n);
		sh_buf_put(&b, s->s, s->len);
		str_put(s);
		if (n->next) {
			s = val_tostr(a, &a->globals[V_SUBSEP].val, false);
			sh_buf_put(&b, s->s, s->len);
			str_put(s);
		}
	}
	s = b.oom ? (awk_error(a, "out of memory"), str_get(&awk_empty)) : str_make(a, b.s ? b.s : "", b.len);
	sh_buf_free(&b);
	return s;
}

/* Where an lvalue lives: a value slot, or field `field`. */
struct lref {
	struct awk_val *val;
	int special;		/* the global slot when a special variable, else -1 */
	long field;		/* when val is NULL */
};

static bool lref_resolve(struct awk *a, struct awk_node *n, struct lref *r)
{
	struct awk_val v;

	*r = (struct lref){ .special = -1 };
	switch (n->kind) {
	case N_FIELD:
		awk_eval(a, n->a, &v);
		r->field = awk_num_to_int(val_tonum(&v));
		val_free(&v);
		break;
	case N_INDEX: {
		struct awk_array *arr = awk_array_of(a, n->a);
		struct awk_str *key = awk_subscript(a, n->b);

		if (arr && !a->unwind)
			r->val = arr_lookup(a, arr, key, true);
		str_put(key);
		break;
	}
	default: {
		struct awk_cell *c = awk_cell(a, n);

		if (c->arr) {
			awk_error(a, "an array used as a scalar");
			break;
		}
		r->val = &c->val;
		if (n->kind == N_VAR && n->slot < V_NSPECIAL)
			r->special = n->slot;
	}
	}
	return !a->unwind && (r->val || n->kind == N_FIELD);
}

static void lref_get(struct awk *a, const struct lref *r, struct awk_val *out)
{
	if (!r->val)
		return field_get(a, r->field, out);
	if (r->special == V_NF)
		fields_split(a);
	val_copy(out, r->val);
}

/* Store v (taken). */
static void lref_set(struct awk *a, const struct lref *r, struct awk_val *v)
{
	if (!r->val)
		return field_set(a, r->field, v);
	if (r->special == V_NF) {
		nf_set(a, awk_num_to_int(val_tonum(v)));
		val_free(v);
		return;
	}
	val_free(r->val);
	*r->val = *v;
}

void awk_assign(struct awk *a, struct awk_node *n, struct awk_val *v)
{
	struct lref r;

	if (lref_resolve(a, n, &r))
		lref_set(a, &r, v);
	else
		val_free(v);
}

static awk_num arith(struct awk *a, int op, awk_num x, awk_num y)
{
	switch (op) {
	case '+': return awk_num_add(x, y);
	case '-': return awk_num_add(x, -y);
	case '*': return awk_num_mul(x, y);
	case '^': return awk_num_pow(x, y);
	case '/':
	case '%':
		if (!y) {
			awk_error(a, "division by zero%s", op == '%' ? " in %" : "");
			return 0;
		}
		return op == '/' ? awk_num_div(x, y) : x % y;
	}
	return 0;
}

bool awk_eval_bool(struct awk *a, struct awk_node *n)
{
	struct awk_val v;
	bool t;

	awk_eval(a, n, &v);
	t = val_true(&v);
	val_free(&v);
	return t;
}

struct awk_str *awk_eval_str(struct awk *a, struct awk_node *n)
{
	struct awk_val v;
	struct awk_str *s;

	awk_eval(a, n, &v);
	s = val_tostr(a, &v, false);
	val_free(&v);
	return s;
}

awk_num awk_eval_num(struct awk *a, struct awk_node *n)
{
	struct awk_val v;
	awk_num x;

	awk_eval(a, n, &v);
	x = val_tonum(&v);
	val_free(&v);
	return x;
}

/* s ~ re, re a regex literal or any expression taken as one. */
static noinline bool eval_match(struct awk *a, struct awk_node *sn, struct awk_node *ren)
{
	struct awk_str *s, *text = NULL;
	struct regex *re = ren->kind == N_REGEX ? ren->re : NULL;
	size_t ms, me;
	bool m = false;

	s = awk_eval_str(a, sn);
	if (!re) {
		text = awk_eval_str(a, ren);
		re = a->unwind ? NULL : awk_regex(a, text);
	}
	if (re)
		m = awk_match(re, s->s, s->len, 0, &ms, &me);
	str_put(s);
	str_put(text);
	return m;
}

static noinline void eval_concat(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct sh_buf b = { 0 };

	for (; n && !a->unwind; n = n->next) {
		struct awk_str *s = awk_eval_str(a, n);

		sh_buf_put(&b, s->s, s->len);
		str_put(s);
	}
	if (b.oom)
		awk_error(a, "out of memory");
	val_str(out, b.oom ? str_get(&awk_empty) : str_make(a, b.s ? b.s : "", b.len));
	sh_buf_free(&b);
}

static noinline void eval_assign(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_val v, cur;
	struct lref r;

	/* The value first: evaluating it may delete the element assigned to. */
	awk_eval(a, n->b, &v);
	if (!lref_resolve(a, n->a, &r)) {
		val_free(&v);
		return;
	}
	if (n->op != '=') {
		lref_get(a, &r, &cur);
		val_num(&v, arith(a, n->op, val_tonum(&cur), val_tonum(&v)));
		val_free(&cur);
		if (a->unwind)
			return;
	}
	val_copy(out, &v);
	lref_set(a, &r, &v);
}

static noinline void eval_incdec(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_val cur, v;
	struct lref r;
	awk_num x;

	if (!lref_resolve(a, n->a, &r))
		return;
	lref_get(a, &r, &cur);
	x = val_tonum(&cur);
	val_free(&cur);
	val_num(&v, awk_num_add(x, n->op == '+' ? AWK_ONE : -AWK_ONE));
	val_num(out, n->flag ? v.num : x);
	lref_set(a, &r, &v);
}

void awk_call(struct awk *a, struct awk_node *call, struct awk_val *out)
{
	struct awk_func *f = call->fn;
	struct awk_cell *frame, *saved = a->frame;
	int i = 0;

	if (a->depth >= AWK_MAX_CALLS) {
		awk_error(a, "function calls nested too deeply");
		return;
	}
	frame = kzalloc(sizeof(*frame) * (size_t)(f->nparams ? f->nparams : 1), GFP_KERNEL);
	if (!frame) {
		awk_error(a, "out of memory");
		return;
	}
	for (struct awk_node *arg = call->a; arg && !a->unwind; arg = arg->next, i++) {
		if (i >= f->nparams) {
			awk_error(a, "function %s called with more than %d arguments", f->name, f->nparams);
			break;
		}
		/* Arrays go by reference; an unset variable becomes one if the function wants one. */
		if (arg->kind == N_VAR || arg->kind == N_LOCAL) {
			struct awk_cell *c = awk_cell(a, arg);

			if (c->arr || (c->val.type == T_UNINIT && i < 64 && f->array_params >> i & 1)) {
				if ((frame[i].arr = awk_array_of(a, arg)))
					frame[i].arr->ref++;
				continue;
			}
		}
		awk_eval(a, arg, &frame[i].val);
	}
	if (!a->unwind) {
		a->frame = frame;
		a->depth++;
		if (awk_exec(a, f->body) == X_RETURN) {
			*out = a->retval;
			a->retval = (struct awk_val){ 0 };
		}
		a->depth--;
		a->frame = saved;
	}
	for (i = 0; i < f->nparams; i++) {
		val_free(&frame[i].val);
		arr_put(frame[i].arr);
	}
	kfree(frame);
}

/*
 * The cases of awk_eval with locals of their own are kept out of line:
 * awk_eval's frame is paid at every level of nesting and of recursion of
 * awk functions, on a kernel stack of 16 KiB.
 */
static noinline void eval_variable(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct lref r;

	if (lref_resolve(a, n, &r))
		lref_get(a, &r, out);
}

static noinline void eval_regex(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *rec = a->record ? a->record : &awk_empty;
	size_t ms, me;

	val_num(out, awk_match(n->re, rec->s, rec->len, 0, &ms, &me) ? AWK_ONE : 0);
}

static noinline void eval_in(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_array *arr = awk_array_of(a, n->b);
	struct awk_str *key = awk_subscript(a, n->a);

	val_num(out, arr && !a->unwind && arr_lookup(a, arr, key, false) ? AWK_ONE : 0);
	str_put(key);
}

static noinline void eval_compare(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_val v, w;
	int c;

	awk_eval(a, n->a, &v);
	awk_eval(a, n->b, &w);
	c = val_compare(a, &v, &w);
	val_free(&v);
	val_free(&w);
	switch (n->op) {
	case CMP_LT: c = c < 0; break;
	case CMP_LE: c = c <= 0; break;
	case CMP_EQ: c = c == 0; break;
	case CMP_NE: c = c != 0; break;
	case CMP_GT: c = c > 0; break;
	default: c = c >= 0;
	}
	val_num(out, c ? AWK_ONE : 0);
}

/* a + b - c ...: a chain the parser flattened, so a long one costs no recursion. */
static noinline void eval_arith(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	awk_num x = awk_eval_num(a, n->a);

	for (struct awk_node *step = n->b; step && !a->unwind; step = step->next)
		x = arith(a, step->op, x, awk_eval_num(a, step->a));
	val_num(out, x);
}

static noinline void eval_power(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	awk_num x = awk_eval_num(a, n->a);

	val_num(out, arith(a, '^', x, awk_eval_num(a, n->b)));
}

void awk_eval(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	*out = (struct awk_val){ 0 };
	if (a->unwind)
		return;
	if (sh_os->stack_left() < AWK_STACK_RESERVE) {
		awk_error(a, "expression or function calls nested too deeply");
		return;
	}
	switch (n->kind) {
	case N_NUM:
		val_num(out, n->num);
		break;
	case N_STR:
		val_str(out, str_get(n->str));
		break;
	case N_REGEX:
		eval_regex(a, n, out);
		break;
	case N_VAR:
	case N_LOCAL:
	case N_FIELD:
	case N_INDEX:
		eval_variable(a, n, out);
		break;
	case N_GROUP:
		awk_error(a, "a parenthesised list is only allowed before 'in'");
		break;
	case N_ASSIGN:
		eval_assign(a, n, out);
		break;
	case N_COND:
		awk_eval(a, awk_eval_bool(a, n->a) ? n->b : n->c, out);
		break;
	case N_OR:
		val_num(out, awk_eval_bool(a, n->a) || awk_eval_bool(a, n->b) ? AWK_ONE : 0);
		break;
	case N_AND:
		val_num(out, awk_eval_bool(a, n->a) && awk_eval_bool(a, n->b) ? AWK_ONE : 0);
		break;
	case N_NOT:
		val_num(out, awk_eval_bool(a, n->a) ? 0 : AWK_ONE);
		break;
	case N_IN:
		eval_in(a, n, out);
		break;
	case N_MATCH:
		val_num(out, eval_match(a, n->a, n->b) == (n->op == '~') ? AWK_ONE : 0);
		break;
	case N_ARITH:
		eval_arith(a, n, out);
		break;
	case N_BINARY:
		eval_power(a, n, out);
		break;
	case N_CMP:
		eval_compare(a, n, out);
		break;
	case N_CONCAT:
		eval_concat(a, n->a, out);
		break;
	case N_NEG:
		val_num(out, -awk_eval_num(a, n->a));
		break;
	case N_PLUS:
		val_num(out, awk_eval_num(a, n->a));
		break;
	case N_INCDEC:
		eval_incdec(a, n, out);
		break;
	case N_CALL:
		awk_call(a, n, out);
		break;
	case N_BUILTIN:
		awk_builtin(a, n, out);
		break;
	case N_GETLINE:
		awk_getline(a, n, out);
		break;
	default:
		awk_error(a, "internal error: node %d in an expression", n->kind);
	}
}
