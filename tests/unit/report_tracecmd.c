/*
 * spoor report against trace-cmd report itself: trace.dat files with
 * Linux 6.18's format files (tests/unit/trace_ref) and records of random
 * field values, written with trace/tracedat_write.c, must print the same
 * text in both tools, line by line, in the default, raw (-R), no-plugin
 * (-N), latency (-l), --ts-diff (in us and ns) and wakeup latency (-w)
 * views; the same file converted by trace-cmd to version 7 (zstd chunks,
 * or uncompressed) prints the same. Skipped when trace-cmd is not
 * installed. Also: every format of a Linux 6.12 tracefs (trace_ref's
 * linux-6.12-formats.txt) compiles, and the ten print fmts Linux 6.18 has
 * that once did not print as trace-cmd prints them.
 */
/* uses: trace/tracedat_write.c host-tools/report.c host-tools/report_stat.c host-tools/report_filter.c host-tools/report_wakeup.c host-tools/report_perf.c user/perf/perf_data.c host-tools/report_event.c host-tools/report_printfmt.c host-tools/report_printfmt_lex.c host-tools/report_printfmt_expr.c host-tools/report_printfmt_eval.c host-tools/report_printfmt_render.c host-tools/report_page.c host-tools/report_plugin.c host-tools/report_graph.c host-tools/report_syms.c host-tools/report_out.c host-tools/report_svg.c host-tools/tracedat_read.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <glob.h>
#include <unistd.h>
#include "tests/unit/report_fixture.h"

#define RECORDS_PER_EVENT	200
#define MAX_FORMATS		4096
#define MAX_PAGES		4096

/* An absolute symbol first (a per-CPU offset): trace-cmd resolves no address to it. */
static const char kallsyms[] =
	"0000000000000100 A __per_cpu_start\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t do_one_thing\n"
	"ffffffff81000400 T kmalloc_trace\n"
	"ffffffff81001000 T hrtimer_wakeup\t[mod]\n"
	"ffffffff81002000 T _etext\n";
static const char cmdlines[] = "100 bash\n101 kworker/0:1\n102 sleep\n";

static u64 rng = 88172645463325252ull;

static u64 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value that exercises flags, symbols, signs and widths. */
static u64 pick_number(const struct rep_field *f)
{
	switch (rnd() % 9) {
	case 0: return 0;
	case 1: return 1;
	case 2: return rnd() % 16;
	case 3: return (u64)-1;
	case 4: return 0xffffffff81000000ull + rnd() % 0x2100;	/* near symbols */
	case 5: return rnd() % 0x1000;
	case 6: return (u64[]){ 0xcc0, 0x400cc0, 0x820, 0x2800, 0x100cca, 0x40 }[rnd() % 6];
	case 7: return rnd() & 0x1ff;
	default: return rnd();
	}
}

static void put_le(u8 *p, u64 v, unsigned int size)
{
	for (unsigned int i = 0; i < size; i++)
		p[i] = i < 8 ? (u8)(v >> (8 * i)) : 0;	/* wider fields (uuid_t): zero above */
}

static void random_text(char *s, size_t n)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789/:-_ ";

	for (size_t i = 0; i < n; i++)
		s[i] = chars[rnd() % (sizeof(chars) - 1)];
}

/* A random record of ev into rec; returns its length. */
static unsigned int make_record(const struct rep_event *ev, u8 *rec, size_t cap)
{
	unsigned int len = 0;

	for (unsigned int i = 0; i < ev->nr_fields; i++) {
		const struct rep_field *f = &ev->fields[i];

		if (f->offset + (f->size ? f->size : 4) > len)
			len = f->offset + (f->size ? f->size : 0);
	}
	memset(rec, 0, cap);
	for (unsigned int i = 0; i < ev->nr_fields; i++) {
		const struct rep_field *f = &ev->fields[i];

		if (!strcmp(f->name, "common_type")) {
			put_le(rec, ev->id, 2);
		} else if (!strcmp(f->name, "common_pid")) {
			put_le(rec + 4, (u64[]){ 0, 100, 101, 102, 4242 }[rnd() % 5], 4);
		} else if (f->flags & FIELD_DYNAMIC) {
			unsigned int n = (unsigned int)(rnd() % 24) + 1;
			u32 loc;

			random_text((char *)rec + len, n - 1);
			rec[len + n - 1] = 0;
			loc = (f->flags & FIELD_RELATIVE ? len - f->offset - 4 : len) | n << 16;
			put_le(rec + f->offset, loc, 4);
			len += n;
		} else if (f->flags & FIELD_STRING) {
			unsigned int n = f->size ? f->size : 20;

			random_text((char *)rec + f->offset, rnd() % n);
			if (!f->size)
				len = f->offset + n;
		} else if (f->flags & FIELD_ARRAY) {
			for (unsigned int k = 0; k + f->elem_size <= f->size; k += f->elem_size)
				put_le(rec + f->offset + k, pick_number(f), f->elem_size);
		} else if (i >= ev->nr_common || !strcmp(f->name, "common_flags")) {
			put_le(rec + f->offset, pick_number(f), f->size);
		}
	}
	return len;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;

	cr_assert_not_null(f, "%s", path);
	*len = 0;
	buf = malloc(2 << 20);
	*len = fread(buf, 1, 2 << 20, f);
	fclose(f);
	cr_assert_lt(*len, 2 << 20, "%s is too big", path);
	return buf;
}

