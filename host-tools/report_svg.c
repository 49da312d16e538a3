/*
 * spoor report --svg: a per-CPU timeline of a trace.dat. One lane per
 * CPU; the task running on it (from sched_switch) as coloured spans with
 * the comm-pid as tooltip and label; every event as a tick above the
 * lane, at most one tick per pixel and event so 10,000 events stay
 * readable; a time axis and a legend of the event colours.
 */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

#define SVG_WIDTH	1600.0	/* pixels of the time axis */
#define SVG_LEFT	70.0
#define SVG_LANE	46.0
#define SVG_TOP		30.0

struct span {
	uint64_t from, to;
	int32_t pid;
	char comm[17];
};

struct lane {
	unsigned int cpu;
	struct span *spans;
	size_t nr, cap;
	uint64_t *seen;		/* (pixel, event index) ticks already drawn, as a bitmap */
};

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

static const char *pid_color(int32_t pid)
{
	return pid ? palette[(uint32_t)pid * 2654435761u % 10] : "#dddddd";
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

static struct span *push_span(struct lane *l)
{
	if (l->nr == l->cap) {
		struct span *n = realloc(l->spans, (l->cap ? 2 * l->cap : 64) * sizeof(*n));

		if (!n)
			return NULL;
		l->spans = n;
		l->cap = l->cap ? 2 * l->cap : 64;
	}
	return &l->spans[l->nr++];
}

/* A comm array field as text. */
static void comm_field(const struct rep_event *ev, const struct rep_record *r, const char *name,
		       char out[17])
{
	const struct rep_field *f = rep_find_field(ev, name);
	size_t n = 0;

	if (f && f->offset + f->size <= r->size)
		for (; n < 16 && n < f->size && r->data[f->offset + n]; n++)
			out[n] = (char)r->data[f->offset + n];
	out[n] = 0;
}

static int32_t pid_field(struct rep_ctx *ctx, const struct rep_event *ev, const struct rep_record *r,
			 const char *name)
{
	const struct rep_field *f = rep_find_field(ev, name);

	return f ? (int32_t)rep_read_num(ctx, r, f->offset, f->size, true) : 0;
}

/* First pass: the time range and the spans from sched_switch. */
static void collect(struct rep_ctx *ctx, struct tdat *t, struct lane *lanes, uint64_t *tmin,
		    uint64_t *tmax)
{
	*tmin = UINT64_MAX;
	*tmax = 0;
	for (unsigned int i = 0; i < t->nr_data; i++) {
		struct page_iter it;
		struct rep_record r;
		struct lane *l = &lanes[i];

		l->cpu = t->cpus[i].cpu;
		page_iter_init(&it, ctx, &t->cpus[i], t->page_size);
		while (page_next(&it, &r)) {
			const struct rep_event *ev = r.size >= 8 ?
				ctx->by_id[(uint16_t)rep_read_num(ctx, &r, 0, 2, false)] : NULL;
			struct span *s;

			if (r.ts < *tmin)
				*tmin = r.ts;
			if (r.ts > *tmax)
				*tmax = r.ts;
			if (!ev || strcmp(ev->name, "sched_switch"))
				continue;
			if (l->nr)
				l->spans[l->nr - 1].to = r.ts;
			else if ((s = push_span(l))) {	/* who ran before the first switch */
				*s = (struct span){ .from = r.ts, .to = r.ts,
						    .pid = pid_field(ctx, ev, &r, "prev_pid") };
				comm_field(ev, &r, "prev_comm", s->comm);
				s->from = *tmin;
			}
			if ((s = push_span(l))) {
				*s = (struct span){ .from = r.ts, .to = r.ts,
						    .pid = pid_field(ctx, ev, &r, "next_pid") };
				comm_field(ev, &r, "next_comm", s->comm);
			}
		}
	}
}

int report_svg(struct rep_ctx *ctx, struct tdat *t, const struct report_opts *opt, const char *path)
{
	struct lane *lanes = calloc(t->nr_data ? t->nr_data : 1, sizeof(*lanes));
	uint64_t tmin, tmax;
	double span, height;
	FILE *f;

	if (!lanes)
		return -1;
	f = fopen(path, "w");
	if (!f) {
		rep_diag(ctx, 0, "--svg %s: cannot create the file", path);
		free(lanes);
		return -1;
	}
	collect(ctx, t, lanes, &tmin, &tmax);
	if (tmin > tmax)
		tmin = tmax = 0;
	span = tmax > tmin ? (double)(tmax - tmin) : 1.0;
	height = SVG_TOP + SVG_LANE * t->nr_data + 40 + 16.0 * ctx->nr_events;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"monospace\" font-size=\"11\">\n", SVG_LEFT + SVG_WIDTH + 20, height);
	fprintf(f, "<text x=\"4\" y=\"16\">%s: %.6f s .. %.6f s</text>\n", t->path, tmin / 1e9, tmax / 1e9);

	for (unsigned int i = 0; i < t->nr_data; i++) {
		struct lane *l = &lanes[i];
		double y = SVG_TOP + SVG_LANE * i;

		if (l->nr)
			l->spans[l->nr - 1].to = tmax;
		fprintf(f, "<text x=\"4\" y=\"%.1f\">CPU %u</text>\n", y + 30, l->cpu);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"#f4f4f4\"/>\n",
			SVG_LEFT, y + 16, SVG_WIDTH);
		for (size_t k = 0; k < l->nr; k++) {
			const struct span *s = &l->spans[k];
			double x0 = SVG_LEFT + (s->from - tmin) / span * SVG_WIDTH;
			double w = (s->to - s->from) / span * SVG_WIDTH;

			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"20\" fill=\"%s\">"
				"<title>", x0, y + 16, w > 0.2 ? w : 0.2, pid_color(s->pid));
			xml_text(f, s->comm);
			fprintf(f, "-%d</title></rect>\n", s->pid);
			if (w > 8.0 * (strlen(s->comm) + 6)) {
				fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", x0 + 2, y + 30);
				xml_text(f, s->comm);
				fprintf(f, "-%d</text>\n", s->pid);
			}
		}
		l->seen = calloc(((size_t)SVG_WIDTH + 1) * ctx->nr_events / 64 + 1, sizeof(uint64_t));
	}

	/* Second pass: ticks, one per pixel and event. */
	for (unsigned int i = 0; i < t->nr_data; i++) {
		struct page_iter it;
		struct rep_record r;
		double y = SVG_TOP + SVG_LANE * i;

		page_iter_init(&it, ctx, &t->cpus[i], t->page_size);
		while (page_next(&it, &r) && lanes[i].seen) {
			const struct rep_event *ev = r.size >= 8 ?
				ctx->by_id[(uint16_t)rep_read_num(ctx, &r, 0, 2, false)] : NULL;
			unsigned int e = 0, px;
			size_t bit;

			if (!ev || r.ts < opt->from || (opt->to && r.ts > opt->to))
				continue;
			while (e < ctx->nr_events && ctx->events[e] != ev)
				e++;
			px = (unsigned int)((r.ts - tmin) / span * SVG_WIDTH);
			bit = (size_t)px * ctx->nr_events + e;
			if (lanes[i].seen[bit / 64] & (1ull << (bit % 64)))
				continue;
			lanes[i].seen[bit / 64] |= 1ull << (bit % 64);
			fprintf(f, "<line x1=\"%u.5\" x2=\"%u.5\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
				(unsigned int)SVG_LEFT + px, (unsigned int)SVG_LEFT + px, y + 4, y + 14,
				palette[e % 10]);
		}
	}

	/* Axis and legend. */
	{
		double y = SVG_TOP + SVG_LANE * t->nr_data + 10;

		for (int k = 0; k <= 10; k++) {
			double x = SVG_LEFT + SVG_WIDTH * k / 10;

			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n",
				x, x, SVG_TOP, y);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%.6f</text>\n", x - 30, y + 12,
				(tmin + span * k / 10) / 1e9);
		}
		for (unsigned int e = 0; e < ctx->nr_events; e++) {
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
				"<text x=\"%.1f\" y=\"%.1f\">", SVG_LEFT, y + 24 + 16.0 * e, palette[e % 10],
				SVG_LEFT + 14, y + 33 + 16.0 * e);
			xml_text(f, ctx->events[e]->system);
			fputc(':', f);
			xml_text(f, ctx->events[e]->name);
			fputs("</text>\n", f);
		}
	}
	fputs("</svg>\n", f);
	fclose(f);
	for (unsigned int i = 0; i < t->nr_data; i++) {
		free(lanes[i].spans);
		free(lanes[i].seen);
	}
	free(lanes);
	return 0;
}
