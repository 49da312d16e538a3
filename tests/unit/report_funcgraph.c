/*
 * spoor report's function graph view against trace-cmd report's: a
 * trace.dat of ftrace:funcgraph_entry/funcgraph_exit records (Linux 6.18's
 * formats, tests/unit/trace_ref) laid out as the function_graph tracer
 * writes them - nested calls, leaves (an entry whose return is its CPU's
 * next record), a duration past each of Linux's marks up to seconds,
 * returns without their entry, an entry whose next record is another
 * event, another task or another function's return, overruns, two CPUs
 * interleaved - must print the same text in both tools, in the default,
 * no-plugin (-N), raw (-R) and latency (-l) views. Skipped when trace-cmd
 * is not installed.
 */
/* uses: trace/tracedat_write.c host-tools/report.c host-tools/report_stat.c host-tools/report_filter.c host-tools/report_wakeup.c host-tools/report_perf.c user/perf/perf_data.c host-tools/report_event.c host-tools/report_printfmt.c host-tools/report_printfmt_lex.c host-tools/report_printfmt_expr.c host-tools/report_printfmt_eval.c host-tools/report_printfmt_render.c host-tools/report_page.c host-tools/report_plugin.c host-tools/report_graph.c host-tools/report_syms.c host-tools/report_out.c host-tools/report_svg.c host-tools/tracedat_read.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include <unistd.h>
#include "tests/unit/report_fixture.h"

#define ENTRY_ID	11
#define EXIT_ID		10
#define FUNC(n)		(0xffffffff81000100ull + 0x100ull * (n))

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T vfs_read\n"
	"ffffffff81000200 t rw_verify_area\n"
	"ffffffff81000300 T security_file_permission\n"
	"ffffffff81000400 T __fsnotify_parent\n"
	"ffffffff81000500 T do_irq\n"
	"ffffffff81000600 T schedule\n"
	"ffffffff81000700 T _etext\n";
static const char cmdlines[] = "100 cat\n101 sh\n";

struct graph_entry {
	struct fx_entry e;
	u64 func;
	s32 depth;
	u32 pad;
};

struct graph_exit {
	struct fx_entry e;
	u64 func;
	s32 depth;
	u32 overrun;
	u64 calltime, rettime;
};

/* One CPU's pages and clock while records are added. */
struct cpu_trace {
	struct fx_page pages[16];
	unsigned int nr;
	u64 ts;
};

static struct fx_page *room(struct cpu_trace *c, size_t len)
{
	struct fx_page *p = &c->pages[c->nr - 1];

	if (p->pos + len + 16 > RB_PAGE_SIZE - 8) {
		fx_page_finish(p, -1);
		cr_assert_lt(c->nr, 16u);
		p = &c->pages[c->nr++];
		fx_page_init(p, c->ts);
	}
	return p;
}

static void entry(struct cpu_trace *c, u32 delta, s32 pid, int fn, int depth)
{
	struct graph_entry r = { { ENTRY_ID, 0x1, 1, pid }, FUNC(fn), depth, 0 };
	struct fx_page *p = room(c, sizeof(r));

	c->ts += delta;
	/* 20 bytes of fields: the record ends at the depth, as the kernel writes it */
	fx_event(p, delta, &r, 20);
}

/* A return after dur ns, delta after the CPU's last record. */
static void ret(struct cpu_trace *c, u32 delta, s32 pid, int fn, int depth, u64 dur, u32 overrun)
{
	struct fx_page *p;
	struct graph_exit r;

	c->ts += delta;
	r = (struct graph_exit){ { EXIT_ID, 0x1, 1, pid }, FUNC(fn), depth, overrun,
				 c->ts - dur, c->ts };
	p = room(c, sizeof(r));
	fx_event(p, delta, &r, sizeof(r));
}

static void other(struct cpu_trace *c, u32 delta, s32 pid)
{
	struct fx_page *p = room(c, 16);

	c->ts += delta;
	fx_test_event(p, delta, pid, 7, -7);
}

static void cpu_init(struct cpu_trace *c, u64 ts)
{
	c->nr = 1;
	c->ts = ts;
	fx_page_init(&c->pages[0], ts);
}