/* Format files by a glob pattern: the system is the directory above the event's. */
static unsigned int load_glob(const char *pattern, struct tracedat_format *formats)
{
	unsigned int nf = 0;
	glob_t g;

	cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "%s", pattern);
	for (size_t i = 0; i < g.gl_pathc && nf < MAX_FORMATS; i++) {
		char *sys, *slash;
		size_t len;

		/*
		 * Not the function_graph records: trace-cmd's graph view pairs
		 * each entry with the records after it, which on random records
		 * runs for minutes. report_funcgraph tests that view on records
		 * laid out as the tracer writes them.
		 */
		if (strstr(g.gl_pathv[i], "/ftrace/funcgraph_"))
			continue;
		sys = strdup(g.gl_pathv[i]);

		*strrchr(sys, '/') = 0;
		*strrchr(sys, '/') = 0;
		slash = strrchr(sys, '/');
		if (slash)
			memmove(sys, slash + 1, strlen(slash));
		formats[nf].system = sys;
		formats[nf].text = slurp(g.gl_pathv[i], &len);
		formats[nf].len = len;
		nf++;
	}
	globfree(&g);
	return nf;
}

/*
 * The format files of a whole tracefs in one file (LINUX_612_FORMATS): each
 * after a line "== SYSTEM/EVENT"; only the events named in only[] (all
 * when NULL). One allocation per text, as load_glob makes them.
 */
static unsigned int load_corpus(const char *path, const char *const *only, struct tracedat_format *formats)
{
	size_t len;
	char *all = slurp(path, &len), *p = strstr(all, "\n== ");
	unsigned int nf = 0;

	cr_assert_not_null(p, "%s has no formats", path);
	for (p++; p && nf < MAX_FORMATS;) {
		char *name = p + 3, *nl = strchr(name, '\n'), *next = strstr(nl, "\n== "), *slash;
		bool wanted = !only;

		*nl = 0;
		for (size_t i = 0; only && only[i]; i++)
			wanted |= !strcmp(only[i], name);
		slash = strchr(name, '/');
		cr_assert_not_null(slash, "%s: \"%s\" is no SYSTEM/EVENT", path, name);
		if (wanted) {
			size_t n = next ? (size_t)(next + 1 - (nl + 1)) : strlen(nl + 1);

			formats[nf].system = strndup(name, (size_t)(slash - name));
			formats[nf].text = strndup(nl + 1, n);
			formats[nf].len = n;
			nf++;
		}
		p = next ? next + 1 : NULL;
	}
	free(all);
	return nf;
}

static void free_formats(struct tracedat_format *formats, unsigned int nf)
{
	for (unsigned int i = 0; i < nf; i++) {
		free((char *)formats[i].system);
		free((char *)formats[i].text);
	}
}

/* The text views compared, trace-cmd's options and report_opts letters. */
static const char *const views[][2] = {
	{ "", "" }, { "-R", "R" }, { "-N", "N" }, { "-l", "l" },
	{ "--ts-diff", "D" }, { "-t --ts-diff", "tD" }, { "-w", "w" },
};

/*
 * A trace.dat (f, written to path) with per_event random records of each
 * of formats over two CPUs, and the views up to nr_views printed by both
 * tools: the same text, status 0. Formats that do not parse are left out
 * unless must_parse. Returns how many formats have records.
 */
static unsigned int compare_views(const struct tracedat_format *formats, unsigned int nf,
				  unsigned int per_event, size_t nr_views, bool must_parse,
				  struct fx_file *f, char *path)
{
	static struct tracedat_format used[MAX_FORMATS];
	static struct rep_event *events[MAX_FORMATS];
	static struct fx_page pages[2][MAX_PAGES];
	struct fx_page *cpus[2] = { pages[0], pages[1] };
	unsigned int nr_pages[2] = { 1, 1 }, nu = 0;
	u64 ts[2] = { 1000000000ull, 1000000000ull };
	struct rep_ctx ctx;
	int fd;

