/*
 * Hist fields: compiling the operands of a trigger (event fields, special
 * fields, modifiers, constants, variable references and + - * /
 * expressions) into hist_field trees, evaluating them on a record, and
 * printing them back in canonical form.
 *
 * Expression grammar (Linux's, reproduced): the root operator is the
 * rightmost '-' or '+', else the rightmost '*' or '/', so * and / bind
 * tighter and equal precedence associates left; '-' at the very start with
 * '(' after it is unary minus, allowed only at the top. At most
 * HIST_SUBEXPR_MAX levels. Constant sub-expressions are folded.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/hist.h>

#define HIST_ERR(hd, id, token) \
	hist_err_id((hd)->err, id, hist_errpos((hd)->attrs, (token)))

/* Modifiers a use may carry: a value, a key, a variable. */
#define VAL_BAD_MODS	(HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_SYM | \
			 HIST_FIELD_FL_SYM_OFFSET | HIST_FIELD_FL_SYSCALL | \
			 HIST_FIELD_FL_STACKTRACE | HIST_FIELD_FL_EXECNAME)
#define KEY_BAD_MODS	(HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH)
#define VAR_BAD_MODS	(HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH | \
			 HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2)

const struct trace_event_field *hist_event_find_field(const struct hist_event *event,
						      const char *name)
{
	return trace_find_event_field(event->call, name);
}

static struct hist_field *alloc_field(struct hist_trigger_data *hd, unsigned long flags,
				      const char *type, unsigned int size)
{
	struct hist_field *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->flags = flags;
	f->hist_data = hd;
	f->size = size;
	f->type = kstrdup(type, GFP_KERNEL);
	if (!f->type) {
		kfree(f);
		return NULL;
	}
	return f;
}

void hist_field_destroy(struct hist_field *field)
{
	if (!field)
		return;
	/* References are shared; hd->var_refs[] holds the last count. */
	if ((field->flags & HIST_FIELD_FL_VAR_REF) && --field->refcnt)
		return;
	for (unsigned int i = 0; i < HIST_FIELD_OPERANDS_MAX; i++)
		hist_field_destroy(field->operands[i]);
	kfree(field->type);
	kfree(field->name);
	kfree(field->var.name);
	kfree(field->system);
	kfree(field->event_name);
	kfree(field);
}

static bool is_string_field(const struct trace_event_field *f)
{
	switch (f->filter_type) {
	case FILTER_STATIC_STRING:
	case FILTER_DYN_STRING:
	case FILTER_RDYN_STRING:
	case FILTER_PTR_STRING:
		return true;
	default:
		return false;
	}
}

/* --- atoms ---------------------------------------------------------------------------- */

/* Parse "name[.modifier]" into the field it names and the modifier flags. */
static int parse_modifier(struct hist_trigger_data *hd, char *mod, unsigned long *flags,
			  unsigned long *buckets)
{
	unsigned long long n;

	if (!strcmp(mod, "hex"))
		*flags |= HIST_FIELD_FL_HEX;
	else if (!strcmp(mod, "sym"))
		*flags |= HIST_FIELD_FL_SYM;
	else if (!strcmp(mod, "symXoffset"))
		*flags |= HIST_FIELD_FL_SYM_OFFSET;
	else if (!strcmp(mod, "execname"))
		*flags |= HIST_FIELD_FL_EXECNAME;
	else if (!strcmp(mod, "syscall"))
		*flags |= HIST_FIELD_FL_SYSCALL;
	else if (!strcmp(mod, "log2"))
		*flags |= HIST_FIELD_FL_LOG2;
	else if (!strcmp(mod, "usecs"))
		*flags |= HIST_FIELD_FL_TIMESTAMP_USECS;
	else if (!strcmp(mod, "percent"))
		*flags |= HIST_FIELD_FL_PERCENT;
	else if (!strcmp(mod, "graph"))
		*flags |= HIST_FIELD_FL_GRAPH;
	else if (!strcmp(mod, "stacktrace"))
		*flags |= HIST_FIELD_FL_STACKTRACE;
	else if ((!strncmp(mod, "buckets=", 8) && !kstrtoull(mod + 8, 0, &n) && n) ||
		 (!strncmp(mod, "bucket=", 7) && !kstrtoull(mod + 7, 0, &n) && n)) {
		*flags |= HIST_FIELD_FL_BUCKET;
		*buckets = (unsigned long)n;
	} else {
		HIST_ERR(hd, BAD_FIELD_MODIFIER, mod);
		return -EINVAL;
	}
	return 0;
}

