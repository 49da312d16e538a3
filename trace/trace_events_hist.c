/*
 * Hist triggers: compiling a parsed trigger into a histogram on its event,
 * registering and removing it (with pause/cont/clear on an existing one),
 * printing its canonical trigger text, and updating it on every event.
 *
 * Build order (Linux's): actions (syntax), variable definitions, values
 * with hitcount first, variables, keys, sort keys and the filter; then the
 * command is matched against the event's triggers (removal, pause, cont,
 * clear, duplicates), and only a trigger about to be added gets its
 * actions (which may create histograms on other events) and its
 * tracing_map (or the shared one of its name=).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/hist.h>
#include <trace/trace_events_hist.h>
#include <trace/trace_filter.h>

#define HIST_ERR(hd, id, token) \
	hist_err_id((hd)->err, id, hist_errpos((hd)->attrs, (token)))

void hist_instance_init(struct hist_instance *inst)
{
	memset(inst, 0, sizeof(*inst));
	INIT_LIST_HEAD(&inst->events);
	INIT_LIST_HEAD(&inst->named);
}

void hist_event_init(struct hist_event *ev, const struct trace_event_call *call)
{
	memset(ev, 0, sizeof(*ev));
	ev->system = call->system;
	ev->name = call->name;
	ev->call = call;
	INIT_LIST_HEAD(&ev->triggers);
	INIT_LIST_HEAD(&ev->list);
}

struct hist_event *hist_find_event(struct hist_instance *inst, const char *system,
				   const char *name)
{
	struct hist_event *ev;

	list_for_each_entry(ev, &inst->events, list)
		if (!strcmp(ev->system, system) && !strcmp(ev->name, name))
			return ev;
	return NULL;
}

/* --- per-element private data ---------------------------------------------------------- */

/* What an element keeps beside its sums: the comm for .execname and string variables. */
struct hist_elt_data {
	char comm[TASK_COMM_LEN];
	char strs[][STR_VAR_LEN_MAX];
};

static int hist_elt_alloc(struct tracing_map_elt *elt)
{
	struct hist_trigger_data *hd = elt->map->private_data;

	elt->private_data = kzalloc(sizeof(struct hist_elt_data) +
				    hd->n_var_str * STR_VAR_LEN_MAX, GFP_KERNEL);
	return elt->private_data ? 0 : -ENOMEM;
}

static void hist_elt_free(struct tracing_map_elt *elt)
{
	kfree(elt->private_data);
}

static void hist_elt_clear(struct tracing_map_elt *elt)
{
	struct hist_trigger_data *hd = elt->map->private_data;

	memset(elt->private_data, 0, sizeof(struct hist_elt_data) + hd->n_var_str * STR_VAR_LEN_MAX);
}

static const struct tracing_map_ops hist_map_ops = {
	.elt_alloc = hist_elt_alloc,
	.elt_free = hist_elt_free,
	.elt_clear = hist_elt_clear,
};

/* --- teardown ---------------------------------------------------------------------------- */

static void destroy_field_var(struct field_var *fv)
{
	if (!fv)
		return;
	hist_field_destroy(fv->var);
	kfree(fv);
}

void hist_trigger_data_free(struct hist_trigger_data *hd)
{
	if (!hd)
		return;
	for (unsigned int i = 0; i < hd->n_fields; i++)
		hist_field_destroy(hd->fields[i]);
	for (unsigned int i = 0; i < hd->n_field_vars; i++)
		destroy_field_var(hd->field_vars[i]);
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		destroy_field_var(hd->save_vars[i]);
	for (unsigned int i = 0; i < hd->n_actions; i++)
		hist_actions_destroy_one(hd, hd->actions[i]);
	/* var_refs[] holds the last count of every reference */
	for (unsigned int i = 0; i < hd->n_var_refs; i++)
		hist_field_destroy(hd->var_refs[i]);
	for (unsigned int i = 0; i < hd->n_field_var_hists; i++) {
		kfree(hd->field_var_hists[i]->cmd);
		kfree(hd->field_var_hists[i]);
	}
	if (!hd->named_data)
		tracing_map_destroy(hd->map);
	if (hd->attrs) {
		hist_attrs_free(hd->attrs);
		kfree(hd->attrs);
	}
	filter_free(hd->filter);
	kfree(hd->filter_str);
	kfree(hd->snapshot_key);
	kfree(hd);
}

/* --- building ------------------------------------------------------------------------------ */

/* Split a comma list in place; returns the count or -1 if more than max. */
static int split_list(char *s, char **items, int max)
{
	int n = 0;

	while (s) {
		char *comma = strchr(s, ',');

		if (n == max)
			return -1;
		items[n++] = s;
		if (comma)
			*comma = '\0';
		s = comma ? comma + 1 : NULL;
	}
	return n;
}