	rep_ctx_init(&ctx, NULL);
	for (unsigned int i = 0; i < nf; i++) {
		events[nu] = rep_parse_format(&ctx, formats[i].system, formats[i].text, formats[i].len, 0);
		if (must_parse)
			cr_assert_not_null(events[nu], "%s does not parse", formats[i].system);
		if (events[nu])
			used[nu++] = formats[i];
	}
	cr_assert_gt(nu, 0);
	fx_page_init(&pages[0][0], ts[0]);
	fx_page_init(&pages[1][0], ts[1]);
	for (unsigned int k = 0; k < per_event * nu; k++) {
		const struct rep_event *ev = events[rnd() % nu];
		unsigned int cpu = (unsigned int)(rnd() % 2);
		struct fx_page *p = &pages[cpu][nr_pages[cpu] - 1];
		u8 rec[1024];
		unsigned int len = make_record(ev, rec, sizeof(rec));
		u32 delta = (u32)(rnd() % 3000000);

		if (p->pos + len + 16 + 8 > RB_PAGE_SIZE - 8) {
			fx_page_finish(p, -1);
			cr_assert_lt(nr_pages[cpu], MAX_PAGES);
			p = &pages[cpu][nr_pages[cpu]++];
			ts[cpu] += 1000;
			fx_page_init(p, ts[cpu]);
			delta = 0;
		}
		ts[cpu] += delta;
		fx_event(p, delta, rec, len);
	}
	fx_page_finish(&pages[0][nr_pages[0] - 1], -1);
	fx_page_finish(&pages[1][nr_pages[1] - 1], -1);
	*f = fx_tracedat(used, nu, 2, cpus, nr_pages, cmdlines, kallsyms);
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, f->buf, f->len), (ssize_t)f->len);
	close(fd);

	for (size_t v = 0; v < nr_views; v++) {
		const char *o = views[v][1];
		struct report_opts opt = {
			.raw = strchr(o, 'R'), .no_plugins = strchr(o, 'N'), .latency = strchr(o, 'l'),
			.ts_diff = strchr(o, 'D'), .ns = strchr(o, 't'), .wakeup = strchr(o, 'w'),
		};
		char *got, msg[1024];
		int status;

		got = fx_report(f->buf, f->len, &opt, &status);
		cr_expect_eq(status, 0);
		cr_expect_gt(strlen(got), (size_t)per_event * nu * 40, "spoor printed too little");
		if (!same_as_trace_cmd(path, views[v][0], got, msg, sizeof(msg)))
			cr_expect_fail("view \"%s\" differs at %s", views[v][0], msg);
		free(got);
	}
	rep_ctx_free(&ctx);
	return nu;
}

Test(report_tracecmd, same_text_as_trace_cmd_on_linux_formats, .timeout = 120)
{
	static struct tracedat_format formats[MAX_FORMATS];
	/* REPORT_FORMATS: another set of format files, e.g. a Linux machine's whole tracefs. */
	const char *pattern = getenv("REPORT_FORMATS") ? getenv("REPORT_FORMATS") :
			      "tests/unit/trace_ref/*/*/format";
	/* REPORT_RECORDS: records per event (5 with REPORT_FORMATS). */
	unsigned int per_event = getenv("REPORT_RECORDS") ? (unsigned int)atoi(getenv("REPORT_RECORDS")) :
				 getenv("REPORT_FORMATS") ? 5 : RECORDS_PER_EVENT;
	unsigned int nf;
	char path[] = "/tmp/spoor-report-XXXXXX";
	struct fx_file f;

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		cr_skip_test("trace-cmd is not installed");
	nf = load_glob(pattern, formats);
	compare_views(formats, nf, per_event, sizeof(views) / sizeof(views[0]), !getenv("REPORT_FORMATS"),
		      &f, path);
	for (int c = 0; c < 2; c++) {
		/* Version 7: zstd-compressed CPU data is inflated chunk by chunk. */
		const char *algo = c ? "none" : "zstd";
		char cmd[512], v7[sizeof(path) + 8], *got, msg[1024];
		FILE *in;
		u8 *buf = malloc(2 * f.len);
		size_t len;
		int status;

		snprintf(v7, sizeof(v7), "%s.v7", path);
		snprintf(cmd, sizeof(cmd), "trace-cmd convert -i %s -o %s --file-version 7 --compression %s "
			 ">/dev/null 2>&1", path, v7, algo);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
		in = fopen(v7, "r");
		cr_assert_not_null(in);
		len = fread(buf, 1, 2 * f.len, in);
		fclose(in);
		unlink(v7);
		cr_assert(len > 0 && len < 2 * f.len, "%s: %zu bytes", algo, len);
		got = fx_report(buf, len, NULL, &status);
		cr_expect_eq(status, 0, "%s", algo);
		if (!same_as_trace_cmd(path, "", got, msg, sizeof(msg)))
			cr_expect_fail("v7 %s differs at %s", algo, msg);
		free(got);
		free(buf);
	}
	{
		/* An -e naming no event of the file is an error (status 2), not empty output. */
		char *pats[] = { "sched:sched_switch", "sched:no_such_event" };
		struct report_opts opt = { .events = pats, .nr_events = 2 };
		char *got;
		int status;

		got = fx_report(f.buf, f.len, &opt, &status);
		cr_expect_eq(status, 2);
		cr_expect_str_eq(got, "");
		free(got);
	}
	if (getenv("REPORT_KEEP"))	/* for a look with both tools */
		fprintf(stderr, "kept %s\n", path);
	else
		unlink(path);
	free_formats(formats, nf);
	free(f.buf);
}

