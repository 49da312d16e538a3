/*
 * spoor report --svg: the picture's structure. Spans of tasks and ticks of
 * events have their own colours and <title> tooltips; the legends list the
 * events and tasks of the window only, in distinct colours past ten;
 * --from/--to zoom axis, spans and ticks; axis labels are round times; an
 * SVG path that cannot be created is an error naming it before any output.
 */
/* uses: trace/tracedat_write.c host-tools/report.c host-tools/report_stat.c host-tools/report_filter.c host-tools/report_wakeup.c host-tools/report_perf.c user/perf/perf_data.c host-tools/report_event.c host-tools/report_printfmt.c host-tools/report_printfmt_lex.c host-tools/report_printfmt_expr.c host-tools/report_printfmt_eval.c host-tools/report_printfmt_render.c host-tools/report_page.c host-tools/report_plugin.c host-tools/report_graph.c host-tools/report_syms.c host-tools/report_out.c host-tools/report_svg.c host-tools/tracedat_read.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <unistd.h>
#include "tests/unit/report_fixture.h"

#define NR_EV	13	/* events with records; one more format has none */
#define SWITCH_ID 1000

static char formats_text[NR_EV + 1][1024];
static struct tracedat_format formats[NR_EV + 2];

/* Linux's sched_switch record. */
struct switch_rec {
	struct fx_entry e;
	char prev_comm[16];
	s32 prev_pid, prev_prio;
	s64 prev_state;
	char next_comm[16];
	s32 next_pid, next_prio;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	cr_assert_not_null(f, "%s", path);
	cr_assert(fread(buf, 1, (1 << 16) - 1, f) > 0);
	fclose(f);
	return buf;
}

static void put_switch(struct fx_page *p, u32 delta, const char *prev, s32 prev_pid,
		       const char *next, s32 next_pid)
{
	struct switch_rec r;

	memset(&r, 0, sizeof(r));
	r.e = (struct fx_entry){ SWITCH_ID, 0, 0, prev_pid };
	strncpy(r.prev_comm, prev, sizeof(r.prev_comm));
	strncpy(r.next_comm, next, sizeof(r.next_comm));
	r.prev_pid = prev_pid;
	r.next_pid = next_pid;
	r.prev_prio = r.next_prio = 120;
	fx_event(p, delta, &r, sizeof(r));
}

/*
 * CPU 0 over one second: sh-10 runs, then worker-20 from 0.4 s, idle from
 * 0.8 s; events ev0..ev12 (id 2000+i) at 0.05 s steps, ev13 never.
 */
static struct fx_file make_file(void)
{
	static struct fx_page page[1];
	struct fx_page *pages[1] = { page };
	unsigned int nr_pages[1] = { 1 };
	char *sw = slurp("tests/unit/trace_ref/sched/sched_switch/format"), *id;
	bool switched = false;
	u64 now = 0;

	/* Linux's format with our id */
	id = strstr(sw, "ID: ");
	memmove(id + 8, strchr(id, '\n'), strlen(strchr(id, '\n')) + 1);
	memcpy(id, "ID: 1000", 8);
	formats[0] = (struct tracedat_format){ "sched", sw, strlen(sw) };
	for (int i = 0; i <= NR_EV; i++) {
		snprintf(formats_text[i], sizeof(formats_text[i]),
			 "name: ev%d\nID: %d\nformat:\n"
			 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			 "\tfield:u32 field1;\toffset:8;\tsize:4;\tsigned:0;\n"
			 "\tfield:s32 field2;\toffset:12;\tsize:4;\tsigned:1;\n\n"
			 "print fmt: \"field1=%%u field2=%%d\", REC->field1, REC->field2\n", i, 2000 + i);
		formats[i + 1] = (struct tracedat_format){ "demo", formats_text[i], strlen(formats_text[i]) };
	}
	fx_page_init(page, 0);
	put_switch(page, 0, "swapper/0", 0, "sh", 10);
	for (int i = 0; i < NR_EV; i++) {
		struct fx_test_rec r = { { (u16)(2000 + i), 0, 0, i < 8 ? 10 : 20 }, (u32)i, -i };
		u64 ts = 50000000ull * (u64)(i + 1);

		if (ts > 400000000ull && !switched) {
			switched = true;
			fx_time_extend(page, 400000000ull - now);
			put_switch(page, 0, "sh", 10, "worker", 20);
			now = 400000000ull;
		}
		fx_time_extend(page, ts - now);
		fx_event(page, 0, &r, sizeof(r));
		now = ts;
	}
	fx_time_extend(page, 800000000ull - now);
	put_switch(page, 0, "worker", 20, "swapper/0", 0);
	fx_time_extend(page, 200000000ull);
	{
		struct fx_test_rec r = { { 2000, 0, 0, 0 }, 99, 0 };	/* ev0 again at 1 s */

		fx_event(page, 0, &r, sizeof(r));
	}
	fx_page_finish(page, -1);
	return fx_tracedat(formats, NR_EV + 2, 1, pages, nr_pages, "10 sh\n20 worker\n", NULL);
}

