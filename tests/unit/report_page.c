/*
 * spoor report on hand-built pages: the page and event format (small and
 * large events, time extends, absolute stamps, page-end padding,
 * discarded events), lost-event markers, the merge of CPUs by time, and
 * every kind of damage: a truncated file, a corrupt page, a corrupt event,
 * an event id with no format. Expected text is what trace-cmd report 3.1
 * prints for the same files (checked by hand against it).
 */
/* uses: trace/tracedat_write.c host-tools/report.c host-tools/report_stat.c host-tools/report_filter.c host-tools/report_wakeup.c host-tools/report_perf.c user/perf/perf_data.c host-tools/report_event.c host-tools/report_printfmt.c host-tools/report_printfmt_lex.c host-tools/report_printfmt_expr.c host-tools/report_printfmt_eval.c host-tools/report_printfmt_render.c host-tools/report_page.c host-tools/report_plugin.c host-tools/report_graph.c host-tools/report_syms.c host-tools/report_out.c host-tools/report_svg.c host-tools/tracedat_read.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include "tests/unit/report_fixture.h"

static const struct tracedat_format test_format[] = {
	{ "user_events", FX_TEST_FORMAT, sizeof(FX_TEST_FORMAT) - 1 },
};

/* comm_pid is "%16s-%-5d". */
#define LINE(comm_pid, cpu, ts, rest) comm_pid " [" cpu "] " ts ": test:                 " rest "\n"
#define MYPROC "          myproc-1234 "

/* One CPU, the given pages; the report text and status. */
static char *report_pages(struct fx_page *pages, unsigned int n, int *status)
{
	struct fx_page *cpus[1] = { pages };
	struct fx_file f = fx_tracedat(test_format, 1, 1, cpus, &n, "1234 myproc\n", NULL);
	char *out;

	tdat_set_quiet(true);
	out = fx_report(f.buf, f.len, NULL, status);
	free(f.buf);
	return out;
}

Test(report_page, minimal_v6_as_trace_cmd_prints_it)
{
	struct fx_page p;
	int status;
	char *out;

	fx_page_init(&p, 5000000000ull);
	fx_test_event(&p, 0, 1234, 1, 2);
	fx_test_event(&p, 1000, 1234, 3, 4);
	fx_page_finish(&p, -1);
	out = report_pages(&p, 1, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n"
		LINE(MYPROC, "000", "    5.000000", "field1=1 field2=2")
		LINE(MYPROC, "000", "    5.000001", "field1=3 field2=4"));
	free(out);
}

Test(report_page, time_extend_stamp_discarded_and_large_events)
{
	struct fx_page p;
	struct {
		struct fx_test_rec r;
		char pad[200];
	} big = { { { FX_TEST_ID, 0, 0, 7 }, 9, -9 }, { 0 } };
	int status;
	char *out;

	fx_page_init(&p, 1000000000ull);
	fx_test_event(&p, 0, 1234, 1, 0);
	fx_time_extend(&p, 3ull << 27);			/* +402.653184 ms */
	fx_test_event(&p, 0, 1234, 2, 0);
	fx_discarded(&p, 500000, 20);			/* its delta counts: +0.5 ms */
	fx_test_event(&p, 0, 1234, 3, 0);
	fx_time_stamp(&p, 9500000000ull);		/* absolute 9.5 s */
	fx_test_event(&p, 0, 1234, 4, 0);
	fx_event(&p, 2000, &big, sizeof(big));		/* type_len 0 form */
	fx_page_finish(&p, -1);
	out = report_pages(&p, 1, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n"
		LINE(MYPROC, "000", "    1.000000", "field1=1 field2=0")
		LINE(MYPROC, "000", "    1.402653", "field1=2 field2=0")
		LINE(MYPROC, "000", "    1.403153", "field1=3 field2=0")
		LINE(MYPROC, "000", "    9.500000", "field1=4 field2=0")
		LINE("           <...>-7    ", "000", "    9.500002", "field1=9 field2=-9"));
	free(out);
}

Test(report_page, page_end_padding_and_second_page)
{
	struct fx_page p[2];
	int status;
	char *out;

	fx_page_init(&p[0], 2000000000ull);
	fx_test_event(&p[0], 0, 1234, 1, 0);
	fx_put32(&p[0], RINGBUF_TYPE_PADDING);	/* delta 0: the rest of the page is unused */
	fx_test_event(&p[0], 0, 1234, 99, 0);	/* never read */
	fx_page_finish(&p[0], -1);
	fx_page_init(&p[1], 3000000000ull);
	fx_test_event(&p[1], 0, 1234, 2, 0);
	fx_page_finish(&p[1], -1);
	out = report_pages(p, 2, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n"
		LINE(MYPROC, "000", "    2.000000", "field1=1 field2=0")
		LINE(MYPROC, "000", "    3.000000", "field1=2 field2=0"));
	free(out);
}

