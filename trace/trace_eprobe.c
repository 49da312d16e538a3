/*
 * Event probes (Linux's trace_eprobe): the `e` lines of dynamic_events.
 *
 *   e[:[GRP/][EVENT]] SYSTEM.EVENT [FETCHARGS] [if FILTER]
 *
 * An eprobe is an event (default events/eprobes/EVENT) fed by another,
 * static one: its arguments read the fields of each record of that
 * event (`$FIELD`, `+off($FIELD)`, with types), and the filter, if any,
 * picks which records count. While traced, it rides on the base event
 * as a hidden trigger in the top instance, which soft-enables the base
 * (its `enable` shows `0*`): the eprobe fires whether or not the base
 * event is itself traced, as on Linux. Probe events (kprobes, fprobes,
 * eprobes) cannot be a base, as Linux's refuse.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/trace.h>
#include <trace/trace_filter.h>
#include <trace/trace_trigger.h>
#include <trace/trace_output.h>
#include <trace/trace_probe_event.h>

#define EPROBE_GROUP	"eprobes"

/* One event on top of another. */
struct trace_eprobe {
	struct probe_event pe;
	struct trace_event_call *base;
	struct event_filter *filter;		/* `if ...` on the base's records; NULL: all */
	struct event_trigger_data *trigger;	/* on the base's top-instance file while armed */
	bool held;				/* base->refs counts it: the base cannot go */
};

static struct trace_eprobe *to_ep(const struct probe_event *pe)
{
	return container_of(pe, struct trace_eprobe, pe);
}

/* --- hits --------------------------------------------------------------------------------- */

static void eprobe_trigger(struct event_trigger_data *data, void *rec, unsigned int size)
{
	struct trace_eprobe *ep = data->private_data;

	if (ep->filter && !filter_match(ep->filter, rec))
		return;
	probe_event_hit(&ep->pe, &(struct probe_hit){ .event_rec = rec, .head = PROBE_HEAD_NONE,
						      .in_tracepoint = true });
}

/* Hidden: the base's trigger file does not list it (Linux's prints nothing either). */
static const struct event_trigger_ops eprobe_trigger_ops = {
	.trigger = eprobe_trigger,
};

static bool same_eprobe(const struct event_trigger_data *a, const struct event_trigger_data *b)
{
	return a->private_data == b->private_data;
}

static void eprobe_print_head(struct trace_seq *s, const struct probe_event *pe, const u8 *rec)
{
	const struct trace_event_call *base = to_ep(pe)->base;

	trace_seq_printf(s, "(%s.%s)", base->system, base->name);
}

static int eprobe_arm(struct probe_event *pe, bool on)
{
	struct trace_eprobe *ep = to_ep(pe);
	struct trace_event_file *file = trace_find_event_file(&global_trace, ep->base->system,
							      ep->base->name);
	struct event_trigger_data *data;
	int ret;

	if (!file)
		return -ENODEV;
	if (!on) {
		ret = event_trigger_unregister(file, ep->trigger, same_eprobe);
		ep->trigger = NULL;
		return ret;
	}
	data = kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	data->ops = &eprobe_trigger_ops;
	data->count = -1;
	data->private_data = ep;
	ret = event_trigger_register(file, data, same_eprobe);
	if (ret)
		kfree(data);
	else
		ep->trigger = data;
	return ret;
}

/* --- defining ----------------------------------------------------------------------------- */

static void trace_eprobe_free(struct probe_event *pe)
{
	struct trace_eprobe *ep = to_ep(pe);

	probe_event_free_common(pe);
	filter_free(ep->filter);
	if (ep->held)
		ep->base->refs--;
	kfree(ep);
}

/* `SYSTEM.EVENT` (or SYSTEM/EVENT): argv[1], a static or synthetic/user event. */
static int parse_base(struct trace_eprobe *ep, struct probe_cmd *c)
{
	const char *sys, *ev;
	int ret = probe_cmd_name(c, 1, c->argv[1], '.', &sys, &ev);

	if (ret || !sys || !ev)		/* Linux logs the name's own error, then this one */
		return probe_cmd_fail2(c, ret ? c->err.msg : NULL, c->err.pos,
				       "This requires both group and event name to attach",
				       c->pos[1], -EINVAL);
	ep->base = trace_find_event_call(sys, ev);
	if (!ep->base || probe_event_is(ep->base))
		return probe_cmd_fail(c, "Attached event does not exist", c->pos[1], -ENODEV);
	return 0;
}

/* `if FILTER` ends the line: compiled on the base event's fields. */
static int parse_filter(struct trace_eprobe *ep, struct probe_cmd *c, int at)
{
	struct filter_error ferr = { 0 };
	const char *text = c->text + c->pos[at + 1];
	int ret;

	if (at + 1 >= c->argc)
		return probe_cmd_fail(c, "No filter rule after 'if'", c->pos[at] + 3, -EINVAL);
	ret = filter_parse(ep->base, text, &ep->filter, &ferr);
	if (ret == -EINVAL)
		trace_log_filter_error(&global_trace, text, &ferr);
	return ret;
}

int trace_eprobe_create(struct probe_cmd *c)
{
	struct probe_ctx ctx = { .flags = PROBE_CTX_NOREGS | PROBE_CTX_EVENT };
	const char *group = NULL, *event = NULL;
	struct trace_eprobe *ep;
	char *colon;
	int ret, i;

	c->log_loc = "event_probe";
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->pe.type = &trace_eprobe_type;
	colon = strchr(c->argv[0], ':');
	if (c->argv[0][1] && c->argv[0][1] != ':') {
		ret = -ECHILD;		/* not an e line */
		goto fail;
	}
	if (c->argc < 2) {
		ret = -EINVAL;		/* Linux logs nothing for a line without an event */
		goto fail;
	}
	ret = colon ? probe_cmd_name(c, 0, colon + 1, '.', &group, &event) : 0;
	if (ret)
		goto fail;
	ret = parse_base(ep, c);
	ctx.event = ep->base;
	for (i = 2; !ret && i < c->argc && strcmp(c->argv[i], "if"); i++)
		ret = probe_arg_parse(&ep->pe.args, c->argv[i], c->pos[i], &ctx, &c->err);
	if (!ret && i < c->argc)
		ret = parse_filter(ep, c, i);
	if (ret)
		goto fail;
	ep->pe.group = kstrdup(group ? group : EPROBE_GROUP, GFP_KERNEL);
	ep->pe.event = kstrdup(event ? event : ep->base->name, GFP_KERNEL);
	ret = probe_event_add(&ep->pe, PROBE_HEAD_NONE, c, event ? (int)(event - c->argv[0]) : 0);
	if (!ret) {
		/* a synthetic or user event stays while an eprobe reads it, as Linux's */
		ep->base->refs++;
		ep->held = true;
		return 0;
	}
fail:
	trace_eprobe_free(&ep->pe);
	return ret;
}

static int eprobe_show(const struct probe_event *pe, char *buf, size_t size)
{
	const struct trace_eprobe *ep = to_ep(pe);

	return snprintf(buf, size, "e:%s/%s %s.%s", pe->group, pe->event, ep->base->system,
			ep->base->name);
}

const struct probe_event_type trace_eprobe_type = {
	.log_loc = "event_probe",
	.arm = eprobe_arm,
	.show = eprobe_show,
	.print_head = eprobe_print_head,
	.free = trace_eprobe_free,
	.size = sizeof(struct trace_eprobe),
};