/* Set how a field is read and its type/size from the event field or special name. */
static void set_field_source(struct hist_field *f, const struct trace_event_field *field)
{
	f->field = field;
	f->size = field->size;
	f->is_signed = field->is_signed;
	switch (field->filter_type) {
	case FILTER_STATIC_STRING:
		f->fn = HIST_FIELD_FN_STRING;
		f->flags |= HIST_FIELD_FL_STRING;
		/* a trailing char buf[] (ftrace:print) runs to the record's end */
		if (!f->size)
			f->size = MAX_FILTER_STR_VAL;
		break;
	case FILTER_DYN_STRING:
		f->fn = HIST_FIELD_FN_DYNSTRING;
		f->flags |= HIST_FIELD_FL_STRING;
		f->size = MAX_FILTER_STR_VAL;
		break;
	case FILTER_RDYN_STRING:
		f->fn = HIST_FIELD_FN_RELDYNSTRING;
		f->flags |= HIST_FIELD_FL_STRING;
		f->size = MAX_FILTER_STR_VAL;
		break;
	case FILTER_PTR_STRING:
		f->fn = HIST_FIELD_FN_PSTRING;
		f->flags |= HIST_FIELD_FL_STRING;
		f->size = MAX_FILTER_STR_VAL;
		break;
	default:
		f->fn = HIST_FIELD_FN_NUM;
		break;
	}
}

/* An event field or special field with its modifiers; log2/buckets wrap it. */
static struct hist_field *parse_field(struct hist_trigger_data *hd, char *str, unsigned long flags)
{
	const struct hist_event *ev = hd->event;
	const struct trace_event_field *field = NULL;
	unsigned long mods = 0, buckets = 0, use = flags & (HIST_FIELD_FL_KEY | HIST_FIELD_FL_VAR);
	char *dot = strchr(str, '.');
	struct hist_field *f, *wrap;
	const char *type = "u64";
	unsigned int size = 8;
	enum hist_field_fn fn = HIST_FIELD_FN_NOP;

	if (dot) {
		*dot = '\0';
		if (parse_modifier(hd, dot + 1, &mods, &buckets))
			return NULL;
	}

	if (!strcmp(str, "common_timestamp")) {
		mods |= HIST_FIELD_FL_TIMESTAMP;
		fn = HIST_FIELD_FN_TIMESTAMP;
		hd->enable_timestamps = true;
	} else if (!strcmp(str, "common_cpu") ||
		   ((!strcmp(str, "cpu") || !strcmp(str, "CPU")) && !hist_event_find_field(ev, str))) {
		mods |= HIST_FIELD_FL_CPU;
		fn = HIST_FIELD_FN_CPU;
		type = "unsigned int";
		size = 4;
	} else if (!strcmp(str, "common_comm") ||
		   ((!strcmp(str, "comm") || !strcmp(str, "COMM")) && !hist_event_find_field(ev, str))) {
		mods |= HIST_FIELD_FL_COMM | HIST_FIELD_FL_STRING;
		fn = HIST_FIELD_FN_COMM;
		type = "char[]";
		size = TASK_COMM_LEN;
	} else if (!strcmp(str, "common_stacktrace") || !strcmp(str, "stacktrace")) {
		mods |= HIST_FIELD_FL_STACKTRACE;
		fn = HIST_FIELD_FN_STACK;
		type = "unsigned long[]";
		size = HIST_STACKTRACE_SIZE;
	} else if (!strcmp(str, "hitcount") && !(flags & HIST_FIELD_FL_KEY)) {
		mods |= HIST_FIELD_FL_HITCOUNT;
		fn = HIST_FIELD_FN_COUNTER;
	} else {
		field = hist_event_find_field(ev, str);
		if (!field) {
			HIST_ERR(hd, FIELD_NOT_FOUND, str);
			return NULL;
		}
		type = field->type;
	}

