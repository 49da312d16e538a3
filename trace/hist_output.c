/*
 * The `hist` and `hist_debug` files of an event: every hist trigger's
 * header, its sorted entries in Linux's exact line format, the max:/
 * changed: lines of tracking actions, the snapshot block and the totals;
 * and, for hist_debug, the internal field layout.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/errno.h>
#include <trace/hist.h>
#include <trace/trace_events_hist.h>

/* Output into a bounded buffer; n saturates at the end (scnprintf). */
struct hist_buf {
	char *buf;
	size_t size;
	size_t n;
};

#define out(b, ...) ((b)->n += (size_t)scnprintf((b)->buf + (b)->n, (b)->size - (b)->n, __VA_ARGS__))

static void sym_text(struct hist_instance *inst, char *s, size_t size, unsigned long addr,
		     bool offset)
{
	if (inst && inst->print_ops && inst->print_ops->sym)
		inst->print_ops->sym(s, size, addr, offset);
	else
		scnprintf(s, size, "0x%lx", addr);
}

static const char *key_name(const struct hist_field *f, char *tmp, size_t size)
{
	if (f->flags & HIST_FIELD_FL_EXPR) {
		hist_field_print(tmp, size, f);
		return tmp;
	}
	return hist_field_name(f);
}

static void print_key(struct hist_buf *b, struct hist_instance *inst,
		      struct hist_trigger_data *hd, struct tracing_map_elt *elt, const char *key)
{
	bool multiline = false;
	char tmp[128], sym[128];

	out(b, "{ ");
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		const char *name = key_name(f, tmp, sizeof(tmp));
		u64 v;

		if (i > hd->n_vals)
			out(b, ", ");
		memcpy(&v, key + f->offset, 8);
		if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			const unsigned long *st = (const unsigned long *)(key + f->offset);

			if (f->fn == HIST_FIELD_FN_STACK)
				out(b, "%s:\n", name);
			else
				out(b, "%s.stacktrace", name);
			for (unsigned int j = 0; j < HIST_STACKTRACE_DEPTH && st[j]; j++) {
				sym_text(inst, sym, sizeof(sym), st[j], true);
				out(b, "%s%s\n", (f->fn == HIST_FIELD_FN_STACK || j) ? "         " : "", sym);
			}
			multiline = true;
		} else if (f->flags & HIST_FIELD_FL_STRING) {
			out(b, "%s: %-50s", name, key + f->offset);
		} else if (f->flags & HIST_FIELD_FL_SYM) {
			sym_text(inst, sym, sizeof(sym), (unsigned long)v, false);
			out(b, "%s: [%lx] %-45s", name, (unsigned long)v, sym);
		} else if (f->flags & HIST_FIELD_FL_SYM_OFFSET) {
			sym_text(inst, sym, sizeof(sym), (unsigned long)v, true);
			out(b, "%s: [%lx] %-55s", name, (unsigned long)v, sym);
		} else if (f->flags & HIST_FIELD_FL_EXECNAME) {
			const char *comm = elt->private_data;

			out(b, "%s: %-16s[%10lu]", name, comm, (unsigned long)v);
		} else if (f->flags & HIST_FIELD_FL_SYSCALL) {
			const char *sc = inst && inst->print_ops && inst->print_ops->syscall_name ?
					 inst->print_ops->syscall_name((int)v) : NULL;

			out(b, "%s: %-30s[%3lu]", name, sc ? sc : "unknown_syscall", (unsigned long)v);
		} else if (f->flags & HIST_FIELD_FL_HEX) {
			out(b, "%s: %lx", name, (unsigned long)v);
		} else if (f->flags & HIST_FIELD_FL_LOG2) {
			out(b, "%s: ~ 2^%-2lu", name, (unsigned long)v);
		} else if (f->flags & HIST_FIELD_FL_BUCKET) {
			out(b, "%s: ~ %lu-%lu", name, (unsigned long)v, (unsigned long)(v + f->buckets - 1));
		} else {
			out(b, "%s: %10lu", name, (unsigned long)v);
		}
	}
	out(b, multiline ? "}" : " }");
}

