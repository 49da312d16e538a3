/*
 * awk's statements, and the run of a program: BEGIN rules, then each
 * record through the main rules (patterns, ranges), then END rules.
 * break, continue and return travel as awk_exec's result; next, nextfile,
 * exit and errors also set a->unwind, since they cross function calls.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_os.h>
#include <kernel/cmds/awk/awk.h>

void awk_set_num(struct awk *a, int slot, awk_num n)
{
	val_free(&a->globals[slot].val);
	val_num(&a->globals[slot].val, n);
}

void awk_set_str(struct awk *a, int slot, struct awk_str *s)
{
	val_free(&a->globals[slot].val);
	val_str(&a->globals[slot].val, s);
}

/* A loop's check between iterations: Ctrl-C or kill stops the program. */
static bool stopped(struct awk *a)
{
	if (!a->unwind && sh_os->interrupted()) {
		a->unwind = X_ERROR;
		a->status = 130;
	}
	return a->unwind;
}

static noinline int exec_print(struct awk *a, struct awk_node *s)
{
	struct sh_buf b = { 0 };
	struct sh_out *o = &a->out;
	struct awk_val v;
	struct awk_str *str;

	if (s->kind == S_PRINTF) {
		str = awk_eval_str(a, s->a);
		awk_format(a, &b, str->s, str->len, s->a->next);
		str_put(str);
	} else if (!s->a) {
		sh_buf_put(&b, a->record ? a->record->s : "", a->record ? a->record->len : 0);
	}
	for (struct awk_node *n = s->kind == S_PRINT ? s->a : NULL; n; n = n->next) {
		awk_eval(a, n, &v);
		str = val_tostr(a, &v, true);
		sh_buf_put(&b, str->s, str->len);
		str_put(str);
		val_free(&v);
		if (n->next) {
			str = val_tostr(a, &a->globals[V_OFS].val, false);
			sh_buf_put(&b, str->s, str->len);
			str_put(str);
		}
	}
	if (s->kind == S_PRINT) {
		str = val_tostr(a, &a->globals[V_ORS].val, false);
		sh_buf_put(&b, str->s, str->len);
		str_put(str);
	}
	if (s->op != R_NONE && !a->unwind) {
		str = awk_eval_str(a, s->b);
		o = awk_output(a, s->op, str);
		str_put(str);
	}
	if (b.oom)
		awk_error(a, "out of memory");
	if (o && !a->unwind) {
		out_put(o, b.s, b.len);
		/* A reader that went away ends the program quietly, as SIGPIPE would. */
		if (o->err == -EPIPE) {
			a->unwind = X_ERROR;
			a->status = 1;
		} else if (o->err) {
			awk_error(a, "write error: %s", errno_text(-o->err));
		}
	}
	sh_buf_free(&b);
	return a->unwind;
}

static bool cond_true(struct awk *a, struct awk_node *n)
{
	return !n || awk_eval_bool(a, n);
}

/* A loop body's result: true if the loop ends, with *x what the loop returns. */
static bool loop_ends(struct awk *a, int *x)
{
	if (*x == X_BREAK) {
		*x = X_NORMAL;
		return true;
	}
	if (*x != X_CONTINUE && *x != X_NORMAL)
		return true;
	if (!stopped(a)) {
		*x = X_NORMAL;
		return false;
	}
	*x = a->unwind;
	return true;
}

static noinline int exec_forin(struct awk *a, struct awk_node *s)
{
	struct awk_array *arr = awk_array_of(a, s->b);
	struct awk_str **keys;
	size_t n = 0;
	int x = X_NORMAL;

	if (!arr || !arr->count)
		return a->unwind;
	/* The keys as they are now: the body may add or delete elements. */
	keys = kmalloc(sizeof(*keys) * arr->count, GFP_KERNEL);
	if (!keys) {
		awk_error(a, "out of memory");
		return a->unwind;
	}
	for (struct awk_elem *e = arr->first; e; e = e->next)
		keys[n++] = str_get(e->key);
	for (size_t i = 0; i < n; i++) {
		struct awk_val v;

		if (!arr_lookup(a, arr, keys[i], false))
			continue;	/* deleted by the body */
		val_input(&v, str_get(keys[i]));
		awk_assign(a, s->a, &v);
		x = a->unwind ? a->unwind : awk_exec(a, s->c);
		if (loop_ends(a, &x))
			break;
	}
	for (size_t i = 0; i < n; i++)
		str_put(keys[i]);
	kfree(keys);
	return x;
}

static noinline int exec_expr(struct awk *a, struct awk_node *e)
{
	struct awk_val v;

	awk_eval(a, e, &v);
	val_free(&v);
	return a->unwind;
}