static int add_field(struct hist_trigger_data *hd, struct hist_field *f)
{
	if (hd->n_fields == HIST_FIELDS_MAX) {
		hist_field_destroy(f);
		hist_err(hd->err, -EINVAL, "Too many hist fields", 0);
		return -EINVAL;
	}
	hd->fields[hd->n_fields++] = f;
	return 0;
}

static int create_hitcount(struct hist_trigger_data *hd)
{
	char name[] = "hitcount";
	struct hist_field *f = hist_parse_expr(hd, name, 0, NULL, 0);

	return f ? add_field(hd, f) : -ENOMEM;
}

static int create_vals(struct hist_trigger_data *hd)
{
	char *items[TRACING_MAP_VALS_MAX + 1];
	int n, ret;

	ret = create_hitcount(hd);
	if (ret || !hd->attrs->vals_str)
		return ret;
	n = split_list(hd->attrs->vals_str, items, (int)ARRAY_SIZE(items));
	for (int i = 0; i < n || n < 0; i++) {
		struct hist_field *f;

		if (n < 0 || hd->n_vals == TRACING_MAP_VALS_MAX) {
			/* A trailing plain hitcount is tolerated. */
			if (n >= 0 && !strcmp(items[i], "hitcount") && i == n - 1)
				break;
			hist_err(hd->err, -EINVAL, "Too many values (hitcount + 2 max)",
				 n < 0 ? 0 : hist_errpos(hd->attrs, items[i]));
			return -EINVAL;
		}
		if (!strcmp(items[i], "hitcount"))
			continue;
		f = hist_parse_expr(hd, items[i], 0, NULL, 0);
		if (!f)
			return -EINVAL;
		if (f->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE)) {
			hist_field_destroy(f);
			hist_err(hd->err, -EINVAL, "String type can not be a value",
				 hist_errpos(hd->attrs, items[i]));
			return -EINVAL;
		}
		ret = add_field(hd, f);
		if (ret)
			return ret;
		hd->n_vals++;
	}
	return 0;
}

static bool var_defined_on_event(struct hist_trigger_data *hd, const char *name)
{
	struct hist_trigger_data *other;

	list_for_each_entry(other, &hd->event->triggers, list)
		if (hist_find_var_field(other, name))
			return true;
	return false;
}

/* Give a variable its tracing_map slot (and a string buffer if it holds text). */
int hist_assign_var(struct hist_trigger_data *hd, struct hist_field *var)
{
	if (hd->n_vars == TRACING_MAP_VARS_MAX) {
		hist_err_id(hd->err, TOO_MANY_VARS, 0);
		return -EINVAL;
	}
	var->var.idx = hd->n_vars++;
	if (var->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE | HIST_FIELD_FL_EXECNAME)) {
		if (hd->n_var_str == SYNTH_FIELDS_MAX) {
			hist_err_id(hd->err, TOO_MANY_VARS, 0);
			return -EINVAL;
		}
		var->var_str_idx = hd->n_var_str++;
	}
	return 0;
}

static int create_vars(struct hist_trigger_data *hd)
{
	struct hist_trigger_attrs *attrs = hd->attrs;

	for (unsigned int i = 0; i < attrs->n_var_defs; i++) {
		struct var_def *d = &attrs->var_defs[i];
		struct hist_field *f;
		int ret;

		if (!attrs->remove && var_defined_on_event(hd, d->name)) {
			HIST_ERR(hd, DUPLICATE_VAR, d->name);
			return -EINVAL;
		}
		f = hist_parse_expr(hd, d->expr, HIST_FIELD_FL_VAR, d->name, 0);
		if (!f)
			return -EINVAL;
		if (f->flags & HIST_FIELD_FL_EXECNAME) {
			kfree(f->type);
			f->type = kstrdup("char[]", GFP_KERNEL);
			f->size = MAX_FILTER_STR_VAL;
		}
		ret = add_field(hd, f);
		if (!ret)
			ret = hist_assign_var(hd, f);
		if (ret)
			return ret;
		hd->n_vals++;
	}
	return 0;
}

static bool has_var_ref(const struct hist_field *f)
{
	if (!f)
		return false;
	if (f->flags & HIST_FIELD_FL_VAR_REF)
		return true;
	return has_var_ref(f->operands[0]) || has_var_ref(f->operands[1]);
}

static int create_keys(struct hist_trigger_data *hd)
{
	char *items[TRACING_MAP_KEYS_MAX + 1];
	int n = split_list(hd->attrs->keys_str, items, (int)ARRAY_SIZE(items));

	if (n < 0 || n > TRACING_MAP_KEYS_MAX) {
		hist_err(hd->err, -EINVAL, "Too many keys (3 max)",
			 n < 0 ? 0 : hist_errpos(hd->attrs, items[TRACING_MAP_KEYS_MAX]));
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		struct hist_field *f = hist_parse_expr(hd, items[i], HIST_FIELD_FL_KEY, NULL, 0);
		unsigned int size;
		int ret;

		if (!f)
			return -EINVAL;
		if (has_var_ref(f)) {
			hist_field_destroy(f);
			HIST_ERR(hd, INVALID_REF_KEY, items[i]);
			return -EINVAL;
		}
		f->flags |= HIST_FIELD_FL_KEY;
		size = (f->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE)) ? f->size : 8;
		f->size = size;
		f->offset = hd->key_size;
		hd->key_size += ALIGN_UP(size, 8);
		ret = add_field(hd, f);
		if (ret)
			return ret;
		hd->n_keys++;
		if (hd->key_size > HIST_KEY_SIZE_MAX) {
			hist_err(hd->err, -EINVAL, "Key too large (384 bytes max)",
				 hist_errpos(hd->attrs, items[i]));
			return -EINVAL;
		}
	}
	return 0;
}

