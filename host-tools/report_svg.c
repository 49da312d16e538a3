/*
 * spoor report --svg: a per-CPU timeline of a trace.dat. One lane per
 * CPU; the task running on it (from sched_switch) as pastel spans, labelled
 * where they are wide enough; every event as a tick above the lane, in a
 * saturated colour of its own (at most one tick per pixel and event, so
 * 10,000 events stay readable). Spans and ticks carry <title> tooltips.
 * --from/--to set the axis, so they zoom spans and ticks alike; the axis
 * is labelled at round times. The legends list the events and the tasks
 * that occur in that window only.
 */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

#define SVG_WIDTH	1600.0	/* pixels of the time axis */
#define SVG_LEFT	70.0
#define SVG_LANE	46.0
#define SVG_TOP		30.0
#define SVG_ROW		16.0	/* a legend row */
#define SVG_MAX_TASK_ROWS 64	/* task legend entries; the rest are counted */

/* A task as the legend and the spans know it: colour by first appearance. */
struct task {
	int32_t pid;
	char comm[17];
	bool shown;		/* runs inside the window */
};

struct span {
	uint64_t from, to;
	size_t task;		/* index into the task table */
};

struct lane {
	unsigned int cpu;
	struct span *spans;
	size_t nr, cap;
	uint64_t *seen;		/* (pixel, event index) ticks already drawn, as a bitmap */
};

struct svg {
	struct rep_ctx *ctx;
	FILE *f;
	uint64_t lo, hi;	/* the axis */
	double scale;		/* pixels per ns */
	struct task *tasks;
	size_t nr_tasks;
	int *event_colour;	/* per ctx event: rank among the events shown, -1 if none */
	unsigned int nr_shown;
};

/*
 * Colour number i of a sequence: hues a golden angle apart stay distinct
 * however many there are. Events are dark and saturated, tasks pale, so a
 * tick never looks like a span.
 */
static void colour(FILE *f, size_t i, bool task)
{
	fprintf(f, "hsl(%u,%s)", (unsigned int)(i * 137508u / 1000 % 360), task ? "55%,80%" : "75%,38%");
}

static void xml_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '<')
			fputs("&lt;", f);
		else if (s[i] == '>')
			fputs("&gt;", f);
		else if (s[i] == '&')
			fputs("&amp;", f);
		else if ((unsigned char)s[i] >= 0x20)
			fputc(s[i], f);
	}
}

static struct span *push_span(struct lane *l)
{
	if (l->nr == l->cap) {
		struct span *n = realloc(l->spans, (l->cap ? 2 * l->cap : 64) * sizeof(*n));

		if (!n)
			abort();
		l->spans = n;
		l->cap = l->cap ? 2 * l->cap : 64;
	}
	return &l->spans[l->nr++];
}

/* The task table entry of (pid, comm field of the record), added if new. */
static size_t task_of(struct svg *s, const struct rep_event *ev, const struct rep_record *r,
		      const char *pid_name, const char *comm_name)
{
	const struct rep_field *pf = rep_find_field(ev, pid_name), *cf = rep_find_field(ev, comm_name);
	int32_t pid = pf ? (int32_t)rep_read_num(s->ctx, r, pf->offset, pf->size, true) : 0;
	char comm[17] = "";
	size_t i, n = 0;

	if (cf && cf->offset + cf->size <= r->size)
		for (; n < 16 && n < cf->size && r->data[cf->offset + n]; n++)
			comm[n] = (char)r->data[cf->offset + n];
	comm[n] = 0;
	for (i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].pid == pid && !strcmp(s->tasks[i].comm, comm))
			return i;
	s->tasks = realloc(s->tasks, (s->nr_tasks + 1) * sizeof(*s->tasks));
	if (!s->tasks)
		abort();
	s->tasks[i] = (struct task){ .pid = pid };
	memcpy(s->tasks[i].comm, comm, sizeof(comm));
	return s->nr_tasks++;
}

