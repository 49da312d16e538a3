/*
 * spoor report: print the events of a trace.dat as trace-cmd report does
 * (or in the layout of the guest's `trace` file), merged across CPUs by
 * time. See host-tools/report.h for the pieces and docs/decoder.md for
 * the options and the design.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host-tools/report.h"
#include "host-tools/spoor.h"

/* Records with an id no format describes: the first few are named, then counted. */
#define UNKNOWN_ID_REPORTS	10


/* "1.5" seconds -> ns, exactly (no floating point). */
static int parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	const char *p = s;

	if (!*p)
		return -1;
	while (*p >= '0' && *p <= '9' && sec < 1000000000000ull)
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
			p++;
		}
	}
	if (*p)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* "0,2-3" -> bitmap. */
static int parse_cpus(const char *s, uint64_t *map)
{
	while (*s) {
		char *e;
		unsigned long a = strtoul(s, &e, 10), b = a;

		if (e == s)
			return -1;
		if (*e == '-') {
			s = e + 1;
			b = strtoul(s, &e, 10);
			if (e == s)
				return -1;
		}
		if (a > b || b >= 64 * 64)
			return -1;
		for (unsigned long c = a; c <= b; c++)
			map[c / 64] |= 1ull << (c % 64);
		s = *e == ',' ? e + 1 : e;
		if (*e && *e != ',')
			return -1;
	}
	return 0;
}

bool report_event_selected(const struct report_opts *o, const struct rep_event *ev)
{
	char full[256];

	if (!o->nr_events)
		return true;
	snprintf(full, sizeof(full), "%s:%s", ev->system, ev->name);
	for (unsigned int i = 0; i < o->nr_events; i++) {
		const char *pat = o->events[i];

		if (!fnmatch(pat, strchr(pat, ':') ? full : ev->name, 0) ||
		    (!strchr(pat, ':') && !fnmatch(pat, ev->system, 0)))
			return true;
	}
	return false;
}

bool report_record_selected(const struct report_opts *o, const struct rep_record *r, int32_t pid)
{
	if (o->cpu_filter && (r->cpu >= 64 * 64 || !(o->cpus[r->cpu / 64] & (1ull << (r->cpu % 64)))))
		return false;
	if (r->ts < o->from || (o->to && r->ts > o->to))
		return false;
	if (o->nr_pids) {
		for (unsigned int i = 0; i < o->nr_pids; i++)
			if (o->pids[i] == pid)
				return true;
		return false;
	}
	return true;
}

static const char *comm_of(const struct rep_ctx *ctx, int32_t pid)
{
	const char *c;

	if (!pid)
		return "<idle>";
	c = syms_comm(&ctx->syms, pid);
	return c ? c : "<...>";
}

/* "%16s" without printf. */
static void put_right(struct obuf *o, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n < width)
		ob_pad(o, ' ', width - n);
	ob_write(o, s, n);
}