Test(report_page, lost_event_markers)
{
	struct fx_page p[2];
	int status;
	char *out;

	fx_page_init(&p[0], 1000000000ull);
	fx_test_event(&p[0], 0, 1234, 1, 0);
	fx_page_finish(&p[0], 0);		/* RB_MISSED_EVENTS, count unknown */
	fx_page_init(&p[1], 2000000000ull);
	fx_test_event(&p[1], 0, 1234, 2, 0);
	fx_page_finish(&p[1], 42);		/* RB_MISSED_STORED: 42 after the data */
	out = report_pages(p, 2, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n"
		"CPU:0 [EVENTS DROPPED]\n"
		LINE(MYPROC, "000", "    1.000000", "field1=1 field2=0")
		"CPU:0 [42 EVENTS DROPPED]\n"
		LINE(MYPROC, "000", "    2.000000", "field1=2 field2=0"));
	free(out);
}

Test(report_page, cpus_merge_by_time_lower_cpu_first_on_ties)
{
	struct fx_page p0, p1, *cpus[2] = { &p0, &p1 };
	unsigned int n[2] = { 1, 1 };
	struct fx_file f;
	int status;
	char *out;

	fx_page_init(&p0, 5000000000ull);
	fx_test_event(&p0, 0, 1234, 0, 0);
	fx_test_event(&p0, 2000, 1234, 2, 0);
	fx_page_finish(&p0, -1);
	fx_page_init(&p1, 5000001000ull);
	fx_test_event(&p1, 0, 1234, 1, 0);
	fx_test_event(&p1, 1000, 1234, 3, 0);	/* same time as CPU 0's second */
	fx_page_finish(&p1, -1);
	f = fx_tracedat(test_format, 1, 2, cpus, n, "1234 myproc\n", NULL);
	out = fx_report(f.buf, f.len, NULL, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=2\n"
		LINE(MYPROC, "000", "    5.000000", "field1=0 field2=0")
		LINE(MYPROC, "001", "    5.000001", "field1=1 field2=0")
		LINE(MYPROC, "000", "    5.000002", "field1=2 field2=0")
		LINE(MYPROC, "001", "    5.000002", "field1=3 field2=0"));
	free(out);
	free(f.buf);
}

Test(report_page, filters_cpu_pid_time_and_event)
{
	struct fx_page p0, p1, *cpus[2] = { &p0, &p1 };
	unsigned int n[2] = { 1, 1 };
	struct report_opts opt = { 0 };
	char *pat = "nomatch";
	struct fx_file f;
	int status;
	char *out;

	fx_page_init(&p0, 1000000000ull);
	fx_test_event(&p0, 0, 1234, 0, 0);
	fx_time_extend(&p0, 1000000000);
	fx_test_event(&p0, 0, 77, 1, 0);
	fx_page_finish(&p0, -1);
	fx_page_init(&p1, 1500000000ull);
	fx_test_event(&p1, 0, 1234, 2, 0);
	fx_page_finish(&p1, -1);
	f = fx_tracedat(test_format, 1, 2, cpus, n, "1234 myproc\n", NULL);

	opt.cpus[0] = 1;
	opt.cpu_filter = true;
	out = fx_report(f.buf, f.len, &opt, &status);
	cr_expect_str_eq(out, "cpus=2\n"
		LINE(MYPROC, "000", "    1.000000", "field1=0 field2=0")
		LINE("           <...>-77   ", "000", "    2.000000", "field1=1 field2=0"));
	free(out);

	memset(&opt, 0, sizeof(opt));
	opt.from = 1200000000ull;
	opt.to = 1900000000ull;
	out = fx_report(f.buf, f.len, &opt, &status);
	cr_expect_str_eq(out, "cpus=2\n" LINE(MYPROC, "001", "    1.500000", "field1=2 field2=0"));
	free(out);

	memset(&opt, 0, sizeof(opt));
	opt.pids = (s32[]){ 77 };
	opt.nr_pids = 1;
	out = fx_report(f.buf, f.len, &opt, &status);
	cr_expect_str_eq(out, "cpus=2\n" LINE("           <...>-77   ", "000", "    2.000000",
					      "field1=1 field2=0"));
	free(out);

	memset(&opt, 0, sizeof(opt));
	opt.events = &pat;
	opt.nr_events = 1;
	/* A pattern that matches no event of the file is an error, named on stderr. */
	out = fx_report(f.buf, f.len, &opt, &status);
	cr_expect_str_eq(out, "");
	cr_expect_eq(status, 2);
	free(out);
	pat = "user_events:te*";
	out = fx_report(f.buf, f.len, &opt, &status);
	cr_expect_eq(strlen(out), strlen("cpus=2\n") + 3 * strlen(LINE(MYPROC, "000", "    1.000000",
									 "field1=0 field2=0")));
	free(out);

	/* -F, trace-cmd's filters: fields compared, combined; COMM is the task's name. */
	{
		static struct { char *spec; const char *want; int status; } cases[] = {
			{ "test: field1 >= 1 && common_pid != 77",
			  LINE(MYPROC, "001", "    1.500000", "field1=2 field2=0"), 0 },
			{ "user_events/test: field1 == 0 || (field1 & 2)",
			  LINE(MYPROC, "000", "    1.000000", "field1=0 field2=0")
			  LINE(MYPROC, "001", "    1.500000", "field1=2 field2=0"), 0 },
			{ "user_.*: !(COMM =~ \"^my\")",
			  LINE("           <...>-77   ", "000", "    2.000000", "field1=1 field2=0"), 0 },
			{ "test: COMM ~ \"myp*\" && field1 < 1",
			  LINE(MYPROC, "000", "    1.000000", "field1=0 field2=0"), 0 },
			{ "test", LINE(MYPROC, "000", "    1.000000", "field1=0 field2=0")
				  LINE(MYPROC, "001", "    1.500000", "field1=2 field2=0")
				  LINE("           <...>-77   ", "000", "    2.000000", "field1=1 field2=0"), 0 },
			{ "test: nofield == 1", NULL, 2 },
			{ "test: field1 == \"x\"", NULL, 2 },
			{ "test: (field1 == 1", NULL, 2 },
			{ "sched/sched_switch", NULL, 2 },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			memset(&opt, 0, sizeof(opt));
			opt.filters = &cases[i].spec;
			opt.nr_filters = 1;
			out = fx_report(f.buf, f.len, &opt, &status);
			cr_expect_eq(status, cases[i].status, "-F %s", cases[i].spec);
			if (cases[i].want)
				cr_expect_str_eq(out + strlen("cpus=2\n"), cases[i].want, "-F %s", cases[i].spec);
			free(out);
		}
	}
	free(f.buf);
}