/* Column totals and maxima for .percent and .graph. */
struct val_stats {
	u64 total[TRACING_MAP_VALS_MAX];
	u64 max[TRACING_MAP_VALS_MAX];
};

static void print_vals(struct hist_buf *b, struct hist_trigger_data *hd,
		       struct tracing_map_elt *elt, const struct val_stats *st)
{
	if (!hd->attrs->no_hitcount)
		out(b, " hitcount: %10lu", (unsigned long)tracing_map_read_sum(elt, 0));
	for (unsigned int i = 1; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];
		const char *name = hist_field_name(f);
		u64 v;

		if (f->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXPR))
			continue;
		v = tracing_map_read_sum(elt, i);
		if (f->flags & HIST_FIELD_FL_PERCENT) {
			if (!st->total[i]) {
				out(b, "  %s (%%):[ERROR]", name);
			} else {
				u64 pct = v * 10000 / st->total[i];

				out(b, "  %s (%%): %3u.%02u", name, (unsigned int)(pct / 100),
				    (unsigned int)(pct % 100));
			}
		} else if (f->flags & HIST_FIELD_FL_GRAPH) {
			char bar[21];
			unsigned int len = st->max[i] ? (unsigned int)(v * 20 / st->max[i]) : 0;

			memset(bar, '#', len);
			bar[len] = '\0';
			out(b, "  %s: %20s", name, bar);
		} else if (f->flags & HIST_FIELD_FL_HEX) {
			out(b, "  %s: %10lx", name, (unsigned long)v);
		} else {
			out(b, "  %s: %10lu", name, (unsigned long)v);
		}
	}
}

static void print_actions(struct hist_buf *b, struct hist_trigger_data *hd,
			  struct tracing_map_elt *elt)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];
		unsigned int idx;

		if (data->handler == HANDLER_ONMATCH || data->action == ACTION_SNAPSHOT)
			continue;
		idx = data->track_data.track_var->var.idx;
		out(b, "\n\t%s: %10lu", data->handler == HANDLER_ONMAX ? "max" : "changed",
		    (unsigned long)tracing_map_read_var(elt, idx));
		if (data->action != ACTION_SAVE)
			continue;
		for (unsigned int j = 0; j < hd->n_save_vars; j++) {
			struct hist_field *var = hd->save_vars[j]->var;
			u64 v = tracing_map_read_var(elt, var->var.idx);

			if (var->flags & HIST_FIELD_FL_STRING)
				out(b, "  %s: %-32s", var->var.name,
				    tracing_map_var_set(elt, var->var.idx) ? (const char *)(uptr)v : "");
			else
				out(b, "  %s: %10lu", var->var.name, (unsigned long)v);
		}
	}
}

static void print_snapshot(struct hist_buf *b, struct hist_instance *inst,
			   struct hist_trigger_data *hd)
{
	struct action_data *data = hd->snapshot_action;
	struct tracing_map_elt *elt;

	if (!data || !hd->snapshot_taken)
		return;
	out(b, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
	out(b, "\ttriggering value { %s(%s) }: %10lu",
	    data->handler == HANDLER_ONMAX ? "onmax" : "onchange", data->track_data.var_str,
	    (unsigned long)hd->snapshot_val);
	out(b, "\ttriggered by event with key: ");
	elt = tracing_map_lookup(hd->map, hd->snapshot_key);
	if (elt)
		print_key(b, inst, hd, elt, hd->snapshot_key);
	out(b, "\n");
}

static int hist_trigger_show(struct hist_buf *b, struct hist_instance *inst,
			     struct hist_trigger_data *hd)
{
	struct tracing_map_sort_entry *v;
	struct val_stats st = { { 0 }, { 0 } };
	int n;

	out(b, "# event histogram\n#\n# trigger info: ");
	b->n += (size_t)hist_trigger_print(b->buf + b->n, b->size - b->n, hd, false);
	out(b, "\n#\n\n");