/* The guest's flags column (irqs-off, need-resched, hard/softirq, preempt, migrate). */
static void lat_flags(struct obuf *o, unsigned int f, unsigned int pc)
{
	static const char hex[] = "0123456789abcdef";
	bool irqs_off = f & 0x01, bh_off = f & 0x80, nmi = f & 0x40, hard = f & 0x08, soft = f & 0x10;

	ob_putc(o, irqs_off && bh_off ? 'D' : irqs_off ? 'd' : bh_off ? 'b' : f & 0x02 ? 'X' : '.');
	ob_putc(o, (f & 0x24) == 0x24 ? 'N' : f & 0x04 ? 'n' : f & 0x20 ? 'p' : '.');
	ob_putc(o, nmi && hard ? 'Z' : nmi ? 'z' : hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.');
	ob_putc(o, pc & 0xf ? hex[pc & 0xf] : '.');
	ob_putc(o, pc >> 4 ? hex[(pc >> 4) & 0xf] : '.');
}

/*
 * trace-cmd's (libtraceevent's) older reading of the same bits: irqs off
 * (or X: not supported), need-resched, hard/soft irq, preempt depth and
 * migrate-disable depth; no BH-off or NMI letters.
 */
static void tep_lat_flags(struct obuf *o, unsigned int f, unsigned int pc)
{
	static const char hex[] = "0123456789abcdef";
	bool hard = f & 0x08, soft = f & 0x10;

	ob_putc(o, f & 0x01 ? 'd' : f & 0x02 ? 'X' : '.');
	ob_putc(o, f & 0x04 ? 'N' : '.');
	ob_putc(o, hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.');
	ob_putc(o, pc & 0xf ? hex[pc & 0xf] : '.');
	ob_putc(o, pc >> 4 ? hex[(pc >> 4) & 0xf] : '.');
}

/* "%-*d" for the pid column. */
static void put_pid(struct obuf *o, int32_t pid, size_t width)
{
	size_t start = o->len;

	ob_s64(o, pid);
	if (o->len - start < width)
		ob_pad(o, ' ', width - (o->len - start));
}

/* What lines depend on besides their own record. */
struct print_state {
	uint64_t prev_ts;	/* --ts-diff: the line before */
	bool have_prev;
	struct wakeup_lat *wakeup;	/* -w, or NULL */
};

/* trace-cmd -l: "%8.8s-%-5d %3d" and the five flag characters before the time. */
static void latency_columns(struct rep_ctx *ctx, struct obuf *o, const struct rep_record *r,
			    int32_t pid)
{
	char comm[9];

	snprintf(comm, sizeof(comm), "%s", comm_of(ctx, pid));
	put_right(o, comm, 8);
	ob_putc(o, '-');
	put_pid(o, pid, 5);
	ob_putc(o, ' ');
	ob_u64_width(o, r->cpu, 3, ' ');
	tep_lat_flags(o, r->size > 2 ? r->data[2] : 0, r->size > 3 ? r->data[3] : 0);
	ob_putc(o, ' ');
}

/*
 * --ts-diff: "(+N)" padded to 8, blanks on the first line. N is the
 * difference of the times as shown (microseconds, each rounded; ns with -t).
 */
static void ts_diff(struct obuf *o, const struct report_opts *opt, struct print_state *ps,
		    uint64_t ts)
{
	char diff[32] = "";

	if (ps->have_prev)
		snprintf(diff, sizeof(diff), "(+%llu)",
			 (unsigned long long)(opt->ns ? ts - ps->prev_ts :
					      (ts + 500) / 1000 - (ps->prev_ts + 500) / 1000));
	ob_printf(o, "%-8s ", diff);
	ps->prev_ts = ts;
	ps->have_prev = true;
}

void report_event_text(struct rep_ctx *ctx, struct obuf *o, struct rep_event *ev,
		       const struct rep_record *r)
{
	if (!ctx->no_plugins && ev->plugin && rep_plugin_print(ctx, o, ev, r))
		return;
	if (rep_event_print(ctx, ev)) {
		pf_print(ctx, o, ev->print, r);
	} else {
		ob_puts(o, "[FAILED TO PARSE]");
		rep_print_fields(ctx, o, ev, r);
	}
}

/* One record as a line. */
static void print_record(struct rep_ctx *ctx, struct obuf *o, const struct report_opts *opt,
			 struct print_state *ps, struct rep_event *ev, const struct rep_record *r,
			 int32_t pid)
{
	size_t start, nlen;

	if (r->missed >= 0) {
		if (r->missed)
			ob_printf(o, "CPU:%u [%lld EVENTS DROPPED]\n", r->cpu, (long long)r->missed);
		else
			ob_printf(o, "CPU:%u [EVENTS DROPPED]\n", r->cpu);
	}
	if (opt->latency) {
		latency_columns(ctx, o, r, pid);
	} else {
		put_right(o, comm_of(ctx, pid), 16);
		ob_putc(o, '-');
		put_pid(o, pid, opt->trace_layout ? 7 : 5);
		ob_puts(o, " [");
		ob_u64_width(o, r->cpu, 3, '0');
		ob_puts(o, "] ");
		if (opt->trace_layout) {
			lat_flags(o, r->size > 2 ? r->data[2] : 0, r->size > 3 ? r->data[3] : 0);
			ob_putc(o, ' ');
		}
	}
	ob_time(o, r->ts, opt->ns);
	ob_puts(o, ": ");
	if (opt->ts_diff)
		ts_diff(o, opt, ps, r->ts);
	if (opt->trace_layout) {
		/* The guest's layout: "name: " unpadded. */
		ob_puts(o, ev->name);
		ob_puts(o, ": ");
	} else {
		/* "name:" padded to 21 columns, then a space, made once per event. */
		if (!ev->head) {
			nlen = strlen(ev->name) + 1;
			ev->head = malloc(nlen + 22);
			if (!ev->head)
				abort();
			ev->head_len = (size_t)sprintf(ev->head, "%s:%*s", ev->name,
						       nlen < 21 ? (int)(22 - nlen) : 1, "");
		}
		ob_write(o, ev->head, ev->head_len);
	}
	start = o->len;
	if (opt->raw)	/* trace-cmd -R: " name=value" per field. */
		rep_print_fields(ctx, o, ev, r);
	else
		report_event_text(ctx, o, ev, r);
	/* trace-cmd drops the newline a printed text ends with (ftrace:print). */
	if (o->len > start && o->buf[o->len - 1] == '\n')
		o->len--;
	if (ps->wakeup)
		wakeup_lat_record(ps->wakeup, ctx, ev, r, o);
	ob_putc(o, '\n');
	ob_end_line(o);
}

void report_load_events(struct rep_ctx *ctx, struct tdat *t)
{
	for (unsigned int i = 0; i < t->nr_formats; i++)
		rep_add_format(ctx, t->formats[i].system, t->formats[i].text.data,
			       t->formats[i].text.len, t->formats[i].text.offset);
	syms_load_file_kallsyms(&ctx->syms, t);
	syms_load_cmdlines(&ctx->syms, t->cmdlines.data, t->cmdlines.len);
}

/* The CPU whose record prints next: lowest time first, on a tie the lower CPU, as trace-cmd. */
static int next_cpu(const struct rep_record *head, const bool *live, unsigned int n)
{
	int best = -1;

	for (unsigned int i = 0; i < n; i++)
		if (live[i] && (best < 0 || head[i].ts < head[best].ts))
			best = (int)i;
	return best;
}

/*
 * A funcgraph entry: a leaf when the next record to print is its return
 * (report_graph.c), which it then takes with it. The entry is copied into
 * buf first: stepping its CPU to the next record may unmap its page.
 */
static void print_graph_entry(struct rep_ctx *ctx, struct obuf *o, const struct report_opts *opt,
			      struct print_state *ps, struct rep_event *ev, struct rep_record *r,
			      int32_t pid, struct page_iter *it, struct rep_record *head, bool *live,
			      unsigned int n, unsigned char *buf)
{
	struct rep_record entry = *r;
	unsigned int cpu = (unsigned int)(r - head);
	int next;

	memcpy(buf, r->data, r->size);
	entry.data = buf;
	live[cpu] = page_next(&it[cpu], &head[cpu]);
	next = next_cpu(head, live, n);
	if (next >= 0 && head[next].size >= 8) {
		struct rep_event *nev = rep_event_by_id(ctx, (unsigned int)rep_read_num(ctx, &head[next], 0, 2, false));

		if (rep_graph_is_return_of(ctx, ev, &entry, nev, &head[next])) {
			ctx->graph_ret = &head[next];
			ctx->graph_ret_ev = nev;
		}
	}
	print_record(ctx, o, opt, ps, ev, &entry, pid);
	if (ctx->graph_ret)
		live[next] = page_next(&it[next], &head[next]);
	ctx->graph_ret = NULL;
	ctx->graph_ret_ev = NULL;
}

/* Merge the CPUs by time and print. Returns the number of records printed. */
static uint64_t print_all(struct rep_ctx *ctx, struct tdat *t, const struct report_opts *opt,
			  const struct report_filter *filters, struct obuf *o)
{
	unsigned int n = t->nr_data, unknown = 0;
	struct page_iter *it = calloc(n ? n : 1, sizeof(*it));
	struct rep_record *head = calloc(n ? n : 1, sizeof(*head));
	bool *live = calloc(n ? n : 1, sizeof(*live));
	struct print_state ps = { .wakeup = opt->wakeup ? wakeup_lat_new() : NULL };
	uint64_t printed = 0;
	unsigned char graph_entry[256];

	if (!it || !head || !live)
		abort();
	for (unsigned int i = 0; i < n; i++) {
		page_iter_init(&it[i], ctx, t, &t->cpus[i]);
		live[i] = page_next(&it[i], &head[i]);
	}
	for (;;) {
		int best = next_cpu(head, live, n);
		struct rep_record *r;
		struct rep_event *ev;
		uint16_t id;
		int32_t pid;

		if (best < 0)
			break;
		r = &head[best];
		r->ts += (uint64_t)t->ts_offset;
		if (r->size < 8) {
			rep_diag(ctx, r->offset, "CPU %u: record of %u bytes is too short for the common fields",
				 r->cpu, r->size);
			goto advance;
		}
		id = (uint16_t)rep_read_num(ctx, r, 0, 2, false);
		pid = (int32_t)rep_read_num(ctx, r, 4, 4, true);
		ev = rep_event_by_id(ctx, id);
		if (!ev) {
			if (unknown++ < UNKNOWN_ID_REPORTS)
				rep_diag(ctx, r->offset, "CPU %u: event id %u has no format; record skipped",
					 r->cpu, id);
			goto advance;
		}
		if (report_event_selected(opt, ev) && report_record_selected(opt, r, pid) &&
		    report_filter_match(filters, ctx, ev, r, pid)) {
			if (ev->plugin == PLUGIN_FUNCGRAPH_ENTRY && !ctx->no_plugins && !opt->raw &&
			    r->size <= sizeof(graph_entry)) {
				print_graph_entry(ctx, o, opt, &ps, ev, r, pid, it, head, live, n,
						  graph_entry);
				printed++;
				continue;
			}
			print_record(ctx, o, opt, &ps, ev, r, pid);
			printed++;
		}
advance:
		live[best] = page_next(&it[best], &head[best]);
	}
	if (ps.wakeup)
		wakeup_lat_finish(ps.wakeup, o);
	if (unknown > UNKNOWN_ID_REPORTS)
		rep_diag(ctx, 0, "%u records in all had an event id with no format", unknown);
	for (unsigned int i = 0; i < n; i++)
		page_iter_free(&it[i]);
	free(it);
	free(head);
	free(live);
	return printed;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: spoor report [OPTIONS] [FILE]   (FILE defaults to trace.dat)\n"
		"  -i FILE         the trace.dat (or perf.data: printed as perf script does) to read\n"
		"  -e EVENT        only this event: sys:name, name or sys (globs allowed); repeatable\n"
		"  -F 'EVENTS[:FILTER]'  trace-cmd's filters: EVENTS is SYS/EVENT, SYS or EVENT\n"
		"                  (regexes, ','-separated); FILTER compares fields: == != < <= > >=\n"
		"                  =~ !~ (regex) ~ (glob) & with && || ! ( ); repeatable (any may pass)\n"
		"  --cpu LIST      only these CPUs, e.g. 0,2-3\n"
		"  -P PID          only records of this pid; repeatable\n"
		"  --from SECS     only records at or after this time (e.g. 12.5)\n"
		"  --to SECS       only records at or before this time\n"
		"  -R              raw: every field as name=value instead of the print fmt\n"
		"  -N              no plugin renderings (trace-cmd -N)\n"
		"  -t              timestamps in nanoseconds\n"
		"  -l              latency format: CPU and the irq/preempt flags before the time\n"
		"  --ts-diff       the time since the line before, (+us) or (+ns) with -t\n"
		"  -w              wakeup latencies (sched_wakeup to sched_switch), then a summary\n"
		"  -q              no diagnostics on stderr (the exit status still says)\n"
		"  --trace         the guest's `trace` file layout (flags column, wider pid)\n"
		"  --svg OUT       also draw a per-CPU timeline as an SVG file\n"
		"  --stat          no events: the buffer statistics the file kept and where\n"
		"                  each CPU's data is (trace-cmd report --stat)\n");
}

/* An -e pattern that matches no event of the file is a mistake: name it. */
static bool unknown_events(const struct rep_ctx *ctx, const struct report_opts *opt)
{
	bool bad = false;

	for (unsigned int i = 0; i < opt->nr_events; i++) {
		struct report_opts one = { .events = &opt->events[i], .nr_events = 1 };
		bool found = false;

		for (unsigned int e = 0; e < ctx->nr_events && !found; e++)
			found = report_event_selected(&one, ctx->events[e]);
		if (!found) {
			spoor_err("report: -e %s: no such event in the file", opt->events[i]);
			bad = true;
		}
	}
	return bad;
}

static int map_file(const char *path, unsigned char **buf, size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		spoor_err("report: %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*size = (size_t)st.st_size;
	*buf = *size ? mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (*size && *buf == MAP_FAILED) {
		spoor_err("report: %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int report_run(const char *path, const unsigned char *buf, size_t size,
	       const struct report_opts *opt, FILE *out)
{
	struct report_filter *filters = NULL;
	FILE *svg = NULL;
	struct tdat t;
	struct rep_ctx ctx;
	struct obuf o;
	bool bad;
	int ret;

	if (size >= 8 && !memcmp(buf, "PERFILE2", 8))
		return report_perf_run(path, buf, size, opt, out);
	if (tdat_open(&t, path, buf, size)) {
		tdat_close(&t);
		return 2;
	}
	rep_ctx_init(&ctx, &t);
	ctx.no_plugins = opt->no_plugins;
	ctx.ns = opt->ns;
	report_load_events(&ctx, &t);
	bad = unknown_events(&ctx, opt);
	for (unsigned int i = 0; i < opt->nr_filters; i++)
		bad |= report_filter_add(&filters, &ctx, opt->filters[i]) < 0;
	if (bad) {
		report_filter_free(filters);
		rep_ctx_free(&ctx);
		tdat_close(&t);
		return 2;
	}
	/* Before any output: a picture that cannot be written is a usage error. */
	if (opt->svg && !(svg = fopen(opt->svg, "w"))) {
		spoor_err("report: --svg %s: %s", opt->svg, strerror(errno));
		report_filter_free(filters);
		rep_ctx_free(&ctx);
		tdat_close(&t);
		return 2;
	}
	ob_init(&o, out);
	ob_printf(&o, "cpus=%u\n", t.nr_cpus);
	print_all(&ctx, &t, opt, filters, &o);
	report_filter_free(filters);
	ob_free(&o);
	if (svg) {
		report_svg(&ctx, &t, opt, svg);
		if (fclose(svg)) {
			spoor_err("report: --svg %s: %s", opt->svg, strerror(errno));
			t.errors++;
		}
	}
	ret = t.errors ? 1 : 0;
	rep_ctx_free(&ctx);
	tdat_close(&t);
	return ret;
}

/* Long options without a letter. */
enum { OPT_FROM = 0x100, OPT_TO, OPT_STAT };

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "trace", no_argument, NULL, 'L' },
		{ "ts-diff", no_argument, NULL, 'D' },
		{ "svg", required_argument, NULL, 'S' },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts opt = { 0 };
	const char *path = NULL;
	unsigned char *buf = NULL;
	size_t size = 0;
	bool stat = false;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:e:F:P:RNtqlwh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'e':
			opt.events = realloc(opt.events, (opt.nr_events + 1) * sizeof(*opt.events));
			if (!opt.events)
				abort();
			opt.events[opt.nr_events++] = optarg;
			break;
		case 'F':
			opt.filters = realloc(opt.filters, (opt.nr_filters + 1) * sizeof(*opt.filters));
			if (!opt.filters)
				abort();
			opt.filters[opt.nr_filters++] = optarg;
			break;
		case 'P': {
			char *e;
			long pid = strtol(optarg, &e, 10);

			if (*e || e == optarg) {
				spoor_err("report: -P %s: not a pid", optarg);
				return 2;
			}
			opt.pids = realloc(opt.pids, (opt.nr_pids + 1) * sizeof(*opt.pids));
			if (!opt.pids)
				abort();
			opt.pids[opt.nr_pids++] = (int32_t)pid;
			break;
		}
		case 'C':
			if (parse_cpus(optarg, opt.cpus)) {
				spoor_err("report: --cpu %s: expected a list like 0,2-3", optarg);
				return 2;
			}
			opt.cpu_filter = true;
			break;
		case OPT_FROM:
		case OPT_TO:
			if (parse_seconds(optarg, c == OPT_FROM ? &opt.from : &opt.to)) {
				spoor_err("report: %s: expected seconds like 12.5", optarg);
				return 2;
			}
			break;
		case 'R':
			opt.raw = true;
			break;
		case 'N':
			opt.no_plugins = true;
			break;
		case 't':
			opt.ns = true;
			break;
		case 'q':
			tdat_set_quiet(true);
			break;
		case 'L':
			opt.trace_layout = true;
			break;
		case 'l':
			opt.latency = true;
			break;
		case 'D':
			opt.ts_diff = true;
			break;
		case 'w':
			opt.wakeup = true;
			break;
		case 'S':
			opt.svg = optarg;
			break;
		case OPT_STAT:
			stat = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!path)
		path = optind < argc ? argv[optind++] : "trace.dat";
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (map_file(path, &buf, &size))
		return 2;
	ret = stat ? report_stat(path, buf, size, stdout) : report_run(path, buf, size, &opt, stdout);
	if (size)
		munmap(buf, size);
	free(opt.events);
	free(opt.filters);
	free(opt.pids);
	fflush(stdout);
	return ret;
}
