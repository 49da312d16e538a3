/*
 * Hist triggers, the engine's interface: what the trigger plumbing calls
 * (parse a `hist:` command, drop all on O_TRUNC), what the event path
 * calls, and what hist_output.c and hist_actions.c share with it. Pure.
 */
#ifndef TRACE_TRACE_EVENTS_HIST_H
#define TRACE_TRACE_EVENTS_HIST_H

#include <trace/hist.h>

/* An empty instance: no events, no named histograms. */
void hist_instance_init(struct hist_instance *inst);
/*
 * Remove every hist trigger of every event of inst (a trace instance
 * going away); the events themselves stay the caller's.
 */
void hist_instance_destroy(struct hist_instance *inst);
/* ev describes call (not yet on any instance's list). */
void hist_event_init(struct hist_event *ev, const struct trace_event_call *call);

/*
 * Handle one write of `hist:<param>` (remove: `!hist:`) to event's trigger
 * file. Returns 0 or -errno; on failure inst->last_error holds the
 * error_log entry (msg NULL: none, as Linux).
 */
int event_hist_trigger_parse(struct hist_instance *inst, struct hist_event *event,
			     const char *param, bool remove);
/* `>` on the trigger file: drop the event's hist triggers, unless one has a referenced variable. */
void hist_unreg_all(struct hist_instance *inst, struct hist_event *event);
/* Feed one event to one histogram. Any context; never allocates. */
void hist_trigger_event(struct hist_trigger_data *hd, const struct hist_event_ctx *ctx);

struct hist_event *hist_find_event(struct hist_instance *inst, const char *system,
				   const char *name);
/* Canonical trigger text; for_match omits size= and the [active]/[paused] state. */
int hist_trigger_print(char *buf, size_t size, struct hist_trigger_data *hd, bool for_match);

void hist_trigger_data_free(struct hist_trigger_data *hd);
int hist_assign_var(struct hist_trigger_data *hd, struct hist_field *var);
void hist_set_var(struct tracing_map_elt *elt, struct hist_field *var, u64 v);

/*
 * An onmatch() param naming a field of the matching event ev: reference a
 * variable synthetic_<field> on a histogram of ev keyed like hd, creating
 * that histogram (removed again with hd). token is the param for carets.
 */
struct hist_field *hist_field_var_hist_ref(struct hist_trigger_data *hd, struct hist_event *ev,
					   const char *field, const char *token);

/* hist_actions.c */
int hist_actions_parse(struct hist_trigger_data *hd);
int hist_actions_create(struct hist_trigger_data *hd);
void hist_actions_destroy_one(struct hist_trigger_data *hd, struct action_data *data);
int hist_action_print(char *buf, size_t size, const struct action_data *data);
void hist_actions_run(struct hist_trigger_data *hd, struct tracing_map_elt *elt,
		      const struct hist_event_ctx *ctx, const char *key, u64 *var_ref_vals);

/*
 * hist_enable.c: enable_hist/disable_hist. The param after the command
 * word, `:<system>:<event>...`, names the target; *rest is what follows
 * the event name (`:count`, ` if filter`) for the trigger framework.
 * -EINVAL for a malformed or unknown target.
 */
int hist_enable_parse_target(struct hist_instance *inst, const char *param,
			     struct hist_event **target, const char **rest);
/* `enable_hist:sys:event` as the trigger file lists it (count and filter follow). */
int hist_enable_print(char *buf, size_t size, bool enable, const struct hist_event *target);
/* Continue (enable) or pause every hist trigger of target. Any context. */
void hist_enable_fire(struct hist_event *target, bool enable);

/* hist_output.c: the `hist` and `hist_debug` files of one event. */
int hist_show(struct hist_instance *inst, struct hist_event *event, char *buf, size_t size);
int hist_debug_show(struct hist_event *event, char *buf, size_t size);

/*
 * trace_events_hist_tracefs.c (kernel only): the hist, enable_hist and
 * disable_hist trigger commands, hist/hist_debug files, synthetic_events
 * and dynamic_events. Once, after tracing_init().
 */
int trace_hist_init(void);

#endif
