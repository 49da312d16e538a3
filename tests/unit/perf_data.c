/*
 * perf.data as user/perf/perf_data.c writes and reads it, and as spoor
 * report prints it: the file layout (header, data, feature table, tracing
 * data, attrs of perf 6.1's 128 bytes, ids), samples of every supported
 * sample_type bit, routing by IDENTIFIER, the tracing data section coming
 * from trace.dat's writer with version "0.6", perf script's line layout
 * (time order, names from COMM and FORK as they come, the event column
 * as wide as the longest name), and damaged files refused with a reason.
 * When Debian's perf is installed, its perf script must print the same
 * text for the same file.
 */
/* uses: trace/tracedat_write.c host-tools/report.c host-tools/report_stat.c host-tools/report_filter.c host-tools/report_wakeup.c host-tools/report_perf.c user/perf/perf_data.c host-tools/report_event.c host-tools/report_printfmt.c host-tools/report_printfmt_lex.c host-tools/report_printfmt_expr.c host-tools/report_printfmt_eval.c host-tools/report_printfmt_render.c host-tools/report_page.c host-tools/report_plugin.c host-tools/report_graph.c host-tools/report_syms.c host-tools/report_out.c host-tools/report_svg.c host-tools/tracedat_read.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include <unistd.h>
#include "tests/unit/report_fixture.h"
#include "user/perf/perf_data.h"

#define SECOND_ID	1501
#define SECOND_FORMAT								\
	"name: second_event\nID: 1501\nformat:\n"				\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"		\
	"\tfield:char msg[8];\toffset:8;\tsize:8;\tsigned:0;\n\n"		\
	"print fmt: \"msg=%s\", REC->msg\n"

static const struct tracedat_format formats[] = {
	{ "user_events", FX_TEST_FORMAT, sizeof(FX_TEST_FORMAT) - 1 },
	{ "spoor", SECOND_FORMAT, sizeof(SECOND_FORMAT) - 1 },
};

/* A file in memory, written at offsets. */
static int mem_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct fx_file *f = ctx;

	if (off + len > f->cap) {
		f->cap = (off + len) * 2;
		f->buf = realloc(f->buf, f->cap);
		cr_assert_not_null(f->buf);
	}
	if (off > f->len)
		memset(f->buf + f->len, 0, off - f->len);
	memcpy(f->buf + off, buf, len);
	if (off + len > f->len)
		f->len = off + len;
	return 0;
}

/* The tracing data section, from trace.dat's writer. */
static struct fx_file tracing_data(void)
{
	struct fx_file f = { 0 };
	struct tracedat_writer w;
	struct tracedat_info info = {
		.page_size = RB_PAGE_SIZE,
		.header_page = RB_HEADER_PAGE_TEXT,
		.header_event = RB_HEADER_EVENT_TEXT,
		.formats = formats,
		.nr_formats = 2,
		.cmdlines = "7 fromcmdline\n",
		.cmdlines_len = 14,
	};

	tracedat_writer_init(&w, fx_file_write, &f);
	cr_assert_eq(tracedat_write_tracing_data(&w, &info, "0.6"), 0);
	return f;
}

#define SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)

/* A sample of SAMPLE_TYPE carrying a raw record of raw_len bytes. */
static void add_sample(struct perf_data_writer *w, uint64_t id, uint32_t tid, uint64_t time,
		       uint32_t cpu, const void *raw, uint32_t raw_len)
{
	uint8_t b[256];
	uint32_t size = (raw_len + 4 + 7) & ~7u;	/* RAW pads so the record stays 8-aligned */
	uint64_t v[6] = { id, 0xffffffff81000010ull, tid | (uint64_t)tid << 32, time, cpu, 1 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL,
				       (uint16_t)(8 + sizeof(v) + size) };
	uint32_t n = size - 4;

	memset(b, 0, sizeof(b));
	memcpy(b, &h, 8);
	memcpy(b + 8, v, sizeof(v));
	memcpy(b + 8 + sizeof(v), &n, 4);
	memcpy(b + 12 + sizeof(v), raw, raw_len);
	perf_data_add(w, b, h.size);
}