#define LINUX_612_FORMATS	"tests/unit/trace_ref/linux-6.12-formats.txt"

/*
 * Every format file of a Linux 6.12 tracefs (1,661 with kvm's) parses and
 * its print fmt compiles, without a warning: a Linux format never makes
 * a report fail or complain.
 */
Test(report_tracecmd, every_linux_612_format_compiles, .init = cr_redirect_stderr)
{
	static struct tracedat_format formats[MAX_FORMATS];
	unsigned int nf = load_corpus(LINUX_612_FORMATS, NULL, formats), nr_print = 0;
	struct rep_ctx ctx;

	cr_assert_eq(nf, 1661);
	rep_ctx_init(&ctx, NULL);
	for (unsigned int i = 0; i < nf; i++) {
		struct rep_event *ev = rep_parse_format(&ctx, formats[i].system, formats[i].text,
							formats[i].len, 0);
		const char *err;
		size_t pos;
		struct pf_prog *p;

		cr_assert_not_null(ev, "format %u (%s) does not parse", i, formats[i].system);
		if (!ev->print_src)
			continue;
		p = pf_compile(ev, ev->print_src, ev->print_len, &err, &pos);
		cr_expect_not_null(p, "%s:%s: %s at %.40s", ev->system, ev->name, err, ev->print_src + pos);
		pf_free(p);
		nr_print++;
	}
	cr_expect_eq(nr_print, nf, "every Linux event has a print fmt");
	cr_expect_eq(ctx.errors, 0);
	rep_ctx_free(&ctx);
	free_formats(formats, nf);
	fflush(stderr);
	cr_expect_stderr_eq_str("");
}

/*
 * The print fmts of Linux 6.18 that did not compile print what trace-cmd
 * prints: __builtin_expect, the jbd2 plugin's jiffies_to_msecs (not with
 * -N), the kvm plugin's shadow-page roles, and "[FAILED TO PARSE]" with
 * the fields where trace-cmd cannot print them either (a function it does
 * not know, GNU statement expressions, an empty __print_symbolic table).
 * So do events where trace-cmd's rules are its own: the tlb plugin,
 * parentheses it loses (timer_start's flags), enum names in symbol tables
 * it cannot match (block's ioprio class), %pM.
 */
Test(report_tracecmd, linux_612_print_fmts_print_as_trace_cmd, .timeout = 120)
{
	static const char *const named[] = {
		"ras/mc_event", "mmap/vm_unmapped_area", "jbd2/jbd2_run_stats",
		"jbd2/jbd2_checkpoint_stats", "kvmmmu/kvm_mmu_unsync_page", "kvmmmu/kvm_mmu_sync_page",
		"kvmmmu/kvm_mmu_prepare_zap_page", "kvmmmu/kvm_mmu_get_page", "kvm/kvm_inj_exception",
		"dma/dma_map_sg", "tlb/tlb_flush", "timer/timer_start", "block/block_rq_complete",
		"block/block_rq_issue", "bridge/br_mdb_full", NULL,
	};
	static struct tracedat_format formats[MAX_FORMATS];
	unsigned int nf = load_corpus(LINUX_612_FORMATS, named, formats);
	char path[] = "/tmp/spoor-report-XXXXXX";
	struct fx_file f;

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		cr_skip_test("trace-cmd is not installed");
	cr_assert_eq(nf, 15);
	/* The default, -R, -N and -l views; 100 records each: every branch of their roles and errors. */
	cr_expect_eq(compare_views(formats, nf, 100, 4, true, &f, path), 15);
	unlink(path);
	free_formats(formats, nf);
	free(f.buf);
}
