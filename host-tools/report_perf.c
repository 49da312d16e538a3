/*
 * spoor report FILE.perf.data: the samples of a perf.data (the guest's
 * perf record, or Linux's) printed as Linux's perf script prints them by
 * default for tracepoints:
 *
 *	COMM TID [CPU] SECS.USECS: SYSTEM:EVENT: print fmt text
 *
 * COMM right-aligned in 16 columns (left as is when a callchain follows,
 * one "\tADDR SYMBOL (DSO)" line per frame and a blank line), the event
 * name right-aligned to the longest of the file's. The events' formats
 * come from the file's tracing data (trace.dat's header blocks, read by
 * host-tools/tracedat_read.c), the text from the print-fmt machinery
 * trace.dat reports use (no plugins: perf prints the print fmt as it is).
 * As perf does, records are taken in time order and
 * task names follow the COMM and FORK records up to each sample.
 */
/* uses: user/perf/perf_data.c */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"
#include "user/perf/perf_data.h"

/* A record to process, in time order (seq keeps the file's order on ties). */
struct item {
	uint64_t time, seq;
	struct perf_data_rec rec;
};

/* Task names as perf's threads carry them: tid -> the latest COMM. */
struct names {
	struct name { int64_t tid; char comm[32]; } *slot;	/* tid -1: empty */
	size_t cap, nr;
};

static struct name *name_slot(struct names *n, uint32_t tid)
{
	size_t i = (tid * 2654435761u) & (n->cap - 1);

	while (n->slot[i].tid != -1 && n->slot[i].tid != tid)
		i = (i + 1) & (n->cap - 1);
	return &n->slot[i];
}

static void name_set(struct names *n, uint32_t tid, const char *comm, size_t len)
{
	struct name *s;

	if ((n->nr + 1) * 2 > n->cap) {
		struct names g = { calloc(n->cap ? n->cap * 2 : 256, sizeof(*g.slot)),
				   n->cap ? n->cap * 2 : 256, 0 };

		if (!g.slot)
			abort();
		for (size_t i = 0; i < g.cap; i++)
			g.slot[i].tid = -1;
		for (size_t i = 0; i < n->cap; i++)
			if (n->slot[i].tid != -1)
				*name_slot(&g, (uint32_t)n->slot[i].tid) = n->slot[i], g.nr++;
		free(n->slot);
		*n = g;
	}
	s = name_slot(n, tid);
	n->nr += s->tid == -1;
	s->tid = tid;
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)strnlen(comm, len), comm);
}

static const char *name_get(struct names *n, uint32_t tid)
{
	struct name *s = n->cap ? name_slot(n, tid) : NULL;

	return s && s->tid != -1 ? s->comm : NULL;
}

/* The time in a record's sample_id trailer (sample_id_all); 0 when it has none. */
static uint64_t trailer_time(const struct perf_data_attr *a, const struct perf_data_rec *r)
{
	uint64_t st = a->attr.sample_type, len = r->hdr.size - sizeof(r->hdr);
	unsigned int after = !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
			     !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);

	if (!(a->attr.flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL) || !(st & PERF_SAMPLE_TIME) ||
	    len < 8ull * (after + 1))
		return 0;
	return perf_data_u64(r->body + len - 8ull * (after + 1));
}

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Every SAMPLE, COMM and FORK record with its time; NULL on a damaged data section. */
static struct item *collect(struct tdat *t, struct perf_data_file *f, size_t *nr, uint64_t *lost)
{
	struct item *items = NULL;
	size_t cap = 0;
	struct perf_data_rec rec;
	const char *err;
	uint64_t pos = 0;