	/*
	 * common_comm is Spoor's; Linux, which has no such field, answers a
	 * .log2 or .buckets on it "Couldn't find field" (EINVAL), and so does this.
	 */
	if ((mods & HIST_FIELD_FL_COMM) && (mods & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET))) {
		HIST_ERR(hd, FIELD_NOT_FOUND, str);
		return NULL;
	}
	/* Which modifiers make sense where. */
	if (((mods & HIST_FIELD_FL_EXECNAME) && strcmp(str, "common_pid")) ||
	    ((mods & HIST_FIELD_FL_TIMESTAMP_USECS) && !(mods & HIST_FIELD_FL_TIMESTAMP)) ||
	    ((mods & HIST_FIELD_FL_STACKTRACE) && !(fn == HIST_FIELD_FN_STACK ||
	      (field && !strncmp(field->type, "__data_loc unsigned long[]", 26)) ||
	      (field && !strncmp(field->type, "__data_loc long[]", 17)))) ||
	    ((mods & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)) && field && is_string_field(field)) ||
	    ((use & HIST_FIELD_FL_KEY) && (mods & KEY_BAD_MODS)) ||
	    ((use & HIST_FIELD_FL_VAR) && (mods & VAR_BAD_MODS)) ||
	    (!use && (mods & VAL_BAD_MODS)) ||
	    __builtin_popcountl(mods & (HIST_FIELD_FL_HEX | HIST_FIELD_FL_SYM |
					HIST_FIELD_FL_SYM_OFFSET | HIST_FIELD_FL_EXECNAME |
					HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_LOG2 |
					HIST_FIELD_FL_BUCKET)) > 1) {
		HIST_ERR(hd, BAD_FIELD_MODIFIER, dot ? dot + 1 : str);
		return NULL;
	}

	f = alloc_field(hd, mods & ~(HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET), type, size);
	if (!f)
		return NULL;
	if (field) {
		set_field_source(f, field);
	} else {
		f->fn = fn;
		f->is_signed = false;
	}
	if (!(mods & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)))
		return f;

	/* log2/buckets: a node computing the bucket from its operand. */
	wrap = alloc_field(hd, mods & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET), "u64", 8);
	if (!wrap) {
		hist_field_destroy(f);
		return NULL;
	}
	wrap->fn = (mods & HIST_FIELD_FL_LOG2) ? HIST_FIELD_FN_LOG2 : HIST_FIELD_FN_BUCKET;
	wrap->buckets = buckets;
	wrap->operands[0] = f;
	return wrap;
}

static struct hist_field *create_const(struct hist_trigger_data *hd, u64 value)
{
	struct hist_field *f = alloc_field(hd, HIST_FIELD_FL_CONST, "u64", 8);

	if (f) {
		f->fn = HIST_FIELD_FN_CONST;
		f->constant = value;
	}
	return f;
}

static struct hist_field *parse_const(struct hist_trigger_data *hd, char *str)
{
	unsigned long long v;

	if (strlen(str) > HIST_CONST_DIGITS_MAX || kstrtoull(str, 0, &v)) {
		HIST_ERR(hd, EXPECT_NUMBER, str);
		return NULL;
	}
	return create_const(hd, v);
}

struct hist_field *hist_find_var_field(struct hist_trigger_data *hd, const char *name)
{
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f && (f->flags & HIST_FIELD_FL_VAR) && f->var.name && !strcmp(f->var.name, name))
			return f;
	}
	for (unsigned int i = 0; i < hd->n_field_vars; i++)
		if (!strcmp(hd->field_vars[i]->var->var.name, name))
			return hd->field_vars[i]->var;
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		if (!strcmp(hd->save_vars[i]->var->var.name, name))
			return hd->save_vars[i]->var;
	return NULL;
}

struct hist_event *hist_find_event(struct hist_instance *inst, const char *system,
				   const char *name);

/*
 * The variable `name` as seen from hd: its own first, then every hist
 * trigger of the named event, or of any event (must then be unique).
 */
static struct hist_field *find_var(struct hist_trigger_data *hd, const char *system,
				   const char *event_name, const char *name, const char *token)
{
	struct hist_field *found = NULL, *var;
	struct hist_event *ev, *found_ev = NULL;
	struct hist_trigger_data *other;

	if (!system && (var = hist_find_var_field(hd, name)))
		return var;
	if (system) {
		ev = hist_find_event(hd->inst, system, event_name);
		if (!ev)
			goto not_found;
		if (ev == hd->event && (var = hist_find_var_field(hd, name)))
			return var;
		list_for_each_entry(other, &ev->triggers, list)
			if ((var = hist_find_var_field(other, name)))
				return var;
		goto not_found;
	}
	list_for_each_entry(ev, &hd->inst->events, list) {
		list_for_each_entry(other, &ev->triggers, list) {
			var = hist_find_var_field(other, name);
			if (!var)
				continue;
			if (found && found_ev != ev) {
				HIST_ERR(hd, VAR_NOT_UNIQUE, token);
				return NULL;
			}
			found = var;
			found_ev = ev;
		}
	}
	if (found)
		return found;
not_found:
	HIST_ERR(hd, VAR_NOT_FOUND, token);
	return NULL;
}