/* ---- bad input ---------------------------------------------------------------------- */

static struct fx_file three_pages(void)
{
	static struct fx_page p[3];
	struct fx_page *cpus[1] = { p };
	unsigned int n = 3;

	for (int i = 0; i < 3; i++) {
		fx_page_init(&p[i], (u64)(i + 1) * 1000000000ull);
		fx_test_event(&p[i], 0, 1234, (u32)i, 0);
		fx_test_event(&p[i], 10, 1234, (u32)i + 10, 0);
		fx_page_finish(&p[i], -1);
	}
	return fx_tracedat(test_format, 1, 1, cpus, &n, "1234 myproc\n", NULL);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(report_page, truncated_file_prints_the_whole_pages_and_fails)
{
	struct fx_file f = three_pages();
	int status;
	char *out;

	tdat_set_quiet(true);
	/* Cut in the middle of the last page: two pages (4 events) survive. */
	out = fx_report(f.buf, f.len - 100, NULL, &status);
	cr_expect_eq(status, 1);
	cr_expect_eq(count_lines(out), 1 + 4, "%s", out);
	free(out);
	/* Every shorter cut: never a crash, never more than what is there. */
	for (size_t len = 0; len < f.len; len += len < 1200 ? 1 : 397) {
		out = fx_report(f.buf, len, NULL, &status);
		cr_expect_neq(status, 0, "a file cut at %zu passed as intact", len);
		free(out);
	}
	free(f.buf);
}

Test(report_page, corrupt_page_commit_is_reported_and_skipped)
{
	struct fx_file f = three_pages();
	size_t data = f.len - 3 * RB_PAGE_SIZE;
	s64 bad = RB_PAGE_SIZE;	/* more than a page can hold */
	int status;
	char *out;

	memcpy(f.buf + data + RB_PAGE_SIZE + 8, &bad, 8);
	tdat_set_quiet(true);
	out = fx_report(f.buf, f.len, NULL, &status);
	cr_expect_eq(status, 1);
	cr_expect_eq(count_lines(out), 1 + 4);	/* pages 1 and 3 */
	cr_expect(strstr(out, "field1=0 ") && strstr(out, "field1=2 ") && !strstr(out, "field1=1 "));
	free(out);
	free(f.buf);
}

Test(report_page, corrupt_event_length_skips_the_rest_of_its_page)
{
	struct fx_file f = three_pages();
	size_t data = f.len - 3 * RB_PAGE_SIZE;
	u32 huge = 0 | (0u << 5), len = 3000;	/* type_len 0, length beyond the commit */
	int status;
	char *out;

	memcpy(f.buf + data + 16, &huge, 4);
	memcpy(f.buf + data + 20, &len, 4);
	tdat_set_quiet(true);
	out = fx_report(f.buf, f.len, NULL, &status);
	cr_expect_eq(status, 1);
	cr_expect_eq(count_lines(out), 1 + 4);
	free(out);
	free(f.buf);
}

Test(report_page, event_id_without_format_is_reported_and_skipped)
{
	struct fx_page p;
	struct fx_test_rec r = { { 999, 0, 0, 1234 }, 5, 5 };
	int status;
	char *out;

	fx_page_init(&p, 1000000000ull);
	fx_test_event(&p, 0, 1234, 1, 0);
	fx_event(&p, 0, &r, sizeof(r));
	fx_test_event(&p, 0, 1234, 2, 0);
	fx_page_finish(&p, -1);
	out = report_pages(&p, 1, &status);
	cr_expect_eq(status, 1);
	cr_expect_str_eq(out, "cpus=1\n"
		LINE(MYPROC, "000", "    1.000000", "field1=1 field2=0")
		LINE(MYPROC, "000", "    1.000000", "field1=2 field2=0"));
	free(out);
}

/* A field of a size no number has (Linux's uuid_t is 16 bytes) prints as its bytes, and fails nothing. */
Test(report_page, format_with_unknown_type_prints_its_bytes)
{
	static const char fmt[] =
		"name: odd\nID: 1501\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:struct weird w;\toffset:8;\tsize:3;\tsigned:0;\n"
		"\tfield:u32 n;\toffset:12;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"n=%u\", REC->n\n";
	const struct tracedat_format formats[] = { { "odd", fmt, sizeof(fmt) - 1 } };
	struct fx_test_rec r = { { 1501, 0, 0, 1234 }, 0x00ccbbaa, 77 };
	struct fx_page p, *cpus[1] = { &p };
	unsigned int n = 1;
	struct report_opts raw = { .raw = true };
	struct fx_file f;
	int status;
	char *out;

	fx_page_init(&p, 1000000000ull);
	fx_event(&p, 0, &r, sizeof(r));
	fx_page_finish(&p, -1);
	f = fx_tracedat(formats, 1, 1, cpus, &n, "1234 myproc\n", NULL);
	tdat_set_quiet(true);
	out = fx_report(f.buf, f.len, NULL, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n          myproc-1234  [000]     1.000000: odd:                  n=77\n");
	free(out);
	out = fx_report(f.buf, f.len, &raw, &status);
	cr_expect_str_eq(out, "cpus=1\n          myproc-1234  [000]     1.000000: odd:                   "
			 "w=ARRAY[aa, bb, cc] n=77\n");
	free(out);
	free(f.buf);
}

Test(report_page, garbage_is_rejected_without_output)
{
	static const u8 junk[] = "\x17\x08\x44tracing9\0\0\x08\0\x10\0\0";
	int status;
	char *out;

	tdat_set_quiet(true);
	out = fx_report(junk, sizeof(junk), NULL, &status);
	cr_expect_eq(status, 2);
	cr_expect_str_eq(out, "");
	free(out);
	out = fx_report((const u8 *)"", 0, NULL, &status);
	cr_expect_eq(status, 2);
	free(out);
}

/* A print fmt we cannot compile fails nothing when no record needs it, and warns when one does. */
Test(report_page, print_fmt_that_does_not_compile_is_a_warning)
{
	static const char good[] =
		"name: good\nID: 1601\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:u32 n;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"n=%u\", REC->n\n";
	static const char bad[] =
		"name: bad\nID: 1602\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:u32 n;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"n=%u\", no_such_function(REC->n)\n";
	const struct tracedat_format formats[] = { { "t", good, sizeof(good) - 1 },
						   { "t", bad, sizeof(bad) - 1 } };
	struct { u16 type; u8 flags, pc; s32 pid; u32 n; } g = { 1601, 0, 0, 1234, 5 },
		b = { 1602, 0, 0, 1234, 6 };
	struct fx_page p, *cpus[1] = { &p };
	unsigned int n = 1;
	struct fx_file f;
	int status;
	char *out;

	fx_page_init(&p, 1000000000ull);
	fx_event(&p, 0, &g, sizeof(g));
	fx_page_finish(&p, -1);
	f = fx_tracedat(formats, 2, 1, cpus, &n, "1234 myproc\n", NULL);
	out = fx_report(f.buf, f.len, NULL, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n          myproc-1234  [000]     1.000000: good:                 n=5\n");
	free(out);
	free(f.buf);

	fx_page_init(&p, 1000000000ull);
	fx_event(&p, 0, &b, sizeof(b));
	fx_page_finish(&p, -1);
	f = fx_tracedat(formats, 2, 1, cpus, &n, "1234 myproc\n", NULL);
	out = fx_report(f.buf, f.len, NULL, &status);
	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, "cpus=1\n          myproc-1234  [000]     1.000000: bad:                  "
			 "[FAILED TO PARSE] n=6\n");
	free(out);
	free(f.buf);
}