	n = tracing_map_sort_entries(hd->map, hd->sort_keys, hd->n_sort_keys, &v);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		for (unsigned int j = 1; j < hd->n_vals && j < TRACING_MAP_VALS_MAX; j++) {
			u64 x;

			if (hd->fields[j]->flags & HIST_FIELD_FL_VAR)
				continue;
			x = tracing_map_read_sum(v[i].elt, j);
			st.total[j] += x;
			st.max[j] = max(st.max[j], x);
		}
	}
	for (int i = 0; i < n; i++) {
		print_key(b, inst, hd, v[i].elt, v[i].key);
		print_vals(b, hd, v[i].elt, &st);
		print_actions(b, hd, v[i].elt);
		out(b, "\n");
	}
	kfree(v);
	print_snapshot(b, inst, hd);
	out(b, "\nTotals:\n    Hits: %lu\n    Entries: %d\n    Dropped: %lu\n",
	    (unsigned long)tracing_map_hits(hd->map), n, (unsigned long)tracing_map_drops(hd->map));
	return 0;
}

int hist_show(struct hist_instance *inst, struct hist_event *event, char *buf, size_t size)
{
	struct hist_buf b = { buf, size, 0 };
	struct hist_trigger_data *hd;
	bool first = true;

	if (size)
		buf[0] = '\0';
	list_for_each_entry(hd, &event->triggers, list) {
		int ret;

		if (!first)
			out(&b, "\n\n");
		first = false;
		ret = hist_trigger_show(&b, inst, hd);
		if (ret)
			return ret;
	}
	return (int)b.n;
}

/* --- hist_debug --------------------------------------------------------------------------- */

static void debug_flags(struct hist_buf *b, const struct hist_field *f, const char *indent)
{
	out(b, "%sflags:\n", indent);
	if (f->flags & HIST_FIELD_FL_KEY)
		out(b, "%s  HIST_FIELD_FL_KEY\n", indent);
	else if (f->flags & HIST_FIELD_FL_HITCOUNT && !(f->flags & HIST_FIELD_FL_VAR))
		out(b, "%s  VAL: HIST_FIELD_FL_HITCOUNT\n", indent);
	else if (f->flags & HIST_FIELD_FL_VAR)
		out(b, "%s  HIST_FIELD_FL_VAR\n", indent);
	else if (f->flags & HIST_FIELD_FL_VAR_REF)
		out(b, "%s  HIST_FIELD_FL_VAR_REF\n", indent);
	else
		out(b, "%s  VAL: normal u64 value\n", indent);
	if (f->flags & HIST_FIELD_FL_ALIAS)
		out(b, "%s  HIST_FIELD_FL_ALIAS\n", indent);
	else if (f->flags & HIST_FIELD_FL_CONST)
		out(b, "%s  HIST_FIELD_FL_CONST\n", indent);
}

static void debug_field(struct hist_buf *b, struct hist_trigger_data *hd,
			const struct hist_field *f, const char *indent)
{
	if (f->field)
		out(b, "%sftrace_event_field name: %s\n", indent, f->field->name);
	if (f->flags & HIST_FIELD_FL_VAR) {
		out(b, "%svar.name: %s\n", indent, f->var.name);
		out(b, "%svar.idx (into tracing_map_elt.vars[]): %u\n", indent, f->var.idx);
	}
	if (f->flags & HIST_FIELD_FL_CONST)
		out(b, "%sconstant: %lu\n", indent, (unsigned long)f->constant);
	if (f->flags & HIST_FIELD_FL_ALIAS)
		out(b, "%svar_ref_idx (into hist_data->var_refs[]): %u\n", indent,
		    f->operands[0]->var_ref_idx);
	if (f->flags & HIST_FIELD_FL_VAR_REF) {
		out(b, "%sname: %s\n", indent, f->name);
		out(b, "%svar.idx (into tracing_map_elt.vars[]): %u\n", indent, f->var.idx);
		out(b, "%svar.hist_data: %p\n", indent, (void *)f->var.hist_data);
		out(b, "%svar_ref_idx (into hist_data->var_refs[]): %u\n", indent, f->var_ref_idx);
		if (f->system) {
			out(b, "%ssystem: %s\n", indent, f->system);
			out(b, "%sevent_name: %s\n", indent, f->event_name);
		}
	}
	out(b, "%stype: %s\n%ssize: %u\n%sis_signed: %u\n", indent, f->type, indent, f->size,
	    indent, f->is_signed);
}