struct hist_field *hist_create_var_ref(struct hist_trigger_data *hd, struct hist_field *var,
				       const char *system, const char *event_name)
{
	struct hist_field *ref;

	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		ref = hd->var_refs[i];
		if (ref->var.hist_data == var->hist_data && ref->var.idx == var->var.idx) {
			ref->refcnt++;
			return ref;
		}
	}
	if (hd->n_var_refs == TRACING_MAP_VARS_MAX) {
		hist_err_id(hd->err, TOO_MANY_VARS, 0);
		return NULL;
	}
	ref = alloc_field(hd, HIST_FIELD_FL_VAR_REF |
			  (var->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE |
					 HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS |
					 HIST_FIELD_FL_EXECNAME | HIST_FIELD_FL_COMM)),
			  var->type, var->size);
	if (!ref)
		return NULL;
	ref->fn = HIST_FIELD_FN_VAR_REF;
	ref->is_signed = var->is_signed;
	ref->var.hist_data = var->hist_data;
	ref->var.idx = var->var.idx;
	ref->name = kstrdup(var->var.name, GFP_KERNEL);
	if (system) {
		ref->system = kstrdup(system, GFP_KERNEL);
		ref->event_name = kstrdup(event_name, GFP_KERNEL);
	}
	/* one count for var_refs[], one for the caller */
	ref->refcnt = 2;
	ref->var_ref_idx = hd->n_var_refs;
	hd->var_refs[hd->n_var_refs++] = ref;
	return ref;
}

/* "$name" or "system.event.$name". */
static struct hist_field *parse_var_ref(struct hist_trigger_data *hd, char *str,
					unsigned long flags, unsigned int level)
{
	char *dollar = strchr(str, '$'), *system = NULL, *event_name = NULL, *name = dollar + 1;
	struct hist_field *var;

	if (dollar != str) {
		char *dot1 = strchr(str, '.'), *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;

		if (!dot1 || !dot2 || dot2 + 1 != dollar || dot1 == str || dot2 == dot1 + 1) {
			HIST_ERR(hd, VAR_NOT_FOUND, str);
			return NULL;
		}
		*dot1 = *dot2 = '\0';
		system = str;
		event_name = dot1 + 1;
	}
	if (flags & HIST_FIELD_FL_KEY) {
		/* A key may name this trigger's own variable of a plain field: use the field. */
		for (unsigned int i = 0; !system && i < hd->attrs->n_var_defs; i++) {
			const struct var_def *d = &hd->attrs->var_defs[i];

			if (!strcmp(d->name, name) && d->expr[strcspn(d->expr, "$+-*/")] == '\0') {
				char *copy = kstrdup(d->expr, GFP_KERNEL);
				struct hist_field *f;

				if (!copy)
					return NULL;
				f = parse_field(hd, copy, flags);
				kfree(copy);
				return f;
			}
		}
		HIST_ERR(hd, INVALID_REF_KEY, str);
		return NULL;
	}
	var = find_var(hd, system, event_name, name, system ? system : str);
	if (!var)
		return NULL;
	return hist_create_var_ref(hd, var, system, event_name);
}

static struct hist_field *parse_atom(struct hist_trigger_data *hd, char *str, unsigned long flags,
				     unsigned int level)
{
	if (strchr(str, '$'))
		return parse_var_ref(hd, str, flags, level);
	if (*str >= '0' && *str <= '9')
		return parse_const(hd, str);
	return parse_field(hd, str, flags);
}

/* --- expressions ---------------------------------------------------------------------- */

/* The root operator of str and where it is. */
static enum hist_field_op find_operator(char *str, char **sep)
{
	char *minus = strrchr(str, '-'), *plus = strrchr(str, '+');
	char *div, *mult;

