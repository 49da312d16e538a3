/*
 * Handlers and actions of a hist trigger: onmax($v)/onchange($v) track a
 * variable per entry in a hidden variable (__max/__change) and, when it
 * moves, save() fields of the event, take a snapshot() or trace() a
 * synthetic event; onmatch(sys.event) traces on every update that found
 * the matching event's variables.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/hist.h>
#include <trace/trace_events_hist.h>
#include <trace/trace_synth.h>

#define HIST_ERR(hd, id, token) \
	hist_err_id((hd)->err, id, hist_errpos((hd)->attrs, (token)))

int hist_actions_parse(struct hist_trigger_data *hd)
{
	struct hist_trigger_attrs *attrs = hd->attrs;

	for (unsigned int i = 0; i < attrs->n_actions; i++) {
		struct action_data *data = hist_parse_action(attrs->action_str[i], attrs, hd->err);

		if (IS_ERR(data))
			return (int)PTR_ERR(data);
		hd->actions[hd->n_actions++] = data;
	}
	return 0;
}

void hist_actions_destroy_one(struct hist_trigger_data *hd, struct action_data *data)
{
	if (data->handler != HANDLER_ONMATCH) {
		hist_field_destroy(data->track_data.var_ref);
		hist_field_destroy(data->track_data.track_var);
	}
	if (data->synth_event)
		synth_event_put(data->synth_event);
	hist_action_free(data);
}

/* A hidden per-entry variable (e.g. __max) that is no field of the trigger. */
static struct hist_field *create_hidden_var(struct hist_trigger_data *hd, const char *name)
{
	char hitcount[] = "hitcount";
	struct hist_field *var = hist_parse_expr(hd, hitcount, HIST_FIELD_FL_VAR, name, 0);

	if (!var)
		return NULL;
	var->fn = HIST_FIELD_FN_NOP;
	var->flags = HIST_FIELD_FL_VAR;
	if (hist_assign_var(hd, var)) {
		hist_field_destroy(var);
		return NULL;
	}
	return var;
}

/* save(f1,...): each a field of this event, stored in a hidden variable when the value moves. */
static int create_save_vars(struct hist_trigger_data *hd, struct action_data *data)
{
	if (hd->n_save_vars) {
		HIST_ERR(hd, TOO_MANY_SAVE_ACTIONS, data->action_name);
		return -EINVAL;
	}
	data->track_data.save_first = hd->n_save_vars;
	for (unsigned int i = 0; i < data->n_params; i++) {
		struct field_var *fv = kzalloc(sizeof(*fv), GFP_KERNEL);

		if (!fv)
			return -ENOMEM;
		fv->var = hist_parse_expr_copy(hd, data->params[i], HIST_FIELD_FL_VAR, data->params[i]);
		if (!fv->var || (fv->var->flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_VAR_REF |
						   HIST_FIELD_FL_ALIAS))) {
			if (fv->var)
				HIST_ERR(hd, FIELD_VAR_CREATE_FAIL, data->params[i]);
			hist_field_destroy(fv->var);
			kfree(fv);
			return -EINVAL;
		}
		hd->save_vars[hd->n_save_vars++] = fv;
		if (hist_assign_var(hd, fv->var))
			return -EINVAL;
	}
	return 0;
}

static int track_data_create(struct hist_trigger_data *hd, struct action_data *data)
{
	const char *var_str = data->track_data.var_str;
	struct hist_field *var;

	if (var_str[0] != '$') {
		HIST_ERR(hd, ONX_NOT_VAR, var_str);
		return -EINVAL;
	}
	var = hist_find_var_field(hd, var_str + 1);
	if (!var) {
		HIST_ERR(hd, ONX_VAR_NOT_FOUND, var_str);
		return -EINVAL;
	}
	data->track_data.var_ref = hist_create_var_ref(hd, var, NULL, NULL);
	if (!data->track_data.var_ref)
		return -EINVAL;
	data->track_data.track_var =
		create_hidden_var(hd, data->handler == HANDLER_ONMAX ? "__max" : "__change");
	if (!data->track_data.track_var) {
		HIST_ERR(hd, ONX_VAR_CREATE_FAIL, var_str);
		return -EINVAL;
	}
	if (data->action == ACTION_SAVE)
		return create_save_vars(hd, data);
	if (data->action == ACTION_SNAPSHOT) {
		if (hd->snapshot_action) {
			hist_err(hd->err, -EINVAL, "Only one snapshot() action per hist",
				 hist_errpos(hd->attrs, data->action_name));
			return -EINVAL;
		}
		hd->snapshot_action = data;
		hd->snapshot_key = kzalloc(hd->key_size, GFP_KERNEL);
		if (!hd->snapshot_key)
			return -ENOMEM;
	}
	return 0;
}