static noinline int exec_delete(struct awk *a, struct awk_node *s)
{
	struct awk_array *arr = awk_array_of(a, s->a);
	struct awk_str *key;

	if (!arr)
		return a->unwind;
	if (!s->b) {
		arr_clear(arr);
		return a->unwind;
	}
	key = awk_subscript(a, s->b);
	if (!a->unwind)
		arr_delete(arr, key);
	str_put(key);
	return a->unwind;
}

int awk_exec(struct awk *a, struct awk_node *s)
{
	int x = X_NORMAL;

	if (!s || a->unwind)
		return a->unwind;
	a->line = s->line;
	switch (s->kind) {
	case S_BLOCK:
		for (struct awk_node *c = s->a; c && !x; c = c->next)
			x = awk_exec(a, c);
		return x;
	case S_EXPR:
		return exec_expr(a, s->a);
	case S_PRINT:
	case S_PRINTF:
		return exec_print(a, s);
	case S_IF:
		x = cond_true(a, s->a);
		return a->unwind ? a->unwind : awk_exec(a, x ? s->b : s->c);
	case S_WHILE:
		while (cond_true(a, s->a) && !a->unwind) {
			x = awk_exec(a, s->b);
			if (loop_ends(a, &x))
				return x;
		}
		return a->unwind;
	case S_DO:
		do {
			x = awk_exec(a, s->b);
			if (loop_ends(a, &x))
				return x;
		} while (cond_true(a, s->a) && !a->unwind);
		return a->unwind;
	case S_FOR:
		for (x = awk_exec(a, s->a); !x && cond_true(a, s->b) && !a->unwind; x = awk_exec(a, s->c)) {
			x = awk_exec(a, s->d);
			if (loop_ends(a, &x))
				return x;
		}
		return a->unwind;
	case S_FORIN:
		return exec_forin(a, s);
	case S_NEXT:
		return a->unwind = X_NEXT;
	case S_NEXTFILE:
		return a->unwind = X_NEXTFILE;
	case S_EXIT:
		if (s->a)
			a->status = (int)(awk_num_to_int(awk_eval_num(a, s->a)) & 0xff);
		return a->unwind ? a->unwind : (a->unwind = X_EXIT);
	case S_RETURN:
		val_free(&a->retval);
		if (s->a)
			awk_eval(a, s->a, &a->retval);
		return a->unwind ? a->unwind : X_RETURN;
	case S_BREAK:
		return X_BREAK;
	case S_CONTINUE:
		return X_CONTINUE;
	case S_DELETE:
		return exec_delete(a, s);
	default:
		awk_error(a, "internal error: node %d as a statement", s->kind);
		return a->unwind;
	}
}

/* Does rule r select the current record? Ranges run from a match of pattern to one of pattern2. */
static bool rule_selects(struct awk *a, struct awk_rule *r)
{
	if (!r->pattern2)
		return cond_true(a, r->pattern);
	if (!r->in_range) {
		if (!cond_true(a, r->pattern) || a->unwind)
			return false;
		r->in_range = true;
	}
	if (cond_true(a, r->pattern2))
		r->in_range = false;
	return !a->unwind;
}

static void run_rules(struct awk *a, int kind)
{
	struct awk_rule *r;

	for (r = a->prog->rules; r && !a->unwind; r = r->next) {
		if (r->kind != kind || (kind == RULE_MAIN && !rule_selects(a, r)))
			continue;
		if (a->unwind)
			break;
		if (r->action) {
			awk_exec(a, r->action);
		} else {
			struct awk_node print = { .kind = S_PRINT };

			exec_print(a, &print);
		}
	}
	if (kind != RULE_MAIN && (a->unwind == X_NEXT || a->unwind == X_NEXTFILE)) {
		a->unwind = X_NORMAL;
		awk_error(a, "next or nextfile called from a BEGIN or END action");
	}
}

int awk_run(struct awk *a)
{
	run_rules(a, RULE_BEGIN);
	while (a->prog->has_main && !a->unwind) {
		struct awk_str *rec;
		int r = awk_main_record(a, &rec);

		if (r <= 0)
			break;
		rec_set(a, rec);
		run_rules(a, RULE_MAIN);
		if (a->unwind == X_NEXTFILE)
			awk_main_skip_file(a);
		if (a->unwind == X_NEXT || a->unwind == X_NEXTFILE)
			a->unwind = X_NORMAL;
		stopped(a);
	}
	if (a->unwind == X_EXIT || a->unwind == X_NORMAL) {
		a->unwind = X_NORMAL;
		run_rules(a, RULE_END);
	}
	return a->status;
}