/* COMM with the sample_id_all trailer (TID, TIME, CPU, IDENTIFIER). */
static void add_comm(struct perf_data_writer *w, uint32_t tid, const char *comm, uint64_t time,
		     uint64_t id)
{
	uint8_t b[128] = { 0 };
	size_t len = (strlen(comm) + 1 + 7) & ~7ul;
	uint32_t ids[2] = { tid, tid };
	uint64_t tr[4] = { tid | (uint64_t)tid << 32, time, 0, id };
	struct perf_event_header h = { PERF_RECORD_COMM, 0, (uint16_t)(16 + len + sizeof(tr)) };

	memcpy(b, &h, 8);
	memcpy(b + 8, ids, 8);
	memcpy(b + 16, comm, strlen(comm));
	memcpy(b + 16 + len, tr, sizeof(tr));
	perf_data_add(w, b, h.size);
}

static void add_fork(struct perf_data_writer *w, uint32_t child, uint32_t parent, uint64_t time,
		     uint64_t id)
{
	uint8_t b[8 + 24 + 32];
	uint32_t ids[4] = { child, parent, child, parent };
	uint64_t tr[4] = { child | (uint64_t)child << 32, time, 0, id };
	struct perf_event_header h = { PERF_RECORD_FORK, 0, sizeof(b) };

	memcpy(b, &h, 8);
	memcpy(b + 8, ids, 16);
	memcpy(b + 24, &time, 8);
	memcpy(b + 32, tr, sizeof(tr));
	perf_data_add(w, b, h.size);
}

static uint64_t ids_a[] = { 11, 12 }, ids_b[] = { 21, 22 };

/*
 * Two events (ids 11/12 and 21/22), a COMM, a FORK, samples out of time
 * order and a LOST record. Returns the file (free .buf).
 */
static struct fx_file two_event_file(void)
{
	struct fx_file f = { 0 }, td = tracing_data();
	struct perf_data_writer w;
	struct perf_data_attr attrs[2] = { 0 };
	struct fx_test_rec t1 = { { FX_TEST_ID, 0, 0, 7 }, 1, -2 }, t2 = { { FX_TEST_ID, 0, 0, 8 }, 3, 4 };
	struct { struct fx_entry e; char msg[8]; } s1 = { { SECOND_ID, 0, 0, 9 }, "hello" };
	uint64_t lost[5] = { (uint64_t)PERF_RECORD_LOST | 40ull << 48, 11, 3, 0, 0 };

	for (int i = 0; i < 2; i++) {
		attrs[i].attr.type = PERF_TYPE_TRACEPOINT;
		attrs[i].attr.size = sizeof(attrs[i].attr);
		attrs[i].attr.config = i ? SECOND_ID : FX_TEST_ID;
		attrs[i].attr.sample_period = 1;
		attrs[i].attr.sample_type = SAMPLE_TYPE;
		attrs[i].attr.flags = PERF_ATTR_FLAG_SAMPLE_ID_ALL;
		attrs[i].ids = i ? ids_b : ids_a;
		attrs[i].nr_ids = 2;
	}
	perf_data_writer_init(&w, mem_write, &f);
	add_comm(&w, 7, "myproc", 1000, 11);
	add_sample(&w, 12, 7, 3000000000ull, 1, &t1, sizeof(t1));	/* later, first in the file */
	add_sample(&w, 11, 7, 2500000123ull, 0, &t2, sizeof(t2));
	add_fork(&w, 9, 7, 2600000000ull, 11);
	add_sample(&w, 21, 9, 2700000000ull, 3, &s1, sizeof(s1));
	add_sample(&w, 22, 0, 2800000000ull, 2, &s1, sizeof(s1));	/* the idle task */
	add_sample(&w, 22, 5, 2900000000ull, 2, &s1, sizeof(s1));	/* never named */
	perf_data_add(&w, lost, sizeof(lost));
	cr_assert_eq(perf_data_finish(&w, attrs, 2, td.buf, td.len), 0);
	free(td.buf);
	return f;
}

/* What perf script 6.1 prints for two_event_file: time order, names as COMM and FORK give them. */
static const char expected[] =
	"          myproc     7 [000]     2.500000:   user_events:test: field1=3 field2=4\n"
	"          myproc     9 [003]     2.700000: spoor:second_event: msg=hello\n"
	"         swapper     0 [002]     2.800000: spoor:second_event: msg=hello\n"
	"              :5     5 [002]     2.900000: spoor:second_event: msg=hello\n"
	"          myproc     7 [001]     3.000000:   user_events:test: field1=1 field2=-2\n";