static void hist_trigger_debug(struct hist_buf *b, struct hist_trigger_data *hd)
{
	out(b, "# event histogram\n#\n# trigger info: ");
	b->n += (size_t)hist_trigger_print(b->buf + b->n, b->size - b->n, hd, false);
	out(b, "\n#\n\nhist_data: %p\n\n", (void *)hd);
	out(b, "  n_vals: %u\n  n_keys: %u\n  n_fields: %u\n", hd->n_vals, hd->n_keys, hd->n_fields);
	out(b, "\n  val fields:\n\n");
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		if (i == hd->n_vals)
			out(b, "\n  key fields:\n\n");
		if (i && i != hd->n_vals)
			out(b, "\n");
		out(b, "    hist_data->fields[%u]:\n", i);
		debug_flags(b, hd->fields[i], "      ");
		debug_field(b, hd, hd->fields[i], "      ");
	}
	if (hd->n_var_refs)
		out(b, "\n  variable reference fields:\n");
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		out(b, "\n    hist_data->var_refs[%u]:\n", i);
		debug_flags(b, hd->var_refs[i], "      ");
		debug_field(b, hd, hd->var_refs[i], "      ");
	}
	if (hd->n_field_vars)
		out(b, "\n  field variables:\n");
	for (unsigned int i = 0; i < hd->n_field_vars; i++) {
		const struct hist_field *var = hd->field_vars[i]->var;

		out(b, "\n    hist_data->field_vars[%u]:\n\n", i);
		out(b, "      field_vars[%u].var:\n", i);
		debug_flags(b, var, "      ");
		out(b, "      var.name: %s\n      var.idx (into tracing_map_elt.vars[]): %u\n",
		    var->var.name, var->var.idx);
		out(b, "\n      field_vars[%u].val:\n", i);
		if (var->field)
			out(b, "      ftrace_event_field name: %s\n", var->field->name);
		out(b, "      type: %s\n      size: %u\n      is_signed: %u\n", var->type,
		    var->field ? var->field->size : var->size, var->is_signed);
	}
	if (hd->n_actions)
		out(b, "\n  action tracking variables (for onmax()/onchange()/onmatch()):\n");
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		const struct action_data *a = hd->actions[i];

		if (a->handler == HANDLER_ONMATCH) {
			out(b, "\n    hist_data->actions[%u].match_data.event_system: %s\n", i,
			    a->match_data.event_system);
			out(b, "    hist_data->actions[%u].match_data.event: %s\n", i, a->match_data.event);
			continue;
		}
		out(b, "\n    hist_data->actions[%u].track_data.var_ref:\n", i);
		debug_flags(b, a->track_data.var_ref, "      ");
		debug_field(b, hd, a->track_data.var_ref, "      ");
		out(b, "\n    hist_data->actions[%u].track_data.track_var:\n", i);
		debug_flags(b, a->track_data.track_var, "      ");
		debug_field(b, hd, a->track_data.track_var, "      ");
	}
	if (hd->n_save_vars)
		out(b, "\n  save action variables (save() params):\n");
	for (unsigned int i = 0; i < hd->n_save_vars; i++) {
		out(b, "\n    hist_data->save_vars[%u]:\n", i);
		debug_flags(b, hd->save_vars[i]->var, "      ");
		debug_field(b, hd, hd->save_vars[i]->var, "      ");
	}
}

int hist_debug_show(struct hist_event *event, char *buf, size_t size)
{
	struct hist_buf b = { buf, size, 0 };
	struct hist_trigger_data *hd;
	bool first = true;

	if (size)
		buf[0] = '\0';
	list_for_each_entry(hd, &event->triggers, list) {
		if (!first)
			out(&b, "\n\n");
		first = false;
		hist_trigger_debug(&b, hd);
	}
	return (int)b.n;
}