/* The field a sort item names: hitcount, a key or a value (not a variable). */
static int find_sort_field(struct hist_trigger_data *hd, const char *name)
{
	if (!strcmp(name, "hitcount"))
		return 0;
	for (unsigned int i = 1; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (!(f->flags & HIST_FIELD_FL_VAR) && !strcmp(hist_field_name(f), name))
			return (int)i;
	}
	return -1;
}

/* A key or value named with its modifiers, as the trigger prints it. */
static int find_sort_field_printed(struct hist_trigger_data *hd, const char *text)
{
	char buf[128];

	for (unsigned int i = 1; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_VAR)
			continue;
		hist_field_print(buf, sizeof(buf), f);
		if (!strcmp(buf, text))
			return (int)i;
	}
	return -1;
}

/* The tracing_map field of hd->fields[i]: variables have none, so count the others. */
static unsigned int map_field_index(const struct hist_trigger_data *hd, unsigned int i)
{
	unsigned int n = 0;

	for (unsigned int j = 0; j < i; j++)
		n += !(hd->fields[j]->flags & HIST_FIELD_FL_VAR);
	return n;
}

static int create_sort_keys(struct hist_trigger_data *hd)
{
	char *items[TRACING_MAP_SORT_KEYS_MAX + 1];
	int n;

	if (!hd->attrs->sort_key_str) {
		hd->n_sort_keys = 1;	/* hitcount ascending */
		return 0;
	}
	n = split_list(hd->attrs->sort_key_str, items, (int)ARRAY_SIZE(items));
	if (n < 0 || n > TRACING_MAP_SORT_KEYS_MAX) {
		/* the caret under "sort=" itself, like Linux's errpos("sort=") */
		HIST_ERR(hd, TOO_MANY_SORT_FIELDS, hd->attrs->sort_key_str - 5);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		char *name = items[i], *dot = strchr(name, '.');
		bool descending = false;
		int idx;

		if (!*name) {
			HIST_ERR(hd, EMPTY_SORT_FIELD, hd->attrs->sort_key_str - 5);
			return -EINVAL;
		}
		if (dot) {
			char *dir = strrchr(name, '.');

			if (!strcmp(dir + 1, "descending") || !strcmp(dir + 1, "ascending")) {
				descending = dir[1] == 'd';
				*dir = '\0';
			}
			/* What is left may carry the key's own modifier (id.syscall). */
			dot = strchr(name, '.');
			if (dot) {
				idx = find_sort_field_printed(hd, name);
				*dot = '\0';
				if (idx < 0 && find_sort_field(hd, name) >= 0) {
					HIST_ERR(hd, INVALID_SORT_MODIFIER, dot + 1);
					return -EINVAL;
				}
			}
		}
		idx = find_sort_field(hd, name);
		if (idx < 0) {
			HIST_ERR(hd, INVALID_SORT_FIELD, name);
			return -EINVAL;
		}
		hd->sort_keys[i].field_idx = map_field_index(hd, (unsigned int)idx);
		hd->sort_keys[i].descending = descending;
	}
	hd->n_sort_keys = (unsigned int)n;
	return 0;
}

/* Sums for values, key fields for keys, vars for variables, in hd->fields order. */
static int create_tracing_map(struct hist_trigger_data *hd)
{
	hd->map = tracing_map_create(hd->attrs->map_bits, hd->key_size, &hist_map_ops, hd);
	if (!hd->map)
		return -ENOMEM;
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		int idx;

		if (f->flags & HIST_FIELD_FL_VAR)
			continue;
		if (f->flags & HIST_FIELD_FL_KEY) {
			tracing_map_cmp_fn_t cmp = tracing_map_cmp_num(8, f->is_signed);

			if (f->flags & HIST_FIELD_FL_STACKTRACE)
				cmp = tracing_map_cmp_none;
			else if (f->flags & HIST_FIELD_FL_STRING)
				cmp = tracing_map_cmp_string;
			idx = tracing_map_add_key_field(hd->map, f->offset, cmp);
		} else {
			idx = tracing_map_add_sum_field(hd->map);
		}
		if (idx < 0)
			return idx;
	}
	for (unsigned int i = 0; i < hd->n_vars; i++)
		tracing_map_add_var(hd->map);
	return tracing_map_init(hd->map);
}