static char *report(const struct fx_file *f, const struct report_opts *opt, int *status)
{
	return fx_report(f->buf, f->len, opt, status);
}

Test(perf_data, layout_as_perf_reads_it)
{
	struct fx_file f = two_event_file();
	struct perf_data_file pf;
	const char *err = NULL;
	uint64_t u;

	cr_assert_eq(memcmp(f.buf, "PERFILE2", 8), 0);
	memcpy(&u, f.buf + 8, 8);
	cr_expect_eq(u, 104, "header size");
	memcpy(&u, f.buf + 16, 8);
	cr_expect_eq(u, 128 + 16, "one attrs entry: a VER7 attr and its ids section");
	memcpy(&u, f.buf + 40, 8);
	cr_expect_eq(u, 104, "data right after the header");
	memcpy(&u, f.buf + 72, 8);
	cr_expect_eq(u, 1ull << HEADER_TRACING_DATA, "only HEADER_TRACING_DATA");
	cr_assert_eq(perf_data_open(&pf, f.buf, f.len, &err), 0, "%s", err);
	cr_expect_eq(pf.nr_attrs, 2);
	cr_expect_eq(pf.attrs[0].attr.size, 128, "perf 6.1 refuses an attr bigger than 128 bytes");
	cr_expect_eq(pf.attrs[1].attr.config, SECOND_ID);
	cr_expect_eq(pf.attrs[1].nr_ids, 2);
	cr_expect_eq(pf.attrs[1].ids[1], 22);
	perf_data_close(&pf);
	free(f.buf);
}

Test(perf_data, tracing_data_is_the_trace_dat_header_blocks_with_version_0_6)
{
	struct fx_file f = two_event_file(), td = tracing_data(), dat;
	struct perf_data_file pf;
	struct tdat t;
	const char *err;
	unsigned int zero = 0;

	cr_assert_eq(perf_data_open(&pf, f.buf, f.len, &err), 0);
	cr_assert_eq(pf.tracing_size, td.len);
	cr_expect_eq(memcmp(f.buf + pf.tracing_offset, TRACEDAT_MAGIC "0.6", TRACEDAT_MAGIC_LEN + 4), 0);
	/* After the version string, the same bytes a trace.dat v6 starts with. */
	dat = fx_tracedat(formats, 2, 0, NULL, &zero, "7 fromcmdline\n", NULL);
	cr_expect_eq(memcmp(f.buf + pf.tracing_offset + TRACEDAT_MAGIC_LEN + 4,
			    dat.buf + TRACEDAT_MAGIC_LEN + 2, td.len - TRACEDAT_MAGIC_LEN - 4), 0);
	cr_assert_eq(tdat_open_tracing_data(&t, "x", f.buf, f.len, pf.tracing_offset, pf.tracing_size), 0);
	cr_expect_eq(t.nr_formats, 2);
	cr_expect_str_eq(t.formats[1].system, "spoor");
	cr_expect_eq(t.cmdlines.len, 14);
	cr_expect_eq(t.errors, 0);
	tdat_close(&t);
	/* A trace.dat's own header is not tracing data. */
	tdat_set_quiet(true);
	cr_expect_neq(tdat_open_tracing_data(&t, "x", dat.buf, dat.len, 0, dat.len), 0);
	tdat_close(&t);
	perf_data_close(&pf);
	free(f.buf);
	free(td.buf);
	free(dat.buf);
}

