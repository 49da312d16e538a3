/*
 * enable_hist / disable_hist: triggers that continue or pause every hist
 * trigger of another event when theirs fires, e.g.
 *
 *   echo 'enable_hist:kmem:kmalloc if pid == 1' > events/sched/sched_switch/trigger
 *
 * The text after the command word is `:<system>:<event>[:count] [if filter]`;
 * the count and filter are the trigger framework's, this file resolves the
 * target and acts on it. Pure.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <trace/hist.h>
#include <trace/trace_events_hist.h>

int hist_enable_parse_target(struct hist_instance *inst, const char *param,
			     struct hist_event **target, const char **rest)
{
	char system[64], event[64];
	size_t n_sys, n_ev;
	const char *p = param;

	if (*p++ != ':')
		return -EINVAL;
	n_sys = strcspn(p, ": \t");
	if (!n_sys || n_sys >= sizeof(system) || p[n_sys] != ':')
		return -EINVAL;
	memcpy(system, p, n_sys);
	system[n_sys] = '\0';
	p += n_sys + 1;
	n_ev = strcspn(p, ": \t");
	if (!n_ev || n_ev >= sizeof(event))
		return -EINVAL;
	memcpy(event, p, n_ev);
	event[n_ev] = '\0';
	*target = hist_find_event(inst, system, event);
	if (!*target)
		return -EINVAL;
	*rest = p + n_ev;
	return 0;
}

int hist_enable_print(char *buf, size_t size, bool enable, const struct hist_event *target)
{
	return scnprintf(buf, size, "%s:%s:%s", enable ? "enable_hist" : "disable_hist",
			 target->system, target->name);
}

void hist_enable_fire(struct hist_event *target, bool enable)
{
	struct hist_trigger_data *hd;

	/* Linux flips each trigger of the target alone, named ones included. */
	list_for_each_entry(hd, &target->triggers, list)
		WRITE_ONCE(hd->paused, !enable);
}