	if (minus == str) {
		/* "-(...)": always the root, whatever follows (parse_unary checks) */
		*sep = minus;
		return FIELD_OP_UNARY_MINUS;
	}
	if (minus || plus) {
		*sep = plus > minus ? plus : minus;
		return plus > minus ? FIELD_OP_PLUS : FIELD_OP_MINUS;
	}
	div = strrchr(str, '/');
	mult = strrchr(str, '*');
	if (!div && !mult)
		return FIELD_OP_NONE;
	if (div > mult) {
		*sep = div;
		return FIELD_OP_DIV;
	}
	*sep = mult;
	return FIELD_OP_MULT;
}

/*
 * x / d for a constant d, with Linux's arithmetic so results match it: a
 * power of two shifts; another d up to 2^20 multiplies by 2^20 / d and
 * shifts back, rounding up, when x < 2^20 (10/3 gives 4, as on Linux);
 * anything else divides.
 */
static u64 div_by_mult_and_shift(u64 x, u64 mult, u64 d)
{
	if (x < (1UL << HIST_DIV_SHIFT))
		return (x * mult + (1UL << HIST_DIV_SHIFT) - 1) >> HIST_DIV_SHIFT;
	return x / d;
}

static u64 div_by_const(u64 x, u64 d)
{
	if (!d)
		return (u64)-1;
	if (!(d & (d - 1)))
		return x >> __builtin_ctzl(d);
	if (d <= (1UL << HIST_DIV_SHIFT))
		return div_by_mult_and_shift(x, (1UL << HIST_DIV_SHIFT) / d, d);
	return x / d;
}

/* Both operands constant: the value the expression would compute. */
static u64 fold(enum hist_field_op op, u64 a, u64 b)
{
	switch (op) {
	case FIELD_OP_PLUS: return a + b;
	case FIELD_OP_MINUS: return a - b;
	case FIELD_OP_MULT: return a * b;
	case FIELD_OP_DIV: return div_by_const(a, b);
	default: return 0;
	}
}

static unsigned long ts_flags(const struct hist_field *f)
{
	if (f->flags & HIST_FIELD_FL_VAR_REF)
		return f->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	return f->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
}

static struct hist_field *parse_unary(struct hist_trigger_data *hd, char *str,
				      unsigned long flags, unsigned int level)
{
	char *close = strrchr(str, ')');
	struct hist_field *operand, *expr;

	if (level > 0 || (close && close[1])) {
		/* the caret goes inside the parenthesis, as Linux's selftest expects */
		HIST_ERR(hd, UNARY_MINUS_SUBEXPR, str + 1 + (str[1] == '('));
		return NULL;
	}
	if (str[1] != '(' || !close) {
		hist_err(hd->err, -EINVAL, "Unary minus needs -(expression)", hist_errpos(hd->attrs, str));
		return NULL;
	}
	*close = '\0';
	operand = hist_parse_expr(hd, str + 2, flags & ~(HIST_FIELD_FL_VAR | HIST_FIELD_FL_KEY),
				  NULL, level + 1);
	if (!operand)
		return NULL;
	if (operand->flags & HIST_FIELD_FL_STRING) {
		HIST_ERR(hd, INVALID_STR_OPERAND, str + 2);
		hist_field_destroy(operand);
		return NULL;
	}
	if (operand->flags & HIST_FIELD_FL_CONST) {
		operand->constant = -operand->constant;
		return operand;
	}
	if (operand->flags & HIST_FIELD_FL_VAR_REF)
		operand->read_once = true;
	expr = alloc_field(hd, HIST_FIELD_FL_EXPR | ts_flags(operand), operand->type, operand->size);
	if (!expr) {
		hist_field_destroy(operand);
		return NULL;
	}
	expr->fn = HIST_FIELD_FN_UMINUS;
	expr->op = FIELD_OP_UNARY_MINUS;
	expr->is_signed = operand->is_signed;
	expr->operands[0] = operand;
	return expr;
}

static struct hist_field *parse_binary(struct hist_trigger_data *hd, char *str, char *sep,
				       enum hist_field_op op, unsigned long flags, unsigned int level)
{
	unsigned long operand_flags = flags & ~(HIST_FIELD_FL_VAR | HIST_FIELD_FL_KEY);
	struct hist_field *a = NULL, *b = NULL, *expr;
	char *rhs = sep + 1;