Test(perf_data, records_samples_and_routing_by_identifier)
{
	struct fx_file f = two_event_file();
	struct perf_data_file pf;
	struct perf_data_rec r;
	struct perf_sample s;
	const char *err;
	uint64_t pos = 0;
	unsigned int types[16], n = 0;

	cr_assert_eq(perf_data_open(&pf, f.buf, f.len, &err), 0);
	while (perf_data_next(&pf, &pos, &r, &err) && n < 16)
		types[n++] = r.hdr.type;
	cr_expect_null(err);
	cr_assert_eq(n, 8);
	cr_expect(types[0] == PERF_RECORD_COMM && types[3] == PERF_RECORD_FORK &&
		  types[7] == PERF_RECORD_LOST);
	pos = 0;
	perf_data_next(&pf, &pos, &r, &err);
	cr_expect_eq(perf_data_attr_of(&pf, &r), &pf.attrs[0], "a COMM's trailer names event 0");
	perf_data_next(&pf, &pos, &r, &err);
	cr_assert(perf_data_sample(&pf, &r, &s, &err));
	cr_expect_eq(s.attr, &pf.attrs[0]);
	cr_expect(s.id == 12 && s.tid == 7 && s.pid == 7 && s.cpu == 1 && s.period == 1);
	cr_expect(s.time == 3000000000ull && s.ip == 0xffffffff81000010ull);
	cr_expect_eq(s.raw_size, 20, "16 bytes padded so that 4 + size is a multiple of 8");
	cr_expect_eq(s.raw[0] | s.raw[1] << 8, FX_TEST_ID);
	perf_data_next(&pf, &pos, &r, &err);
	perf_data_next(&pf, &pos, &r, &err);
	perf_data_next(&pf, &pos, &r, &err);
	cr_assert(perf_data_sample(&pf, &r, &s, &err));
	cr_expect_eq(s.attr, &pf.attrs[1], "id 21 belongs to the second event");
	perf_data_close(&pf);
	free(f.buf);
}

Test(perf_data, report_prints_as_perf_script)
{
	struct fx_file f = two_event_file();
	struct report_opts opt = { 0 };
	char *events[] = { "test" };
	int status;
	char *out = report(&f, NULL, &status);

	cr_expect_eq(status, 0);
	cr_expect_str_eq(out, expected);
	free(out);
	opt.events = events;
	opt.nr_events = 1;
	out = report(&f, &opt, &status);
	cr_expect_str_eq(out, "          myproc     7 [000]     2.500000:   user_events:test: field1=3 field2=4\n"
			      "          myproc     7 [001]     3.000000:   user_events:test: field1=1 field2=-2\n");
	free(out);
	free(f.buf);
}

/* Debian's perf script on the same file: the same text. */
Test(perf_data, linux_perf_script_prints_the_same)
{
	struct fx_file f = two_event_file();
	char path[] = "/tmp/spoor-perf-data-XXXXXX", cmd[128], got[4096];
	size_t n;
	FILE *p;
	int fd;

	if (system("command -v perf >/dev/null 2>&1"))
		cr_skip_test("Linux's perf is not installed (tools/setup.sh installs linux-perf)");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, f.buf, f.len), (ssize_t)f.len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "perf script -i %s 2>/dev/null", path);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(got, 1, sizeof(got) - 1, p);
	got[n] = 0;
	cr_expect_eq(pclose(p), 0);
	cr_expect_str_eq(got, expected);
	unlink(path);
	free(f.buf);
}

/* A sample whose READ (a group, with ids and time enabled) and CALLCHAIN come before RAW. */
Test(perf_data, read_values_and_callchain_are_stepped_over)
{
	struct fx_file f = { 0 };
	struct perf_data_writer w;
	struct perf_data_attr a = { 0 };
	struct fx_test_rec raw = { { FX_TEST_ID, 0, 0, 3 }, 77, -77 };
	uint64_t body[] = { 0x1234, 3 | 3ull << 32,
			    2, 555, 10, 101, 20, 102,		/* nr, enabled, {value, id} x2 */
			    3, PERF_CONTEXT_KERNEL, 0xffffffff81000100ull, 0xffffffff81000200ull };
	uint8_t rec[8 + sizeof(body) + 24] = { 0 };
	uint32_t size = 20;
	struct perf_data_file pf;
	struct perf_data_rec r;
	struct perf_sample s;
	const char *err;
	uint64_t pos = 0;

	a.attr.type = PERF_TYPE_TRACEPOINT;
	a.attr.config = FX_TEST_ID;
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_READ |
			     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	a.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	*(struct perf_event_header *)rec = (struct perf_event_header){ PERF_RECORD_SAMPLE, 1, sizeof(rec) };
	memcpy(rec + 8, body, sizeof(body));
	memcpy(rec + 8 + sizeof(body), &size, 4);
	memcpy(rec + 12 + sizeof(body), &raw, sizeof(raw));
	perf_data_writer_init(&w, mem_write, &f);
	perf_data_add(&w, rec, sizeof(rec));
	cr_assert_eq(perf_data_finish(&w, &a, 1, NULL, 0), 0);
	cr_assert_eq(perf_data_open(&pf, f.buf, f.len, &err), 0);
	cr_expect_eq(pf.tracing_size, 0);
	cr_assert(perf_data_next(&pf, &pos, &r, &err));
	cr_assert(perf_data_sample(&pf, &r, &s, &err), "%s", err);
	cr_expect_eq(s.ip, 0x1234);
	cr_expect_eq(s.nr_ips, 3);
	cr_expect_eq(perf_data_u64(s.ips + 16), 0xffffffff81000200ull);
	cr_expect_eq(s.raw_size, 20);
	cr_expect_eq(memcmp(s.raw, &raw, sizeof(raw)), 0);
	/* One byte short of the raw data: refused, not read past. */
	r.hdr.size -= 8;
	cr_expect_not(perf_data_sample(&pf, &r, &s, &err));
	cr_expect_str_eq(err, "a sample shorter than its sample_type says");
	perf_data_close(&pf);
	free(f.buf);
}