static int check_nohitcount(struct hist_trigger_data *hd)
{
	if (!hd->attrs->no_hitcount)
		return 0;
	for (unsigned int i = 1; i < hd->n_vals; i++)
		if (!(hd->fields[i]->flags & HIST_FIELD_FL_VAR))
			return 0;
	hist_err(hd->err, -ENOENT, hist_err_text[HIST_ERR_NEED_NOHC_VAL], 0);
	return -ENOENT;
}

/* `if <filter>`: compiled against the event; a bad one is logged as the filter's own error. */
static int create_filter(struct hist_trigger_data *hd)
{
	const char *str = hd->attrs->filter_str;
	struct filter_error ferr = { NULL, 0 };
	int ret;

	if (!str)
		return 0;
	hd->filter_str = kstrdup(str, GFP_KERNEL);
	if (!hd->filter_str)
		return -ENOMEM;
	ret = filter_parse(hd->event->call, str, &hd->filter, &ferr);
	if (ret == -EINVAL) {
		struct hist_error *err = hd->err;

		scnprintf(err->loc, sizeof(err->loc), "event filter parse error");
		scnprintf(err->cmd, sizeof(err->cmd), "%s", str);
		hist_err(err, -EINVAL, ferr.msg, ferr.pos > 0 ? (unsigned int)ferr.pos : 0);
	}
	return ret;
}

/*
 * Everything a trigger command describes: fields, sort keys, filter. No
 * actions and no map yet (a removal or pause needs neither). NULL with
 * err set on failure; attrs then still belong to the caller.
 */
static struct hist_trigger_data *hist_trigger_data_create(struct hist_instance *inst,
							  struct hist_event *event,
							  struct hist_trigger_attrs *attrs,
							  struct hist_error *err)
{
	struct hist_trigger_data *hd = kzalloc(sizeof(*hd), GFP_KERNEL);
	int ret;

	if (!hd) {
		hist_err(err, -ENOMEM, NULL, 0);
		return NULL;
	}
	hd->attrs = attrs;
	hd->event = event;
	hd->inst = inst;
	hd->err = err;
	INIT_LIST_HEAD(&hd->list);
	INIT_LIST_HEAD(&hd->named_list);
	hd->n_vals = 1;

	ret = hist_parse_var_defs(attrs, err);
	if (!ret)
		ret = hist_actions_parse(hd);
	if (!ret)
		ret = create_vals(hd);
	if (!ret)
		ret = create_vars(hd);
	if (!ret)
		ret = create_keys(hd);
	if (!ret)
		ret = check_nohitcount(hd);
	if (!ret)
		ret = create_sort_keys(hd);
	if (!ret)
		ret = create_filter(hd);
	for (unsigned int i = 0; !ret && i < hd->n_fields; i++) {
		hd->save_comm |= !!(hd->fields[i]->flags & HIST_FIELD_FL_EXECNAME);
		hd->uses_stack |= hd->fields[i]->fn == HIST_FIELD_FN_STACK;
	}
	if (ret) {
		hd->attrs = NULL;
		hist_trigger_data_free(hd);
		if (!err->err)
			hist_err(err, ret, NULL, 0);
		return NULL;
	}
	return hd;
}

/* --- the trigger text ------------------------------------------------------------------------ */

static int print_sort_key(char *buf, size_t size, struct hist_trigger_data *hd,
			  const struct tracing_map_sort_key *sk)
{
	const char *name = "hitcount";

	for (unsigned int i = 1; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		unsigned int map_i = 0;

		if (f->flags & HIST_FIELD_FL_VAR)
			continue;
		for (unsigned int j = 0; j < i; j++)
			map_i += !(hd->fields[j]->flags & HIST_FIELD_FL_VAR);
		if (map_i == sk->field_idx)
			name = hist_field_name(f);
	}
	return scnprintf(buf, size, "%s%s", name, sk->descending ? ".descending" : "");
}

/*
 * The canonical trigger text; for_match leaves out what removal ignores
 * (size and the state suffix).
 */