static struct rep_event *event_of(struct rep_ctx *ctx, const struct rep_record *r)
{
	return r->size >= 8 ? rep_event_by_id(ctx, (uint16_t)rep_read_num(ctx, r, 0, 2, false)) : NULL;
}

static unsigned int event_index(const struct rep_ctx *ctx, const struct rep_event *ev)
{
	unsigned int e = 0;

	while (e < ctx->nr_events && ctx->events[e] != ev)
		e++;
	return e;
}

/* First pass: the data's time range, the spans from sched_switch, which events occur. */
static void collect(struct svg *s, struct tdat *t, const struct report_opts *opt,
		    struct lane *lanes)
{
	uint64_t tmin = UINT64_MAX, tmax = 0;

	for (unsigned int i = 0; i < t->nr_data; i++) {
		struct page_iter it;
		struct rep_record r;
		struct lane *l = &lanes[i];

		l->cpu = t->cpus[i].cpu;
		page_iter_init(&it, s->ctx, t, &t->cpus[i]);
		while (page_next(&it, &r)) {
			const struct rep_event *ev = event_of(s->ctx, &r);
			struct span *sp;

			tmin = r.ts < tmin ? r.ts : tmin;
			tmax = r.ts > tmax ? r.ts : tmax;
			if (ev && r.ts >= opt->from && (!opt->to || r.ts <= opt->to))
				s->event_colour[event_index(s->ctx, ev)] = 0;
			if (!ev || strcmp(ev->name, "sched_switch"))
				continue;
			if (l->nr) {
				l->spans[l->nr - 1].to = r.ts;
			} else {	/* who ran before the first switch: from the start */
				sp = push_span(l);
				*sp = (struct span){ .from = 0, .to = r.ts,
						     .task = task_of(s, ev, &r, "prev_pid", "prev_comm") };
			}
			sp = push_span(l);
			*sp = (struct span){ .from = r.ts, .to = UINT64_MAX,
					     .task = task_of(s, ev, &r, "next_pid", "next_comm") };
		}
		page_iter_free(&it);
	}
	if (tmin > tmax)
		tmin = tmax = 0;
	for (unsigned int i = 0; i < t->nr_data; i++) {	/* the first and last spans' open ends */
		if (lanes[i].nr) {
			lanes[i].spans[0].from = tmin;
			lanes[i].spans[lanes[i].nr - 1].to = tmax;
		}
	}
	/* The axis: --from/--to as given, else the data's range. */
	s->lo = opt->from ? opt->from : tmin;
	s->hi = opt->to ? opt->to : tmax;
	if (s->hi <= s->lo)
		s->hi = s->lo + 1;
	s->scale = SVG_WIDTH / (double)(s->hi - s->lo);
	for (unsigned int e = 0; e < s->ctx->nr_events; e++)
		if (!s->event_colour[e])
			s->event_colour[e] = (int)s->nr_shown++;
}

static double x_of(const struct svg *s, uint64_t ts)
{
	return SVG_LEFT + (double)(ts - s->lo) * s->scale;
}

/* One span, cut to the window: a pale bar, a label if it fits, a tooltip. */
static void draw_span(struct svg *s, const struct lane *l, const struct span *sp, double y)
{
	uint64_t from = sp->from > s->lo ? sp->from : s->lo;
	uint64_t to = sp->to < s->hi ? sp->to : s->hi;
	struct task *tk = &s->tasks[sp->task];
	double x, w;

	if (sp->to <= s->lo || sp->from >= s->hi || to <= from)
		return;
	tk->shown = true;
	x = x_of(s, from);
	w = (double)(to - from) * s->scale;
	fprintf(s->f, "<rect class=\"task\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"20\" fill=\"",
		x, y + 16, w > 0.2 ? w : 0.2);
	if (tk->pid)
		colour(s->f, sp->task, true);
	else
		fputs("#e4e4e4", s->f);		/* idle */
	fputs("\"><title>", s->f);
	xml_text(s->f, tk->comm, sizeof(tk->comm));
	/* the span's own times, even where the window cuts it */
	fprintf(s->f, "-%d on CPU %u\nstart %.6f s\nduration %.6f s</title></rect>\n", tk->pid,
		l->cpu, sp->from / 1e9, (sp->to - sp->from) / 1e9);
	if (w > 7.0 * (strlen(tk->comm) + 8)) {
		fprintf(s->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 2, y + 30);
		xml_text(s->f, tk->comm, sizeof(tk->comm));
		fprintf(s->f, "-%d</text>\n", tk->pid);
	}
}