/* Run report with --svg (and the given window) and return the picture. */
static char *svg_of(struct fx_file *f, u64 from, u64 to)
{
	char path[] = "/tmp/report-svg-XXXXXX";
	struct report_opts opt = { .from = from, .to = to, .svg = path };
	char *out, *svg;
	int fd = mkstemp(path), status;

	cr_assert_geq(fd, 0);
	close(fd);
	out = fx_report(f->buf, f->len, &opt, &status);
	cr_assert_eq(status, 0, "%s", out);
	free(out);
	svg = slurp(path);
	unlink(path);
	return svg;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* The value of attribute attr in the element starting at el. */
static char *attr(const char *el, const char *attr, char *buf, size_t n)
{
	const char *a = strstr(el, attr), *end;

	cr_assert_not_null(a);
	a += strlen(attr);
	end = strchr(a, '"');
	snprintf(buf, n, "%.*s", (int)(end - a), a);
	return buf;
}

Test(report_svg, legends_colours_and_tooltips)
{
	struct fx_file f = make_file();
	char *svg = svg_of(&f, 0, 0), colours[NR_EV][32], buf[64];
	const char *p = svg;

	/* the event legend: the 13 events that occur, not ev13; all colours differ */
	cr_expect_eq(count(svg, "class=\"event-key\""), NR_EV + 1, "13 demo events and sched_switch");
	cr_expect_null(strstr(svg, "demo:ev13<"), "an event without records is not in the legend");
	for (int i = 0; i < NR_EV; i++) {
		p = strstr(p, "class=\"event-key\"");
		attr(p, "fill=\"", colours[i], sizeof(colours[i]));
		for (int j = 0; j < i; j++)
			cr_expect_str_neq(colours[i], colours[j], "legend colours %d and %d", i, j);
		p++;
	}
	/* tasks: their own legend, pale colours no event has */
	cr_expect_eq(count(svg, "class=\"task-key\""), 3, "swapper/0-0, sh-10, worker-20");
	cr_expect_not_null(strstr(svg, ">worker-20</text>"));
	p = strstr(svg, "class=\"task\"");
	cr_assert_not_null(p);
	attr(p, "fill=\"", buf, sizeof(buf));
	for (int i = 0; i < NR_EV; i++)
		cr_expect_str_neq(buf, colours[i]);
	/* tooltips: a span's task, pid, CPU, start, duration; a tick's event text */
	cr_expect_not_null(strstr(svg, "<title>worker-20 on CPU 0\nstart 0.400000 s\nduration 0.400000 s</title>"));
	cr_expect_not_null(strstr(svg, "<title>0.050000 CPU 0 demo:ev0: field1=0 field2=0</title>"));
	cr_expect_not_null(strstr(svg, "<title>0.450000 CPU 0 demo:ev8: field1=8 field2=-8</title>"));
	/* one second: labels every 0.1 s, rounded */
	cr_expect_not_null(strstr(svg, ">0.0</text>"));
	cr_expect_not_null(strstr(svg, ">0.5</text>"));
	cr_expect_not_null(strstr(svg, ">1.0</text>"));
	cr_expect_eq(count(svg, "class=\"axis\""), 11);
	free(svg);
	free(f.buf);
}

Test(report_svg, from_to_zoom_everything)
{
	struct fx_file f = make_file();
	char *svg = svg_of(&f, 420000000ull, 470000000ull);
	const char *p;

	/* 50 ms: labels every 5 ms, three decimals */
	cr_expect_not_null(strstr(svg, ">0.420</text>"));
	cr_expect_not_null(strstr(svg, ">0.470</text>"));
	cr_expect_eq(count(svg, "class=\"axis\""), 11);
	/* only worker runs in the window: one span covering the whole axis */
	cr_expect_eq(count(svg, "class=\"task\""), 1);
	p = strstr(svg, "class=\"task\"");
	cr_expect_not_null(strstr(p, "x=\"70.00\" y=\"46.0\" width=\"1600.00\""), "%.120s", p);
	cr_expect_eq(count(svg, "class=\"task-key\""), 1);
	/* ticks and legend: ev8 (0.45 s) only */
	cr_expect_eq(count(svg, "class=\"event\""), 1);
	cr_expect_eq(count(svg, "class=\"event-key\""), 1);
	cr_expect_not_null(strstr(svg, ">demo:ev8</text>"));
	free(svg);
	free(f.buf);
}

Test(report_svg, unwritable_path_is_named, .init = cr_redirect_stderr)
{
	struct fx_file f = make_file();
	struct report_opts opt = { .svg = "/nonexistent-dir/x.svg" };
	char *out;
	int status;

	out = fx_report(f.buf, f.len, &opt, &status);
	cr_expect_eq(status, 2);
	cr_expect_str_eq(out, "", "nothing printed");
	fflush(stderr);
	cr_expect_stderr_eq_str("spoor: report: --svg /nonexistent-dir/x.svg: No such file or directory\n");
	free(out);
	free(f.buf);
}