	if (sep == str || !*rhs) {
		hist_err(hd->err, -EINVAL, "Missing operand", hist_errpos(hd->attrs, sep));
		return NULL;
	}
	*sep = '\0';
	a = hist_parse_expr(hd, str, operand_flags, NULL, level + 1);
	if (!a)
		return NULL;
	b = hist_parse_expr(hd, rhs, operand_flags, NULL, level + 1);
	if (!b)
		goto fail;
	if ((a->flags | b->flags) & HIST_FIELD_FL_STRING) {
		HIST_ERR(hd, INVALID_STR_OPERAND, (a->flags & HIST_FIELD_FL_STRING) ? str : rhs);
		goto fail;
	}
	if ((ts_flags(a) & HIST_FIELD_FL_TIMESTAMP) && (ts_flags(b) & HIST_FIELD_FL_TIMESTAMP) &&
	    ts_flags(a) != ts_flags(b)) {
		HIST_ERR(hd, TIMESTAMP_MISMATCH, str);
		goto fail;
	}
	if (op == FIELD_OP_DIV && (b->flags & HIST_FIELD_FL_CONST) && !b->constant) {
		HIST_ERR(hd, DIVISION_BY_ZERO, rhs);
		goto fail;
	}
	if ((a->flags & HIST_FIELD_FL_CONST) && (b->flags & HIST_FIELD_FL_CONST)) {
		a->constant = fold(op, a->constant, b->constant);
		hist_field_destroy(b);
		return a;
	}
	expr = alloc_field(hd, HIST_FIELD_FL_EXPR | ts_flags(a) | ts_flags(b), a->type, a->size);
	if (!expr)
		goto fail;
	expr->op = op;
	expr->is_signed = a->is_signed;
	expr->operands[0] = a;
	expr->operands[1] = b;
	switch (op) {
	case FIELD_OP_PLUS: expr->fn = HIST_FIELD_FN_PLUS; break;
	case FIELD_OP_MINUS: expr->fn = HIST_FIELD_FN_MINUS; break;
	case FIELD_OP_MULT: expr->fn = HIST_FIELD_FN_MULT; break;
	default:
		expr->fn = HIST_FIELD_FN_DIV;
		if ((b->flags & HIST_FIELD_FL_CONST) && !(b->constant & (b->constant - 1))) {
			expr->fn = HIST_FIELD_FN_DIV_POWER2;
			expr->constant = (u64)__builtin_ctzl(b->constant);
		} else if ((b->flags & HIST_FIELD_FL_CONST) && b->constant <= (1UL << HIST_DIV_SHIFT)) {
			expr->fn = HIST_FIELD_FN_DIV_MULT_SHIFT;
			expr->constant = (1UL << HIST_DIV_SHIFT) / b->constant;
		}
		break;
	}
	if (a->flags & HIST_FIELD_FL_VAR_REF)
		a->read_once = true;
	if (b->flags & HIST_FIELD_FL_VAR_REF)
		b->read_once = true;
	return expr;
fail:
	hist_field_destroy(a);
	hist_field_destroy(b);
	return NULL;
}

struct hist_field *hist_parse_expr(struct hist_trigger_data *hd, char *str,
				   unsigned long flags, const char *var_name, unsigned int level)
{
	struct hist_field *f;
	enum hist_field_op op;
	char *sep = NULL;

	if (level > HIST_SUBEXPR_MAX) {
		HIST_ERR(hd, TOO_MANY_SUBEXPR, str);
		return NULL;
	}
	if (!*str) {
		hist_err(hd->err, -EINVAL, "Empty field", hist_errpos(hd->attrs, str));
		return NULL;
	}
	op = find_operator(str, &sep);
	if (op == FIELD_OP_NONE)
		f = parse_atom(hd, str, flags, level);
	else if (op == FIELD_OP_UNARY_MINUS)
		f = parse_unary(hd, str, flags, level);
	else
		f = parse_binary(hd, str, sep, op, flags, level);
	if (!f || !var_name)
		return f;

	/* A variable: a reference alone becomes an alias of the variable it names. */
	if (f->flags & HIST_FIELD_FL_VAR_REF) {
		struct hist_field *alias = alloc_field(hd, HIST_FIELD_FL_VAR | HIST_FIELD_FL_ALIAS |
						       ts_flags(f), f->type, f->size);

		if (!alias) {
			hist_field_destroy(f);
			return NULL;
		}
		alias->fn = HIST_FIELD_FN_ALIAS;
		alias->operands[0] = f;
		f = alias;
	}
	f->flags |= HIST_FIELD_FL_VAR;
	f->var.name = kstrdup(var_name, GFP_KERNEL);
	f->var.hist_data = hd;
	if (!f->var.name) {
		hist_field_destroy(f);
		return NULL;
	}
	return f;
}