int hist_actions_create(struct hist_trigger_data *hd)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];
		int ret = 0;

		if (data->handler == HANDLER_ONMATCH &&
		    !hist_find_event(hd->inst, data->match_data.event_system, data->match_data.event)) {
			HIST_ERR(hd, INVALID_SUBSYS_EVENT, data->match_data.event_system);
			return -EINVAL;
		}
		if (data->handler != HANDLER_ONMATCH)
			ret = track_data_create(hd, data);
		if (!ret && data->action == ACTION_TRACE)
			ret = synth_action_create(hd, data);
		if (ret)
			return ret;
	}
	return 0;
}

int hist_action_print(char *buf, size_t size, const struct action_data *data)
{
	static const char *const handlers[] = {
		[HANDLER_ONMATCH] = "onmatch", [HANDLER_ONMAX] = "onmax",
		[HANDLER_ONCHANGE] = "onchange",
	};
	int n = scnprintf(buf, size, ":%s(", handlers[data->handler]);

	if (data->handler == HANDLER_ONMATCH)
		n += scnprintf(buf + n, size - n, "%s.%s", data->match_data.event_system,
			       data->match_data.event);
	else
		n += scnprintf(buf + n, size - n, "%s", data->track_data.var_str);
	n += scnprintf(buf + n, size - n, ").%s(", data->action_name);
	if (data->use_trace_keyword)
		n += scnprintf(buf + n, size - n, "%s%s", data->synth_event_name,
			       data->n_params ? "," : "");
	for (unsigned int i = 0; i < data->n_params; i++)
		n += scnprintf(buf + n, size - n, "%s%s", i ? "," : "", data->params[i]);
	return n + scnprintf(buf + n, size - n, ")");
}

/* Has the tracked value moved? Updates the hidden variable if so. */
static bool track_update(struct action_data *data, struct tracing_map_elt *elt, u64 v)
{
	unsigned int idx = data->track_data.track_var->var.idx;
	bool set = tracing_map_var_set(elt, idx);
	u64 old = tracing_map_read_var(elt, idx);

	if (set && (data->handler == HANDLER_ONMAX ? v <= old : v == old))
		return false;
	tracing_map_set_var(elt, idx, v);
	return true;
}

void hist_actions_run(struct hist_trigger_data *hd, struct tracing_map_elt *elt,
		      const struct hist_event_ctx *ctx, const char *key, u64 *var_ref_vals)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];

		if (data->handler != HANDLER_ONMATCH) {
			u64 v = var_ref_vals[data->track_data.var_ref->var_ref_idx];

			if (!track_update(data, elt, v))
				continue;
			if (data->action == ACTION_SNAPSHOT) {
				hd->snapshot_val = v;
				memcpy(hd->snapshot_key, key, hd->key_size);
				hd->snapshot_taken = true;
				if (hd->inst->take_snapshot)
					hd->inst->take_snapshot(hd->inst);
				continue;
			}
			if (data->action == ACTION_SAVE) {
				for (unsigned int j = 0; j < hd->n_save_vars; j++) {
					struct hist_field *var = hd->save_vars[j]->var;

					hist_set_var(elt, var, hist_field_value(var, ctx, var_ref_vals));
				}
				continue;
			}
		}
		synth_action_trace(hd, data, elt, ctx, var_ref_vals);
	}
}