/* Second pass: ticks inside the window, one per pixel and event, each with its text. */
static void draw_ticks(struct svg *s, struct tdat *t, struct lane *lanes)
{
	struct obuf text;

	ob_init(&text, NULL);
	for (unsigned int i = 0; i < t->nr_data; i++) {
		struct page_iter it;
		struct rep_record r;
		double y = SVG_TOP + SVG_LANE * i;

		page_iter_init(&it, s->ctx, t, &t->cpus[i]);
		while (page_next(&it, &r)) {
			struct rep_event *ev = event_of(s->ctx, &r);
			unsigned int e, px;
			size_t bit;

			if (!ev || r.ts < s->lo || r.ts > s->hi)
				continue;
			e = event_index(s->ctx, ev);
			px = (unsigned int)((double)(r.ts - s->lo) * s->scale);
			bit = (size_t)px * s->ctx->nr_events + e;
			if (lanes[i].seen[bit / 64] & (1ull << (bit % 64)))
				continue;
			lanes[i].seen[bit / 64] |= 1ull << (bit % 64);
			text.len = 0;
			report_event_text(s->ctx, &text, ev, &r);
			fprintf(s->f, "<line class=\"event\" x1=\"%u.5\" x2=\"%u.5\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"", (unsigned int)SVG_LEFT + px, (unsigned int)SVG_LEFT + px,
				y + 2, y + 14);
			colour(s->f, (size_t)s->event_colour[e], false);
			fprintf(s->f, "\" stroke-width=\"2\"><title>%.6f CPU %u %s:%s: ", r.ts / 1e9,
				r.cpu, ev->system, ev->name);
			xml_text(s->f, text.buf, text.len);
			fputs("</title></line>\n", s->f);
		}
		page_iter_free(&it);
	}
	ob_free(&text);
}

/* Grid lines and labels at round times: steps of 1, 2 or 5 times a power of ten. */
static void draw_axis(struct svg *s, double y)
{
	uint64_t raw = (s->hi - s->lo) / 10, mag = 1, step;
	int decimals = 9;	/* of a second, for labels in steps of a nanosecond */

	while (mag * 10 <= raw)
		mag *= 10;
	step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
	for (uint64_t p = 10; p <= step && decimals > 0; p *= 10)
		decimals--;
	for (uint64_t v = (s->lo + step - 1) / step * step; v <= s->hi; v += step) {
		double x = x_of(s, v);

		fprintf(s->f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#bbb\"/>\n", x, x, SVG_TOP, y);
		fprintf(s->f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n",
			x, y + 12, decimals, (double)v / 1e9);
	}
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\">s</text>\n", SVG_LEFT + SVG_WIDTH + 6, y + 12);
}