	*nr = 0;
	while (perf_data_next(f, &pos, &rec, &err)) {
		const struct perf_data_attr *a;
		struct perf_sample s;

		if (rec.hdr.type == PERF_RECORD_LOST && rec.hdr.size >= 24)
			*lost += perf_data_u64(rec.body + 8);
		if (rec.hdr.type != PERF_RECORD_SAMPLE && rec.hdr.type != PERF_RECORD_COMM &&
		    rec.hdr.type != PERF_RECORD_FORK)
			continue;
		if (*nr == cap) {
			cap = cap ? cap * 2 : 4096;
			items = realloc(items, cap * sizeof(*items));
			if (!items)
				abort();
		}
		a = rec.hdr.type == PERF_RECORD_SAMPLE ? NULL : perf_data_attr_of(f, &rec);
		if (rec.hdr.type == PERF_RECORD_SAMPLE && !perf_data_sample(f, &rec, &s, &err)) {
			tdat_diag(t, rec.offset, "%s", err);
			continue;
		}
		items[*nr] = (struct item){ a ? trailer_time(a, &rec) :
					    rec.hdr.type == PERF_RECORD_SAMPLE ? s.time : 0,
					    *nr, rec };
		(*nr)++;
	}
	if (err)
		tdat_diag(t, f->data_offset + pos, "%s", err);
	if (*nr)
		qsort(items, *nr, sizeof(*items), by_time);
	return items;
}

/* "ADDR SYMBOL+0xOFF (DSO)": kernel symbols from the file's kallsyms, no user ones. */
static void put_ip(struct rep_ctx *ctx, struct obuf *o, uint64_t ip)
{
	struct rep_sym sym;

	ob_printf(o, "%16llx ", (unsigned long long)ip);
	if (ip >> 63 && syms_find(&ctx->syms, ip, &sym))
		ob_printf(o, "%.*s+0x%llx ([kernel.kallsyms])", (int)sym.name_len, sym.name,
			  (unsigned long long)(ip - sym.addr));
	else
		ob_puts(o, "[unknown] ([unknown])");
}

static void put_callchain(struct rep_ctx *ctx, struct obuf *o, const struct perf_sample *s)
{
	for (uint64_t i = 0; i < s->nr_ips; i++) {
		uint64_t ip = perf_data_u64(s->ips + 8 * i);

		if (ip >= PERF_CONTEXT_MAX)
			continue;	/* a kernel/user marker, not a frame */
		ob_putc(o, '\t');
		put_ip(ctx, o, ip);
		ob_putc(o, '\n');
	}
	ob_putc(o, '\n');
}

static void print_sample(struct rep_ctx *ctx, struct obuf *o, const struct report_opts *opt,
			 struct names *names, int width, const struct perf_sample *s)
{
	const struct perf_event_attr *a = &s->attr->attr;
	struct rep_event *ev = a->type == PERF_TYPE_TRACEPOINT && a->config < 65536 ?
			       rep_event_by_id(ctx, (unsigned int)a->config) : NULL;
	struct rep_record r = { s->raw, s->raw_size, s->time, s->cpu, 0, -1 };
	bool chain = s->ips && s->nr_ips;
	const char *comm = name_get(names, s->tid);
	char unknown[16], evname[160];
	size_t start;

	if (ev && !report_event_selected(opt, ev))
		return;
	if (!report_record_selected(opt, &r, (int32_t)s->pid))
		return;
	snprintf(unknown, sizeof(unknown), ":%u", s->tid);
	comm = comm ? comm : s->tid ? unknown : "swapper";
	ob_printf(o, chain ? "%s " : "%16s ", comm);
	ob_printf(o, "%5d [%03u] %5llu.", (int)s->tid, s->cpu,
		  (unsigned long long)(s->time / 1000000000ull));
	if (opt->ns)
		ob_printf(o, "%09llu: ", (unsigned long long)(s->time % 1000000000ull));
	else
		ob_printf(o, "%06llu: ", (unsigned long long)(s->time % 1000000000ull / 1000));
	/* perf script's default fields: a tracepoint's text, or a counter's period and ip */
	if (ev) {
		snprintf(evname, sizeof(evname), "%s:%s", ev->system, ev->name);
	} else {
		perf_data_event_name(a, evname, sizeof(evname));
		ob_printf(o, "%10llu ", (unsigned long long)s->period);
	}
	ob_printf(o, "%*s: ", width, evname);
	start = o->len;
	if (!ev) {
		if (!chain) {
			ob_putc(o, ' ');
			put_ip(ctx, o, s->ip);
		}
	} else if (!s->raw) {
		/* a tracepoint sampled without RAW: nothing to print */
	} else if (opt->raw)
		rep_print_fields(ctx, o, ev, &r);
	else if (rep_event_print(ctx, ev))
		pf_print(ctx, o, ev->print, &r);
	else
		rep_print_fields(ctx, o, ev, &r);
	if (o->len > start && o->buf[o->len - 1] == '\n')
		o->len--;
	ob_putc(o, '\n');
	if (chain)
		put_callchain(ctx, o, s);
	ob_end_line(o);
}