int hist_trigger_print(char *buf, size_t size, struct hist_trigger_data *hd, bool for_match)
{
	struct hist_trigger_attrs *attrs = hd->attrs;
	int n = scnprintf(buf, size, "hist:");
	bool first;

	if (attrs->name)
		n += scnprintf(buf + n, size - n, "name=%s:", attrs->name);
	n += scnprintf(buf + n, size - n, "keys=");
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		if (i > hd->n_vals)
			n += scnprintf(buf + n, size - n, ",");
		n += hist_field_print(buf + n, size - n, hd->fields[i]);
	}
	n += scnprintf(buf + n, size - n, ":vals=");
	first = true;
	for (unsigned int i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_VAR)
			continue;
		if (i == 0 && attrs->no_hitcount)
			continue;
		n += scnprintf(buf + n, size - n, "%s", first ? "" : ",");
		n += hist_field_print(buf + n, size - n, f);
		first = false;
	}
	first = true;
	for (unsigned int i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];

		if (!(f->flags & HIST_FIELD_FL_VAR))
			continue;
		n += scnprintf(buf + n, size - n, "%s", first ? ":" : ",");
		n += hist_field_print(buf + n, size - n, f);
		first = false;
	}
	n += scnprintf(buf + n, size - n, ":sort=");
	for (unsigned int i = 0; i < hd->n_sort_keys; i++) {
		if (i)
			n += scnprintf(buf + n, size - n, ",");
		n += print_sort_key(buf + n, size - n, hd, &hd->sort_keys[i]);
	}
	if (!for_match)
		n += scnprintf(buf + n, size - n, ":size=%u", hd->map->max_elts);
	if (hd->enable_timestamps)
		n += scnprintf(buf + n, size - n, ":clock=%s", attrs->clock ? attrs->clock : "global");
	if (attrs->no_hitcount)
		n += scnprintf(buf + n, size - n, ":nohitcount");
	for (unsigned int i = 0; i < hd->n_actions; i++)
		n += hist_action_print(buf + n, size - n, hd->actions[i]);
	if (hd->filter_str)
		n += scnprintf(buf + n, size - n, " if %s", hd->filter_str);
	if (!for_match)
		n += scnprintf(buf + n, size - n, " %s", hd->paused ? "[paused]" : "[active]");
	return n;
}

/*
 * Same trigger, for removal and duplicates: same canonical text, size and
 * state aside. Static buffers: commands are serialised by the caller (the
 * tracing core's trace_types_lock), and too big for a kernel stack.
 */
static bool hist_trigger_match(struct hist_trigger_data *a, struct hist_trigger_data *b)
{
	static char x[HIST_CMD_MAX * 2], y[HIST_CMD_MAX * 2];

	hist_trigger_print(x, sizeof(x), a, true);
	hist_trigger_print(y, sizeof(y), b, true);
	return !strcmp(x, y);
}

/* --- registration ------------------------------------------------------------------------- */

/* Does any other trigger reference one of hd's variables? */
static bool hist_vars_referenced(struct hist_instance *inst, struct hist_trigger_data *hd)
{
	struct hist_event *ev;
	struct hist_trigger_data *other;

	list_for_each_entry(ev, &inst->events, list)
		list_for_each_entry(other, &ev->triggers, list)
			for (unsigned int i = 0; other != hd && i < other->n_var_refs; i++)
				if (other->var_refs[i]->var.hist_data == hd)
					return true;
	return false;
}

/* The triggers whose table is hd's: hd alone, or every trigger of its name=. */
static bool same_map(const struct hist_trigger_data *a, const struct hist_trigger_data *b)
{
	return a == b || (a->map && a->map == b->map);
}

/* Pause or continue hd; a named histogram is paused or continued on every event. */
static void hist_set_paused(struct hist_instance *inst, struct hist_trigger_data *hd, bool paused)
{
	struct hist_event *ev;
	struct hist_trigger_data *other;

	list_for_each_entry(ev, &inst->events, list)
		list_for_each_entry(other, &ev->triggers, list)
			if (same_map(hd, other))
				WRITE_ONCE(other->paused, paused);
}

static void hist_clear(struct hist_instance *inst, struct hist_trigger_data *hd)
{
	bool paused = hd->paused;

	/* tracing_map_clear() needs no writer: pause, then let updates in flight finish */
	hist_set_paused(inst, hd, true);
	if (inst->synchronize)
		inst->synchronize(inst);
	tracing_map_clear(hd->map);
	hist_set_paused(inst, hd, paused);
}

/* Field by field: what Linux requires of two triggers sharing one name=. */
static bool hist_trigger_compatible(const struct hist_trigger_data *a,
				    const struct hist_trigger_data *b)
{
	if (a->n_vals != b->n_vals || a->n_fields != b->n_fields || a->n_vars != b->n_vars ||
	    a->n_var_str != b->n_var_str || a->key_size != b->key_size ||
	    a->n_sort_keys != b->n_sort_keys)
		return false;
	for (unsigned int i = 0; i < a->n_fields; i++) {
		const struct hist_field *x = a->fields[i], *y = b->fields[i];

		if (x->flags != y->flags || x->size != y->size || x->is_signed != y->is_signed ||
		    x->offset != y->offset || strcmp(x->type, y->type) ||
		    strcmp(hist_field_name(x), hist_field_name(y)) ||
		    !x->var.name != !y->var.name || (x->var.name && strcmp(x->var.name, y->var.name)))
			return false;
	}
	for (unsigned int i = 0; i < a->n_sort_keys; i++)
		if (a->sort_keys[i].field_idx != b->sort_keys[i].field_idx ||
		    a->sort_keys[i].descending != b->sort_keys[i].descending)
			return false;
	return true;
}

static struct hist_trigger_data *find_named(struct hist_instance *inst, const char *name)
{
	struct hist_trigger_data *hd;

	list_for_each_entry(hd, &inst->named, named_list)
		if (!strcmp(hd->attrs->name, name))
			return hd;
	return NULL;
}

