/*
 * spoor report -w: trace-cmd report's wakeup latency. A sched_wakeup (or
 * sched_wakeup_new) of a pid starts the clock; the sched_switch that puts
 * that pid on a CPU stops it: the switch line gets " Latency: N usecs"
 * and the run ends with the average, the maximum and the minimum, each
 * extreme with the timestamp of its switch; real-time tasks (the switch's
 * next_prio, unsigned, below 100) are summed once more on their own,
 * under "RT task timings".
 */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

#define WAKEUP_SLOTS	4096	/* open addressing on pid; more pending wake-ups are dropped */

/* A pid is whatever the field holds, as trace-cmd compares them (-1 included). */
struct wakeup_slot {
	bool used;
	uint64_t pid;
	uint64_t ts;
};

struct lat_stats {
	uint64_t total, count, max, min, max_ts, min_ts;
};

struct wakeup_lat {
	struct wakeup_slot slot[WAKEUP_SLOTS];
	struct lat_stats all, rt;	/* every task; real-time ones again */
};

struct wakeup_lat *wakeup_lat_new(void)
{
	struct wakeup_lat *w = calloc(1, sizeof(*w));

	if (!w)
		abort();
	return w;
}

static struct wakeup_slot *find(struct wakeup_lat *w, uint64_t pid, bool add)
{
	for (unsigned int i = 0, h = (unsigned int)(pid % WAKEUP_SLOTS); i < WAKEUP_SLOTS;
	     i++, h = (h + 1) % WAKEUP_SLOTS) {
		if (!w->slot[h].used)
			return add ? &w->slot[h] : NULL;
		if (w->slot[h].pid == pid)
			return &w->slot[h];
	}
	return NULL;
}

/* Remove s, re-placing the run after it so that lookups still find every pid. */
static void forget(struct wakeup_lat *w, struct wakeup_slot *s)
{
	unsigned int h = (unsigned int)(s - w->slot);

	s->used = false;
	for (h = (h + 1) % WAKEUP_SLOTS; w->slot[h].used; h = (h + 1) % WAKEUP_SLOTS) {
		struct wakeup_slot moved = w->slot[h];

		w->slot[h].used = false;
		*find(w, moved.pid, true) = moved;
	}
}

/* The field's value; false when the event has no such field. */
static bool field(const struct rep_ctx *ctx, const struct rep_event *ev,
		  const struct rep_record *r, const char *name, uint64_t *v)
{
	const struct rep_field *f = rep_find_field(ev, name);

	if (f)
		*v = rep_read_num(ctx, r, f->offset, f->size, false);
	return f;
}

static void add(struct lat_stats *st, uint64_t lat, uint64_t ts)
{
	if (!st->count || lat > st->max) {
		st->max = lat;
		st->max_ts = ts;
	}
	if (!st->count || lat < st->min) {
		st->min = lat;
		st->min_ts = ts;
	}
	st->total += lat;
	st->count++;
}

void wakeup_lat_record(struct wakeup_lat *w, const struct rep_ctx *ctx, const struct rep_event *ev,
		       const struct rep_record *r, struct obuf *o)
{
	struct wakeup_slot *s;
	uint64_t pid, lat, prio;

	if (strcmp(ev->system, "sched"))
		return;
	if (!strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new")) {
		/* The latest wake-up counts, as in trace-cmd. */
		if (field(ctx, ev, r, "pid", &pid) && (s = find(w, pid, true))) {
			s->used = true;
			s->pid = pid;
			s->ts = r->ts;
		}
		return;
	}
	if (strcmp(ev->name, "sched_switch") || !field(ctx, ev, r, "next_pid", &pid) ||
	    !(s = find(w, pid, false)))
		return;
	lat = r->ts - s->ts;
	ob_printf(o, " Latency: %llu.%03llu usecs", (unsigned long long)(lat / 1000),
		  (unsigned long long)(lat % 1000));
	add(&w->all, lat, r->ts);
	if (field(ctx, ev, r, "next_prio", &prio) && prio < 100)
		add(&w->rt, lat, r->ts);
	forget(w, s);
}

static void put_ts(struct obuf *o, uint64_t ts)
{
	uint64_t us = (ts + 500) / 1000;

	ob_printf(o, "%llu.%06llu", (unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000));
}

static void summary(const struct lat_stats *st, struct obuf *o)
{
	uint64_t avg = st->total / st->count;

	ob_printf(o, "\nAverage wakeup latency: %llu.%03llu usecs\n",
		  (unsigned long long)(avg / 1000), (unsigned long long)(avg % 1000));
	ob_printf(o, "Maximum Latency: %llu.%03llu usecs at timestamp: ",
		  (unsigned long long)(st->max / 1000), (unsigned long long)(st->max % 1000));
	put_ts(o, st->max_ts);
	ob_printf(o, "\nMinimum Latency: %llu.%03llu usecs at timestamp: ",
		  (unsigned long long)(st->min / 1000), (unsigned long long)(st->min % 1000));
	put_ts(o, st->min_ts);
	ob_puts(o, "\n");
}

void wakeup_lat_finish(struct wakeup_lat *w, struct obuf *o)
{
	if (w->all.count)
		summary(&w->all, o);
	if (w->rt.count) {
		ob_puts(o, "\nRT task timings:\n");
		summary(&w->rt, o);
	}
	if (w->all.count)
		ob_puts(o, "\n");
	ob_end_line(o);
	free(w);
}