Test(perf_data, damaged_files_are_refused_with_a_reason)
{
	struct fx_file f = two_event_file();
	struct perf_data_file pf;
	struct perf_data_rec r;
	const char *err = NULL;
	uint64_t pos = 0, attrs_off, v;
	uint8_t *copy = malloc(f.len);
	int status;
	char *out;

	memcpy(&attrs_off, f.buf + 24, 8);
	cr_expect_neq(perf_data_open(&pf, f.buf, 50, &err), 0);
	cr_expect_neq(perf_data_open(&pf, "PERFILE1", 8, &err), 0);
	cr_expect_str_eq(err, "not a perf.data file (no PERFILE2 magic)");
	cr_expect_neq(perf_data_open(&pf, f.buf, (size_t)attrs_off + 10, &err), 0);
	cr_expect_str_eq(err, "attrs section does not fit the file");

	memcpy(copy, f.buf, f.len);
	v = 200;
	memcpy(copy + attrs_off + 4, &v, 4);		/* attr.size 200 in 144-byte entries */
	cr_expect_neq(perf_data_open(&pf, copy, f.len, &err), 0);
	cr_expect_str_eq(err, "an attr is bigger than the file's attr entries");

	memcpy(copy, f.buf, f.len);
	v = 0xfff0;
	memcpy(copy + 104 + 6, &v, 2);			/* the first record claims 64K */
	cr_assert_eq(perf_data_open(&pf, copy, f.len, &err), 0);
	cr_expect_not(perf_data_next(&pf, &pos, &r, &err));
	cr_expect_str_eq(err, "a record's size does not fit the data section");
	perf_data_close(&pf);
	/* spoor report says so and exits 1, after printing what it could. */
	tdat_set_quiet(true);
	out = fx_report(copy, f.len, NULL, &status);
	cr_expect_eq(status, 1);
	free(out);
	out = fx_report(f.buf, (size_t)attrs_off + 10, NULL, &status);
	cr_expect_eq(status, 2);
	free(out);
	free(copy);
	free(f.buf);
}

/*
 * perf's event names for counters: its modifier rule on the exclude bits
 * (Debian's perf script printed the first two for files of ours recorded
 * on Spoor and on Linux).
 */
Test(perf_data, counter_names_follow_perfs_modifier_rule)
{
	static const struct {
		uint32_t type;
		uint64_t config, flags;
		const char *name;
	} cases[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, PERF_ATTR_FLAG_EXCLUDE_GUEST, "cpu-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, "cpu-clock:HG" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, PERF_ATTR_FLAG_EXCLUDE_KERNEL |
		  PERF_ATTR_FLAG_EXCLUDE_HV | PERF_ATTR_FLAG_EXCLUDE_GUEST, "task-clock:uH" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, PERF_ATTR_FLAG_EXCLUDE_USER,
		  "page-faults:kh" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, PERF_ATTR_FLAG_EXCLUDE_HOST |
		  PERF_ATTR_FLAG_EXCLUDE_GUEST, "cpu-migrations" },
		{ PERF_TYPE_HARDWARE, 0, PERF_ATTR_FLAG_EXCLUDE_GUEST, "raw-0-0" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a = { .type = cases[i].type, .config = cases[i].config,
					     .flags = cases[i].flags };

		perf_data_event_name(&a, buf, sizeof(buf));
		cr_expect_str_eq(buf, cases[i].name, "case %zu", i);
	}
}