/* The table: the one of an existing trigger of the same name=, else a new one. */
static int hist_attach_map(struct hist_trigger_data *hd)
{
	struct hist_trigger_data *owner;

	if (!hd->attrs->name)
		return create_tracing_map(hd);
	owner = find_named(hd->inst, hd->attrs->name);
	if (!owner) {
		int ret = create_tracing_map(hd);

		if (!ret) {
			hd->named_ref = 1;
			list_add_tail(&hd->named_list, &hd->inst->named);
		}
		return ret;
	}
	if (!hist_trigger_compatible(hd, owner)) {
		HIST_ERR(hd, NAMED_MISMATCH, hd->attrs->name);
		return -EINVAL;
	}
	hd->named_data = owner;
	hd->map = owner->map;
	owner->named_ref++;
	return 0;
}

/* Drop hd's hold on its table; the owner of a name= goes with its last user. */
static void hist_put(struct hist_trigger_data *hd)
{
	struct hist_trigger_data *owner = hd->named_data ? hd->named_data : hd;

	if (hd->named_data)
		hist_trigger_data_free(hd);
	if (owner->attrs->name && --owner->named_ref)
		return;
	list_del_init(&owner->named_list);
	hist_trigger_data_free(owner);
}

static int hist_trigger_command(struct hist_instance *inst, struct hist_event *event,
				const char *param, bool remove, struct hist_error *err);

/* Remove the histograms hd's actions created on other events for their fields. */
static void destroy_field_var_hists(struct hist_trigger_data *hd)
{
	struct hist_error *tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);

	for (unsigned int i = 0; tmp && i < hd->n_field_var_hists; i++) {
		struct field_var_hist *fvh = hd->field_var_hists[i];

		/* Still referenced by another trigger: it stays, as in Linux. */
		hist_trigger_command(hd->inst, fvh->event, fvh->cmd, true, tmp);
	}
	kfree(tmp);
}

static void hist_trigger_unregister(struct hist_trigger_data *hd)
{
	if (hd->inst->trigger_unregister)
		hd->inst->trigger_unregister(hd->inst, hd);
	list_del_init(&hd->list);
	destroy_field_var_hists(hd);
	hist_put(hd);
}

/* Find the existing trigger this command names and apply it; -ENOENT if none. */
static int hist_apply_to_existing(struct hist_instance *inst, struct hist_trigger_data *hd,
				  struct hist_error *err)
{
	struct hist_trigger_attrs *attrs = hd->attrs;
	struct hist_trigger_data *other;

	list_for_each_entry(other, &hd->event->triggers, list) {
		if (!hist_trigger_match(hd, other))
			continue;
		if (attrs->remove) {
			if (hist_vars_referenced(inst, other)) {
				hist_err(err, -EBUSY, NULL, 0);
				return -EBUSY;
			}
			hist_trigger_unregister(other);
			return 0;
		}
		if (attrs->pause)
			hist_set_paused(inst, other, true);
		else if (attrs->cont)
			hist_set_paused(inst, other, false);
		if (attrs->clear)
			hist_clear(inst, other);
		if (!attrs->pause && !attrs->cont && !attrs->clear) {
			hist_err(err, -EEXIST, hist_err_text[HIST_ERR_TRIGGER_EEXIST], 0);
			return -EEXIST;
		}
		return 0;
	}
	return -ENOENT;
}

static int hist_trigger_command(struct hist_instance *inst, struct hist_event *event,
				const char *param, bool remove, struct hist_error *err)
{
	struct hist_trigger_attrs *attrs = kzalloc(sizeof(*attrs), GFP_KERNEL);
	struct hist_trigger_data *hd;
	bool attached = false;
	int ret;

	memset(err, 0, sizeof(*err));
	scnprintf(err->loc, sizeof(err->loc), "hist:%s:%s", event->system, event->name);
	if (!attrs)
		return -ENOMEM;
	ret = hist_parse_attrs(param, attrs, err);
	attrs->remove = remove;
	if (!ret) {
		hd = hist_trigger_data_create(inst, event, attrs, err);
		ret = hd ? 0 : err->err;
	}
	if (ret) {
		hist_attrs_free(attrs);
		kfree(attrs);
		return ret;
	}

	ret = hist_apply_to_existing(inst, hd, err);
	if (ret != -ENOENT || remove) {
		hist_trigger_data_free(hd);
		/* Removing a trigger that is not there is no error (Linux). */
		return ret == -ENOENT ? 0 : ret;
	}
	if (attrs->cont || attrs->clear) {
		hist_err(err, -ENOENT, hist_err_text[HIST_ERR_TRIGGER_ENOENT_CLEAR], 0);
		hist_trigger_data_free(hd);
		return -ENOENT;
	}
	ret = hist_actions_create(hd);
	if (!ret) {
		ret = hist_attach_map(hd);
		attached = !ret;
	}
	if (!ret && hd->enable_timestamps && inst->set_clock &&
	    inst->set_clock(inst, attrs->clock ? attrs->clock : "global")) {
		HIST_ERR(hd, SET_CLOCK_FAIL, attrs->clock);
		ret = -EINVAL;
	}
	hd->paused = attrs->pause;
	if (!ret && inst->trigger_register)
		ret = inst->trigger_register(inst, hd);
	if (ret) {
		if (!err->err)
			hist_err(err, ret, NULL, 0);
		ret = err->err;
		destroy_field_var_hists(hd);
		if (attached)
			hist_put(hd);
		else
			hist_trigger_data_free(hd);
		return ret;
	}
	hd->err = NULL;
	list_add_tail(&hd->list, &event->triggers);
	memset(err, 0, sizeof(*err));
	return 0;
}