/* --- evaluation ------------------------------------------------------------------------ */

static u64 read_num(const void *p, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? (u64)(s64)*(const s8 *)p : *(const u8 *)p;
	case 2: { u16 v; __builtin_memcpy(&v, p, 2); return is_signed ? (u64)(s64)(s16)v : v; }
	case 4: { u32 v; __builtin_memcpy(&v, p, 4); return is_signed ? (u64)(s64)(s32)v : v; }
	case 8: { u64 v; __builtin_memcpy(&v, p, 8); return v; }
	default: return 0;
	}
}

/* ilog2(roundup_pow_of_two(v)): the .log2 bucket; 0 and 1 fall in bucket 0. */
static unsigned int ilog2_roundup_u64(u64 v)
{
	return v <= 1 ? 0 : 64 - (unsigned int)__builtin_clzl(v - 1);
}

u64 hist_field_eval(struct hist_field *f, const struct hist_event_ctx *ctx,
		    const u64 *var_ref_vals)
{
	const char *rec = ctx->rec, *at = f->field ? rec + f->field->offset : rec;
	u64 a, b;

	switch (f->fn) {
	case HIST_FIELD_FN_COUNTER: return 1;
	case HIST_FIELD_FN_CONST: return f->constant;
	case HIST_FIELD_FN_NUM: return read_num(at, f->field->size, f->is_signed);
	case HIST_FIELD_FN_STRING: return (u64)(uptr)at;
	case HIST_FIELD_FN_DYNSTRING: {
		u32 loc = (u32)read_num(at, 4, false);

		return (u64)(uptr)(rec + (loc & 0xffff));
	}
	case HIST_FIELD_FN_RELDYNSTRING: {
		u32 loc = (u32)read_num(at, 4, false);

		return (u64)(uptr)(at + 4 + (loc & 0xffff));
	}
	case HIST_FIELD_FN_PSTRING: return read_num(at, 8, false);
	case HIST_FIELD_FN_TIMESTAMP:
		return (f->flags & HIST_FIELD_FL_TIMESTAMP_USECS) ? ctx->ts / 1000 : ctx->ts;
	case HIST_FIELD_FN_CPU: return ctx->cpu;
	case HIST_FIELD_FN_COMM: return (u64)(uptr)(ctx->comm ? ctx->comm : "");
	case HIST_FIELD_FN_STACK: return (u64)(uptr)ctx->stack;
	case HIST_FIELD_FN_LOG2: return ilog2_roundup_u64(hist_field_value(f->operands[0], ctx, var_ref_vals));
	case HIST_FIELD_FN_BUCKET:
		a = hist_field_value(f->operands[0], ctx, var_ref_vals);
		return a - a % f->buckets;
	case HIST_FIELD_FN_VAR_REF: return var_ref_vals[f->var_ref_idx];
	case HIST_FIELD_FN_ALIAS: return hist_field_value(f->operands[0], ctx, var_ref_vals);
	case HIST_FIELD_FN_UMINUS: return -hist_field_value(f->operands[0], ctx, var_ref_vals);
	default: break;
	}
	a = hist_field_value(f->operands[0], ctx, var_ref_vals);
	b = hist_field_value(f->operands[1], ctx, var_ref_vals);
	switch (f->fn) {
	case HIST_FIELD_FN_PLUS: return a + b;
	case HIST_FIELD_FN_MINUS: return a - b;
	case HIST_FIELD_FN_MULT: return a * b;
	case HIST_FIELD_FN_DIV: return b ? a / b : (u64)-1;
	case HIST_FIELD_FN_DIV_POWER2: return a >> f->constant;
	case HIST_FIELD_FN_DIV_MULT_SHIFT: return div_by_mult_and_shift(a, f->constant, b);
	default: return 0;
	}
}

/* --- printing ------------------------------------------------------------------------- */

const char *hist_field_name(const struct hist_field *f)
{
	if (f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_ALIAS))
		return hist_field_name(f->operands[0]);
	if (f->field)
		return f->field->name;
	if (f->flags & HIST_FIELD_FL_HITCOUNT)
		return "hitcount";
	if (f->flags & HIST_FIELD_FL_TIMESTAMP)
		return "common_timestamp";
	if (f->flags & HIST_FIELD_FL_CPU)
		return "common_cpu";
	if (f->flags & HIST_FIELD_FL_COMM)
		return "common_comm";
	if (f->flags & HIST_FIELD_FL_STACKTRACE)
		return "common_stacktrace";
	if (f->flags & HIST_FIELD_FL_VAR_REF)
		return f->name;
	if (f->flags & HIST_FIELD_FL_VAR)
		return f->var.name;
	return "";
}