/* perf script's event column: as wide as the longest event name of the file. */
static int name_width(struct rep_ctx *ctx, const struct perf_data_file *f)
{
	int w = 0;

	for (unsigned int i = 0; i < f->nr_attrs; i++) {
		const struct perf_event_attr *a = &f->attrs[i].attr;
		const struct rep_event *ev = a->type == PERF_TYPE_TRACEPOINT && a->config < 65536 ?
					     rep_event_by_id(ctx, (unsigned int)a->config) : NULL;
		char name[160];
		int n;

		if (ev) {
			n = (int)(strlen(ev->system) + 1 + strlen(ev->name));
		} else {
			perf_data_event_name(a, name, sizeof(name));
			n = (int)strlen(name);
		}
		w = n > w ? n : w;
	}
	return w;
}

int report_perf_run(const char *path, const unsigned char *buf, size_t size,
		    const struct report_opts *opt, FILE *out)
{
	struct perf_data_file f;
	struct tdat t;
	struct rep_ctx ctx;
	struct names names = { 0 };
	struct item *items;
	struct obuf o;
	const char *err;
	uint64_t lost = 0;
	size_t nr;
	int ret, width;

	if (perf_data_open(&f, buf, size, &err)) {
		t = (struct tdat){ .path = path };
		tdat_diag(&t, 0, "%s", err);
		return 2;
	}
	if (!f.tracing_size || tdat_open_tracing_data(&t, path, buf, size, f.tracing_offset,
						      f.tracing_size)) {
		if (!f.tracing_size) {
			t = (struct tdat){ .path = path };
			tdat_diag(&t, 0, "no HEADER_TRACING_DATA feature: the tracepoints cannot be decoded");
		}
		perf_data_close(&f);
		tdat_close(&t);
		return 2;
	}
	rep_ctx_init(&ctx, &t);
	report_load_events(&ctx, &t);
	width = name_width(&ctx, &f);
	items = collect(&t, &f, &nr, &lost);
	ob_init(&o, out);
	for (size_t i = 0; i < nr; i++) {
		const struct perf_data_rec *r = &items[i].rec;
		uint32_t ids[4];
		struct perf_sample s;

		if (r->hdr.type == PERF_RECORD_COMM && r->hdr.size > 16) {
			memcpy(ids, r->body, 8);
			name_set(&names, ids[1], (const char *)r->body + 8, r->hdr.size - 16u);
		} else if (r->hdr.type == PERF_RECORD_FORK && r->hdr.size >= 24) {
			const char *parent;

			memcpy(ids, r->body, sizeof(ids));	/* pid, ppid, tid, ptid */
			parent = name_get(&names, ids[3]);
			if (parent)
				name_set(&names, ids[2], parent, strlen(parent));
		} else if (r->hdr.type == PERF_RECORD_SAMPLE && perf_data_sample(&f, r, &s, &err)) {
			print_sample(&ctx, &o, opt, &names, width, &s);
		}
	}
	ob_free(&o);
	if (lost)
		fprintf(stderr, "spoor: report: %s: %llu samples were lost (PERF_RECORD_LOST)\n", path,
			(unsigned long long)lost);
	ret = t.errors ? 1 : 0;
	free(items);
	free(names.slot);
	rep_ctx_free(&ctx);
	tdat_close(&t);
	perf_data_close(&f);
	return ret;
}