int event_hist_trigger_parse(struct hist_instance *inst, struct hist_event *event,
			     const char *param, bool remove)
{
	return hist_trigger_command(inst, event, param, remove, &inst->last_error);
}

void hist_instance_destroy(struct hist_instance *inst)
{
	struct hist_event *ev;

	/* everything goes, so references between them do not matter */
	list_for_each_entry(ev, &inst->events, list)
		while (!list_empty(&ev->triggers))
			hist_trigger_unregister(list_first_entry(&ev->triggers,
								 struct hist_trigger_data, list));
}

/* As Linux: if any histogram of the event has a referenced variable, all stay. */
void hist_unreg_all(struct hist_instance *inst, struct hist_event *event)
{
	struct hist_trigger_data *hd, *tmp;

	list_for_each_entry(hd, &event->triggers, list)
		if (hist_vars_referenced(inst, hd))
			return;
	list_for_each_entry_safe(hd, tmp, &event->triggers, list)
		hist_trigger_unregister(hd);
}

/* Are two keys interchangeable for variable lookups (same slots, any names)? */
static bool compatible_keys(const struct hist_trigger_data *a, const struct hist_trigger_data *b)
{
	if (a->n_keys != b->n_keys)
		return false;
	for (unsigned int i = 0; i < a->n_keys; i++) {
		const struct hist_field *x = a->fields[a->n_vals + i], *y = b->fields[b->n_vals + i];

		if (x->flags != y->flags || x->size != y->size || x->is_signed != y->is_signed)
			return false;
	}
	return true;
}

struct hist_field *hist_field_var_hist_ref(struct hist_trigger_data *hd, struct hist_event *ev,
					   const char *field, const char *token)
{
	struct hist_trigger_data *compat = NULL, *other;
	struct hist_field *var = NULL;
	struct field_var_hist *fvh;
	struct hist_error *tmp;
	char name[80];
	int n, ret;

	if (hd->n_field_var_hists == SYNTH_FIELDS_MAX) {
		HIST_ERR(hd, TOO_MANY_FIELD_VARS, token);
		return NULL;
	}
	list_for_each_entry(other, &ev->triggers, list) {
		if (!compat && compatible_keys(hd, other))
			compat = other;
	}
	if (!compat) {
		HIST_ERR(hd, HIST_NOT_FOUND, token);
		return NULL;
	}
	scnprintf(name, sizeof(name), "synthetic_%s", field);
	list_for_each_entry(other, &ev->triggers, list)
		if (!var)
			var = hist_find_var_field(other, name);
	if (var)	/* made for an earlier trigger: share it */
		return hist_create_var_ref(hd, var, NULL, NULL);

	fvh = kzalloc(sizeof(*fvh), GFP_KERNEL);
	tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);
	if (fvh)
		fvh->cmd = kmalloc(HIST_CMD_MAX + 1, GFP_KERNEL);
	if (!fvh || !tmp || !fvh->cmd)
		goto nomem;
	n = scnprintf(fvh->cmd, HIST_CMD_MAX + 1, "keys=");
	for (unsigned int i = compat->n_vals; i < compat->n_fields; i++)
		n += scnprintf(fvh->cmd + n, HIST_CMD_MAX + 1 - n, "%s%s", i > compat->n_vals ? "," : "",
			       hist_field_name(compat->fields[i]));
	n += scnprintf(fvh->cmd + n, HIST_CMD_MAX + 1 - n, ":%s=%s", name, field);
	if (compat->filter_str)
		scnprintf(fvh->cmd + n, HIST_CMD_MAX + 1 - n, " if %s", compat->filter_str);
	fvh->event = ev;
	ret = hist_trigger_command(hd->inst, ev, fvh->cmd, false, tmp);
	kfree(tmp);
	tmp = NULL;
	list_for_each_entry(other, &ev->triggers, list)
		if (!ret && !var)
			var = hist_find_var_field(other, name);
	if (!var) {
		kfree(fvh->cmd);
		kfree(fvh);
		HIST_ERR(hd, HIST_CREATE_FAIL, token);
		return NULL;
	}
	hd->field_var_hists[hd->n_field_var_hists++] = fvh;
	return hist_create_var_ref(hd, var, NULL, NULL);