static int print_modifiers(char *buf, size_t size, const struct hist_field *f, unsigned long flags)
{
	static const struct { unsigned long flag; const char *text; } mods[] = {
		{ HIST_FIELD_FL_HEX, ".hex" },
		{ HIST_FIELD_FL_SYM, ".sym" },
		{ HIST_FIELD_FL_SYM_OFFSET, ".sym-offset" },
		{ HIST_FIELD_FL_EXECNAME, ".execname" },
		{ HIST_FIELD_FL_SYSCALL, ".syscall" },
		{ HIST_FIELD_FL_LOG2, ".log2" },
		{ HIST_FIELD_FL_TIMESTAMP_USECS, ".usecs" },
		{ HIST_FIELD_FL_PERCENT, ".percent" },
		{ HIST_FIELD_FL_GRAPH, ".graph" },
		{ HIST_FIELD_FL_STACKTRACE, ".stacktrace" },
	};
	int n = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(mods); i++) {
		if (!(flags & mods[i].flag))
			continue;
		/* common_stacktrace says it all by its name */
		if (mods[i].flag == HIST_FIELD_FL_STACKTRACE && f->fn == HIST_FIELD_FN_STACK)
			continue;
		n += scnprintf(buf + n, size - n, "%s", mods[i].text);
	}
	if (flags & HIST_FIELD_FL_BUCKET)
		n += scnprintf(buf + n, size - n, ".buckets=%lu", f->buckets);
	return n;
}

static int print_operand(char *buf, size_t size, const struct hist_field *f)
{
	static const char ops[] = { [FIELD_OP_PLUS] = '+', [FIELD_OP_MINUS] = '-',
				    [FIELD_OP_DIV] = '/', [FIELD_OP_MULT] = '*' };
	int n = 0;

	if (f->flags & HIST_FIELD_FL_CONST)
		return scnprintf(buf, size, "%lu", (unsigned long)f->constant);
	if (f->flags & HIST_FIELD_FL_VAR_REF) {
		if (f->system)
			return scnprintf(buf, size, "%s.%s.$%s", f->system, f->event_name, f->name);
		return scnprintf(buf, size, "$%s", f->name);
	}
	if (f->flags & HIST_FIELD_FL_ALIAS)
		return print_operand(buf, size, f->operands[0]);
	if (f->flags & HIST_FIELD_FL_EXPR) {
		if (f->op == FIELD_OP_UNARY_MINUS) {
			n = scnprintf(buf, size, "-(");
			n += print_operand(buf + n, size - n, f->operands[0]);
			return n + scnprintf(buf + n, size - n, ")");
		}
		n = print_operand(buf, size, f->operands[0]);
		n += scnprintf(buf + n, size - n, "%c", ops[f->op]);
		return n + print_operand(buf + n, size - n, f->operands[1]);
	}
	if (f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)) {
		n = print_operand(buf, size, f->operands[0]);
		return n + print_modifiers(buf + n, size - n, f, f->flags);
	}
	n = scnprintf(buf, size, "%s", hist_field_name(f));
	return n + print_modifiers(buf + n, size - n, f, f->flags);
}

int hist_field_print(char *buf, size_t size, const struct hist_field *f)
{
	int n = 0;

	if (f->flags & HIST_FIELD_FL_VAR)
		n = scnprintf(buf, size, "%s=", f->var.name);
	return n + print_operand(buf + n, size - n, f);
}

struct hist_field *hist_parse_expr_copy(struct hist_trigger_data *hd, const char *text,
					unsigned long flags, const char *var_name)
{
	struct hist_trigger_attrs *attrs = hd->attrs;
	char *copy = kstrdup(text, GFP_KERNEL);
	struct hist_field *f;

	if (!copy)
		return NULL;
	attrs->shadow = copy;
	attrs->shadow_of = text;
	attrs->shadow_len = strlen(copy);
	f = hist_parse_expr(hd, copy, flags, var_name, 0);
	attrs->shadow = NULL;
	kfree(copy);
	return f;
}