/* The records: CPU 0 the shapes one by one, CPU 1 calls interleaved in time. */
static void fill(struct cpu_trace *c0, struct cpu_trace *c1)
{
	static const u64 leaf_ns[] = { 0, 999, 5432, 10000, 10001, 99999, 100000, 100001, 999999,
				       1000000, 1000001, 12345678, 123456789, 999999999, 1000000000,
				       1234567890, 12345678901ull, 99999999999ull };

	/* nested: vfs_read { rw_verify_area { security_file_permission(); } fsnotify(); } */
	entry(c0, 1000, 100, 0, 0);
	entry(c0, 300, 100, 1, 1);
	entry(c0, 200, 100, 2, 2);
	ret(c0, 900, 100, 2, 2, 900, 0);
	ret(c0, 100, 100, 1, 1, 1300, 0);
	entry(c0, 100, 100, 3, 1);
	ret(c0, 12000, 100, 3, 1, 12000, 0);
	ret(c0, 100, 100, 0, 0, 150000, 0);
	/* a leaf of each duration, at depth 0 and deeper */
	for (size_t i = 0; i < sizeof(leaf_ns) / sizeof(leaf_ns[0]); i++) {
		entry(c0, 500, 101, 4, (int)(i % 4));
		ret(c0, 100, 101, 4, (int)(i % 4), leaf_ns[i], 0);
	}
	/* returns of calls whose entries came before the trace */
	ret(c0, 100, 100, 1, 3, 2000000, 0);
	ret(c0, 100, 100, 0, 0, 3000000, 0);
	/* an entry, then another event, then its return */
	entry(c0, 100, 100, 5, 0);
	other(c0, 100, 100);
	ret(c0, 100, 100, 5, 0, 300, 0);
	/* an entry whose next record is another task's return of the same function */
	entry(c0, 100, 100, 5, 0);
	ret(c0, 100, 101, 5, 0, 400, 0);
	/* an entry whose next record returns another function */
	entry(c0, 100, 100, 5, 1);
	ret(c0, 100, 100, 4, 1, 500, 0);
	/* an overrun on a leaf's return and on a closing one */
	entry(c0, 100, 100, 2, 0);
	ret(c0, 100, 100, 2, 0, 600, 3);
	entry(c0, 100, 100, 1, 0);
	entry(c0, 100, 100, 2, 1);
	other(c0, 100, 100);
	ret(c0, 100, 100, 2, 1, 700, 1);
	ret(c0, 100, 100, 1, 0, 800, 0);
	/* negative and huge depths from a corrupt record */
	entry(c0, 100, 100, 3, -1);
	ret(c0, 100, 100, 3, -1, 10, 0);
	entry(c0, 100, 100, 3, 100000);
	ret(c0, 100, 100, 3, 100000, 10, 0);
	/* an entry that is a CPU's last record */
	entry(c0, 100, 100, 6, 0);

	/* CPU 1: calls in the middle of CPU 0's, each a leaf or a pair */
	for (int i = 0; i < 40; i++) {
		entry(c1, 350, 101, i % 6, 0);
		if (i % 3)
			entry(c1, 150, 101, (i + 1) % 6, 1);
		if (i % 3)
			ret(c1, 150, 101, (i + 1) % 6, 1, 150, 0);
		ret(c1, 150, 101, i % 6, 0, (u64)i * 7777, 0);
	}
}

Test(report_funcgraph, graph_view_as_trace_cmd, .timeout = 60)
{
	static struct cpu_trace cpus[2];
	static const char *const views[][2] = { { "", "" }, { "-N", "N" }, { "-R", "R" }, { "-l", "l" } };
	const char *names[] = { "tests/unit/trace_ref/ftrace/funcgraph_entry/format",
				"tests/unit/trace_ref/ftrace/funcgraph_exit/format" };
	struct tracedat_format formats[3] = { { .system = "user_events", .text = FX_TEST_FORMAT,
						.len = sizeof(FX_TEST_FORMAT) - 1 } };
	struct fx_page *pages[2] = { cpus[0].pages, cpus[1].pages };
	unsigned int nr[2];
	char path[] = "/tmp/spoor-graph-XXXXXX";
	struct fx_file f;
	int fd;

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		cr_skip_test("trace-cmd is not installed");
	for (int i = 0; i < 2; i++) {
		FILE *in = fopen(names[i], "r");
		static char text[2][4096];

		cr_assert_not_null(in, "%s", names[i]);
		formats[i + 1] = (struct tracedat_format){ .system = "ftrace", .text = text[i],
							   .len = fread(text[i], 1, sizeof(text[i]), in) };
		fclose(in);
	}
	/* late enough that every call time is after 0 */
	cpu_init(&cpus[0], 200000000000ull);
	cpu_init(&cpus[1], 200000000000ull);
	fill(&cpus[0], &cpus[1]);
	fx_page_finish(&cpus[0].pages[cpus[0].nr - 1], -1);
	fx_page_finish(&cpus[1].pages[cpus[1].nr - 1], -1);
	nr[0] = cpus[0].nr;
	nr[1] = cpus[1].nr;
	f = fx_tracedat(formats, 3, 2, pages, nr, cmdlines, kallsyms);
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, f.buf, f.len), (ssize_t)f.len);
	close(fd);
	for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
		const char *o = views[v][1];
		struct report_opts opt = { .raw = strchr(o, 'R'), .no_plugins = strchr(o, 'N'),
					   .latency = strchr(o, 'l') };
		char *got, msg[1024];
		int status;

		got = fx_report(f.buf, f.len, &opt, &status);
		cr_expect_eq(status, 0);
		if (!same_as_trace_cmd(path, views[v][0], got, msg, sizeof(msg)))
			cr_expect_fail("view \"%s\" differs at %s", views[v][0], msg);
		free(got);
	}
	if (getenv("REPORT_KEEP"))
		fprintf(stderr, "kept %s\n", path);
	else
		unlink(path);
	free(f.buf);
}