nomem:
	if (fvh)
		kfree(fvh->cmd);
	kfree(fvh);
	kfree(tmp);
	hist_err(hd->err, -ENOMEM, NULL, 0);
	return NULL;
}

/* --- the event path -------------------------------------------------------------------------- */

static void copy_str(char *dst, const char *src, unsigned int size)
{
	unsigned int i = 0;

	for (; i + 1 < size && src && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/*
 * The compound key: each sub-key in its own 8-aligned slot. Numbers fill
 * their slot; text and stacks are zero-padded to it, so equal keys are
 * equal bytes.
 */
static void build_key(struct hist_trigger_data *hd, const struct hist_event_ctx *ctx,
		      const u64 *var_ref_vals, char *key)
{
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		u64 v = hist_field_value(f, ctx, var_ref_vals);

		if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			const unsigned long *st = (const unsigned long *)(uptr)v;

			memset(key + f->offset, 0, ALIGN_UP(f->size, 8));
			for (unsigned int j = 0; st && j < HIST_STACKTRACE_DEPTH && st[j]; j++)
				__builtin_memcpy(key + f->offset + j * 8, &st[j], 8);
		} else if (f->flags & HIST_FIELD_FL_STRING) {
			memset(key + f->offset, 0, ALIGN_UP(f->size, 8));
			copy_str(key + f->offset, (const char *)(uptr)v, f->size);
		} else {
			__builtin_memcpy(key + f->offset, &v, 8);
		}
	}
}

/*
 * Values of references to other histograms' variables, looked up under
 * this event's key. false: a variable is missing and the event is dropped.
 */
static bool resolve_var_refs(struct hist_trigger_data *hd, const char *key, u64 *vals,
			     struct tracing_map_elt *self_elt)
{
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];
		struct hist_trigger_data *var_hd = ref->var.hist_data;
		struct tracing_map_elt *elt;

		if ((var_hd == hd) != (self_elt != NULL))
			continue;
		elt = self_elt ? self_elt : tracing_map_lookup(var_hd->map, key);
		if (!elt || !tracing_map_var_set(elt, ref->var.idx))
			return false;
		vals[i] = ref->read_once ? tracing_map_read_var_once(elt, ref->var.idx) :
					   tracing_map_read_var(elt, ref->var.idx);
	}
	return true;
}

/* Store a variable; text goes to the element's own buffer, the var holds its address. */
void hist_set_var(struct tracing_map_elt *elt, struct hist_field *var, u64 v)
{
	if (var->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE | HIST_FIELD_FL_EXECNAME)) {
		struct hist_elt_data *d = elt->private_data;
		char *buf = d->strs[var->var_str_idx];

		if (var->flags & HIST_FIELD_FL_EXECNAME)
			copy_str(buf, d->comm, STR_VAR_LEN_MAX);
		else if (var->flags & HIST_FIELD_FL_STACKTRACE)
			memcpy(buf, (const void *)(uptr)v, v ? HIST_STACKTRACE_SIZE : 0);
		else
			copy_str(buf, (const char *)(uptr)v, STR_VAR_LEN_MAX);
		v = (u64)(uptr)buf;
	}
	tracing_map_set_var(elt, var->var.idx, v);
}

void hist_trigger_event(struct hist_trigger_data *hd, const struct hist_event_ctx *ctx)
{
	char key[HIST_KEY_SIZE_MAX];
	u64 var_ref_vals[TRACING_MAP_VARS_MAX];
	struct tracing_map_elt *elt;
	struct hist_elt_data *d;

	if (READ_ONCE(hd->paused))
		return;
	if (hd->filter && !filter_match(hd->filter, ctx->rec))
		return;
	build_key(hd, ctx, NULL, key);
	if (hd->n_var_refs) {
		/* self references are read after the update; until then they read 0 */
		memset(var_ref_vals, 0, hd->n_var_refs * sizeof(u64));
		if (!resolve_var_refs(hd, key, var_ref_vals, NULL))
			return;
	}
	elt = tracing_map_insert(hd->map, key);
	if (!elt)
		return;
	d = elt->private_data;
	if (hd->save_comm && !d->comm[0])
		copy_str(d->comm, ctx->comm ? ctx->comm : "<...>", TASK_COMM_LEN);

	for (unsigned int i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];
		u64 v = hist_field_value(f, ctx, var_ref_vals);

		if (f->flags & HIST_FIELD_FL_VAR)
			hist_set_var(elt, f, v);
		else
			tracing_map_update_sum(elt, i, v);
	}
	for (unsigned int i = 0; i < hd->n_field_vars; i++) {
		struct field_var *fv = hd->field_vars[i];

		hist_set_var(elt, fv->var, hist_field_value(fv->var, ctx, var_ref_vals));
	}
	if (!hd->n_actions)
		return;
	if (!resolve_var_refs(hd, key, var_ref_vals, elt))
		return;
	hist_actions_run(hd, elt, ctx, key, var_ref_vals);
}
