/*
 * spoor report --stat (host-tools/report_stat.c): the CPUSTAT options a
 * trace.dat keeps, then each CPU's data offset and size. Checked on its
 * own (the text of every option in order, offsets that really point at
 * each CPU's pages) and byte for byte against trace-cmd report --stat,
 * on the v6 file and on trace-cmd's own v7 conversions of it (plain and
 * compressed, where offsets are of the inflated data).
 */
/* uses: trace/tracedat_write.c host-tools/report_stat.c host-tools/tracedat_read.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <unistd.h>
#include "tests/unit/report_fixture.h"

#define NR_CPUS	3

static const char *const stats[NR_CPUS] = {
	"CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
	"oldest event ts:     0.000000\nnow ts:     1.250000\ndropped events: 0\nread events: 9\n",
	"CPU: 1\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
	"oldest event ts:     0.000000\nnow ts:     1.250100\ndropped events: 0\nread events: 0\n",
	"CPU: 2\nentries: 2\noverrun: 7\ncommit overrun: 0\nbytes: 48\n"
	"oldest event ts:     1.200000\nnow ts:     1.250200\ndropped events: 1\nread events: 4\n",
};

static const char header[] =
	"\nKernel buffer statistics:\n"
	"  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	"        recorded in the trace data. They should all be zero.\n\n";

/* CPU 0: two pages, CPU 1: none, CPU 2: one; the pages' times tell them apart. */
static struct fx_file three_cpus(struct fx_page pages[NR_CPUS][2], const char *const *cpustats)
{
	static const struct tracedat_format fmt = { "user_events", FX_TEST_FORMAT,
						    sizeof(FX_TEST_FORMAT) - 1 };
	struct fx_page *cpus[NR_CPUS] = { pages[0], pages[1], pages[2] };
	unsigned int nr_pages[NR_CPUS] = { 2, 0, 1 };

	for (unsigned int c = 0; c < NR_CPUS; c++)
		for (unsigned int i = 0; i < nr_pages[c]; i++) {
			fx_page_init(&pages[c][i], 1000000ull * (10 * c + i + 1));
			fx_test_event(&pages[c][i], 5, 100, c, (s32)i);
			fx_page_finish(&pages[c][i], -1);
		}
	return fx_tracedat_stats(&fmt, 1, NR_CPUS, cpus, nr_pages, "100 bash\n", NULL, cpustats);
}

static char *stat_text(const struct fx_file *f, int *status)
{
	char *out = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&out, &n);

	*status = report_stat("fixture.dat", f->buf, f->len, m);
	fclose(m);
	return out;
}

Test(report_stat, every_cpustat_in_order_then_where_each_cpu_lies)
{
	static struct fx_page pages[NR_CPUS][2];
	struct fx_file f = three_cpus(pages, stats);
	const unsigned int want_pages[NR_CPUS] = { 2, 0, 1 };
	char want[4096], *got, *p;
	int status, len;

	got = stat_text(&f, &status);
	cr_assert_eq(status, 0);
	len = snprintf(want, sizeof(want), "cpus=%u\n%s%s\n%s\n%s\n\n", NR_CPUS, header, stats[0],
		       stats[1], stats[2]);
	cr_assert_eq(strncmp(got, want, (size_t)len), 0, "got:\n%s", got);
	p = got + len;
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		unsigned long long off, size;
		unsigned int cpu;
		int used = 0;

		cr_assert_eq(sscanf(p, "CPU%u data recorded at offset=0x%llx\n    %llu bytes in size\n%n",
				    &cpu, &off, &size, &used), 3, "at: %s", p);
		cr_assert_gt(used, 0);
		p += used;
		cr_expect_eq(cpu, c);
		cr_expect_eq(size, (unsigned long long)want_pages[c] * RB_PAGE_SIZE);
		if (!want_pages[c]) {
			cr_expect_eq(off, 0);
			continue;
		}
		cr_assert_leq(off + size, f.len);
		for (unsigned int i = 0; i < want_pages[c]; i++)
			cr_expect_eq(memcmp(f.buf + off + i * RB_PAGE_SIZE, pages[c][i].b, RB_PAGE_SIZE), 0,
				     "CPU %u page %u is not at the offset shown", c, i);
	}
	cr_expect_str_eq(p, "");
	free(got);
	free(f.buf);
}

Test(report_stat, a_file_without_cpustat_says_so)
{
	static struct fx_page pages[NR_CPUS][2];
	struct fx_file f = three_cpus(pages, NULL);
	char want[512];
	char *got;
	int status;

	got = stat_text(&f, &status);
	cr_assert_eq(status, 0);
	snprintf(want, sizeof(want), "cpus=%u\n%s No stats in this file\nCPU0 data", NR_CPUS, header);
	cr_expect_eq(strncmp(got, want, strlen(want)), 0, "got:\n%s", got);
	free(got);
	free(f.buf);
}

Test(report_stat, not_a_trace_dat_is_status_2)
{
	static const u8 junk[64] = "not a trace.dat";
	struct fx_file f = { (u8 *)junk, sizeof(junk), 0 };
	char *got;
	int status;

	tdat_set_quiet(true);
	got = stat_text(&f, &status);
	tdat_set_quiet(false);
	cr_expect_eq(status, 2);
	cr_expect_str_eq(got, "");
	free(got);
}

/* A command's stdout (free it); its exit status in *status. */
static char *command(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *out = malloc(1 << 16);
	size_t n;

	cr_assert(p && out);
	n = fread(out, 1, (1 << 16) - 1, p);
	out[n] = 0;
	*status = pclose(p);
	return out;
}

Test(report_stat, same_text_as_trace_cmd_in_v6_and_its_v7_conversions, .timeout = 60)
{
	static struct fx_page pages[NR_CPUS][2];
	struct fx_file f = three_cpus(pages, stats);
	char dir[] = "/tmp/spoor-stat-XXXXXX", path[64], cmd[512];
	const char *compressions[] = { NULL, "none", "zstd" };
	int fd, status;

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		cr_skip_test("trace-cmd is not installed");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/v6.dat", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, f.buf, f.len), (ssize_t)f.len);
	close(fd);
	for (size_t i = 0; i < sizeof(compressions) / sizeof(compressions[0]); i++) {
		struct fx_file g = { 0 };
		char *want, *got;
		FILE *in;

		if (compressions[i]) {
			snprintf(path, sizeof(path), "%s/v7-%s.dat", dir, compressions[i]);
			snprintf(cmd, sizeof(cmd),
				 "trace-cmd convert --file-version 7 --compression %s -i %s/v6.dat -o %s >/dev/null 2>&1",
				 compressions[i], dir, path);
			cr_assert_eq(system(cmd), 0, "%s", cmd);
		}
		snprintf(cmd, sizeof(cmd), "trace-cmd report --stat -i %s 2>/dev/null", path);
		want = command(cmd, &status);
		cr_assert_eq(status, 0, "%s", cmd);
		cr_assert(strstr(want, "read events: 9"), "%s", want);
		in = fopen(path, "rb");
		cr_assert_not_null(in);
		g.buf = malloc(1 << 20);
		g.len = fread(g.buf, 1, 1 << 20, in);
		fclose(in);
		got = stat_text(&g, &status);
		cr_expect_eq(status, 0);
		cr_expect_str_eq(got, want, "%s: trace-cmd:\n%s\nspoor:\n%s", path, want, got);
		free(want);
		free(got);
		free(g.buf);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	free(f.buf);
}