/* Event legend, then task legend: only what occurs in the window. */
static void draw_legends(struct svg *s, double y)
{
	size_t row = 0, tasks = 0;

	for (unsigned int e = 0; e < s->ctx->nr_events; e++) {
		if (s->event_colour[e] < 0)
			continue;
		fprintf(s->f, "<rect class=\"event-key\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"",
			SVG_LEFT, y + SVG_ROW * row);
		colour(s->f, (size_t)s->event_colour[e], false);
		fprintf(s->f, "\"/><text x=\"%.1f\" y=\"%.1f\">", SVG_LEFT + 14, y + 9 + SVG_ROW * row);
		xml_text(s->f, s->ctx->events[e]->system, SIZE_MAX);
		fputc(':', s->f);
		xml_text(s->f, s->ctx->events[e]->name, SIZE_MAX);
		fputs("</text>\n", s->f);
		row++;
	}
	row = 0;
	for (size_t i = 0; i < s->nr_tasks; i++) {
		const struct task *tk = &s->tasks[i];

		if (!tk->shown || tasks++ >= SVG_MAX_TASK_ROWS)
			continue;
		fprintf(s->f, "<rect class=\"task-key\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"",
			SVG_LEFT + SVG_WIDTH / 2, y + SVG_ROW * row);
		if (tk->pid)
			colour(s->f, i, true);
		else
			fputs("#e4e4e4", s->f);
		fprintf(s->f, "\"/><text x=\"%.1f\" y=\"%.1f\">", SVG_LEFT + SVG_WIDTH / 2 + 14,
			y + 9 + SVG_ROW * row);
		xml_text(s->f, tk->comm, sizeof(tk->comm));
		fprintf(s->f, "-%d</text>\n", tk->pid);
		row++;
	}
	if (tasks > SVG_MAX_TASK_ROWS)
		fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\">and %zu more tasks</text>\n",
			SVG_LEFT + SVG_WIDTH / 2, y + 9 + SVG_ROW * row, tasks - SVG_MAX_TASK_ROWS);
}

void report_svg(struct rep_ctx *ctx, struct tdat *t, const struct report_opts *opt, FILE *f)
{
	struct lane *lanes = calloc(t->nr_data ? t->nr_data : 1, sizeof(*lanes));
	struct svg s = { .ctx = ctx, .f = f };
	size_t rows, shown_tasks = 0;
	double legend_y;

	s.event_colour = malloc((ctx->nr_events ? ctx->nr_events : 1) * sizeof(int));
	if (!lanes || !s.event_colour)
		abort();
	for (unsigned int e = 0; e < ctx->nr_events; e++)
		s.event_colour[e] = -1;
	collect(&s, t, opt, lanes);
	/* Spans first (they mark the tasks the legend shows), into memory: the height needs them. */
	{
		char *body = NULL;
		size_t body_len = 0;
		FILE *b = open_memstream(&body, &body_len);

		if (!b)
			abort();
		s.f = b;
		for (unsigned int i = 0; i < t->nr_data; i++) {
			struct lane *l = &lanes[i];
			double y = SVG_TOP + SVG_LANE * i;

			fprintf(b, "<text x=\"4\" y=\"%.1f\">CPU %u</text>\n", y + 30, l->cpu);
			fprintf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"#f7f7f7\"/>\n",
				SVG_LEFT, y + 16, SVG_WIDTH);
			for (size_t k = 0; k < l->nr; k++)
				draw_span(&s, l, &l->spans[k], y);
			l->seen = calloc(((size_t)SVG_WIDTH + 1) * ctx->nr_events / 64 + 1, sizeof(uint64_t));
			if (!l->seen)
				abort();
		}
		draw_ticks(&s, t, lanes);
		legend_y = SVG_TOP + SVG_LANE * t->nr_data + 10;
		draw_axis(&s, legend_y);
		draw_legends(&s, legend_y + 24);
		fclose(b);
		s.f = f;
		for (size_t i = 0; i < s.nr_tasks; i++)
			shown_tasks += s.tasks[i].shown;
		rows = shown_tasks > SVG_MAX_TASK_ROWS ? SVG_MAX_TASK_ROWS + 1 : shown_tasks;
		rows = rows > s.nr_shown ? rows : s.nr_shown;
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			"font-family=\"monospace\" font-size=\"11\">\n", SVG_LEFT + SVG_WIDTH + 30,
			legend_y + 34 + SVG_ROW * (double)rows);
		fputs("<text x=\"4\" y=\"16\">", f);
		xml_text(f, t->path, SIZE_MAX);
		fprintf(f, ": %.6f s .. %.6f s</text>\n", s.lo / 1e9, s.hi / 1e9);
		fwrite(body, 1, body_len, f);
		free(body);
	}
	fputs("</svg>\n", f);
	for (unsigned int i = 0; i < t->nr_data; i++) {
		free(lanes[i].spans);
		free(lanes[i].seen);
	}
	free(lanes);
	free(s.tasks);
	free(s.event_colour);
}
