/*
 * bench/report: spoor report against trace-cmd report on one trace.dat.
 * Writes a file of N events (default 250,000) over 4 CPUs with the
 * trace.dat writer, using Linux 6.18's sched_switch, sched_waking,
 * kmalloc, kfree, irq_handler_entry and softirq_entry formats
 * (tests/unit/trace_ref) and the page layout the kernel writes; then runs
 * both decoders on it with stdout to /dev/null and prints events/s, MB/s
 * and the ratio. Run from the top of the tree:
 *	build/bench/report [EVENTS] [SPOOR]
 * A distribution kernel's file carries every event's format and a large
 * kallsyms while its records use a few events: BENCH_FORMATS=DIR adds the
 * format files DIR/SYSTEM/EVENT/format (those whose ID or name the six
 * events have are left out) and BENCH_KALLSYMS=FILE replaces the small
 * kallsyms, so the per-file setup of a report can be measured too.
 * BENCH_KEEP=1 keeps the file (for trace-cmd convert, callgrind).
 */
/* uses: trace/tracedat_write.c */
#include <kernel/types.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "trace/ring_buffer_format.h"
#include "trace/tracedat.h"

#define NR_CPUS_BENCH	4
#define PAGES_MAX	(1 << 16)

struct event_spec {
	const char *system, *name;
	unsigned int id;	/* from the format file */
	char *format;
	size_t len;
};

static struct event_spec specs[] = {
	{ .system = "sched", .name = "sched_switch" }, { .system = "sched", .name = "sched_waking" },
	{ .system = "kmem", .name = "kmalloc" }, { .system = "kmem", .name = "kfree" },
	{ .system = "irq", .name = "irq_handler_entry" }, { .system = "irq", .name = "softirq_entry" },
};

static u64 rng = 0x9e3779b97f4a7c15ull;

static u64 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void load_formats(void)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		char path[256];
		FILE *f;

		snprintf(path, sizeof(path), "tests/unit/trace_ref/%s/%s/format", specs[i].system,
			 specs[i].name);
		f = fopen(path, "r");
		if (!f) {
			perror(path);
			exit(1);
		}
		specs[i].format = malloc(1 << 16);
		specs[i].len = fread(specs[i].format, 1, 1 << 16, f);
		fclose(f);
		specs[i].id = (unsigned int)atoi(strstr(specs[i].format, "ID: ") + 4);
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		perror(path);
		exit(1);
	}
	for (;;) {
		if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 1 << 16)))
			exit(1);
		size_t got = fread(buf + n, 1, cap - n, f);

		if (!got)
			break;
		n += got;
	}
	fclose(f);
	if (n == cap && !(buf = realloc(buf, cap + 1)))
		exit(1);
	buf[n] = 0;	/* for strstr */
	*len = n;
	return buf;
}

/* The six formats, then BENCH_FORMATS's (no records); returns how many. */
static unsigned int all_formats(struct tracedat_format **out)
{
	const char *dir = getenv("BENCH_FORMATS");
	size_t nspecs = sizeof(specs) / sizeof(specs[0]);
	struct tracedat_format *f;
	unsigned int n = 0;
	char pattern[512];
	glob_t g = { 0 };

	if (dir) {
		snprintf(pattern, sizeof(pattern), "%s/*/*/format", dir);
		glob(pattern, 0, NULL, &g);
	}
	f = calloc(nspecs + g.gl_pathc, sizeof(*f));
	if (!f)
		exit(1);
	for (size_t i = 0; i < nspecs; i++)
		f[n++] = (struct tracedat_format){ specs[i].system, specs[i].format, specs[i].len };
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *path = g.gl_pathv[i], *sys = strdup(path + strlen(dir) + 1), *id;
		size_t len, k;

		*strchr(sys, '/') = 0;
		f[n] = (struct tracedat_format){ sys, slurp(path, &len), 0 };
		f[n].len = len;
		id = strstr(f[n].text, "ID: ");
		for (k = 0; k < nspecs && id; k++)
			if ((unsigned int)atoi(id + 4) == specs[k].id || strstr(path, specs[k].name))
				break;
		if (id && k == nspecs)
			n++;
	}
	globfree(&g);
	*out = f;
	return n;
}

static void put(u8 *p, unsigned int off, u64 v, unsigned int size)
{
	memcpy(p + off, &v, size);
}

static const char *const comms[] = { "bash", "kworker/0:1", "sleep", "make", "cc1", "swapper/1" };

/* One record of event k, laid out as its 6.18 format file says; returns its length. */
static unsigned int make_record(unsigned int k, u8 *r)
{
	s32 pid = (s32)(rnd() % 6) * 100;
	unsigned int len;

	memset(r, 0, 128);
	put(r, 0, specs[k].id, 2);
	put(r, 2, rnd() & 0x0d, 1);
	put(r, 3, rnd() % 3, 1);
	put(r, 4, (u64)pid, 4);
	switch (k) {
	case 0:	/* sched_switch */
		strcpy((char *)r + 8, comms[rnd() % 6]);
		put(r, 24, (u64)pid, 4);
		put(r, 28, 120, 4);
		put(r, 32, rnd() % 3, 8);
		strcpy((char *)r + 40, comms[rnd() % 6]);
		put(r, 56, rnd() % 600, 4);
		put(r, 60, 120, 4);
		return 64;
	case 1:	/* sched_waking */
		strcpy((char *)r + 8, comms[rnd() % 6]);
		put(r, 24, rnd() % 600, 4);
		put(r, 28, 120, 4);
		put(r, 32, rnd() % NR_CPUS_BENCH, 4);
		return 36;
	case 2:	/* kmalloc */
		put(r, 8, 0xffffffff81000000ull + rnd() % 0x3000, 8);
		put(r, 16, 0xffff888000000000ull + (rnd() % 0x100000) * 64, 8);
		put(r, 24, rnd() % 4096, 8);
		put(r, 32, 4096, 8);
		put(r, 40, (u64[]){ 0xcc0, 0x820, 0x400cc0 }[rnd() % 3], 8);
		put(r, 48, (u64)-1, 4);
		return 56;
	case 3:	/* kfree */
		put(r, 8, 0xffffffff81000000ull + rnd() % 0x3000, 8);
		put(r, 16, 0xffff888000000000ull + (rnd() % 0x100000) * 64, 8);
		return 24;
	case 4:	/* irq_handler_entry: irq, __data_loc char[] name */
		put(r, 8, rnd() % 32, 4);
		len = (unsigned int)sprintf((char *)r + 16, "virtio%u", (unsigned int)(rnd() % 4)) + 1;
		put(r, 12, 16 | (u64)len << 16, 4);
		return 16 + len;
	default:	/* softirq_entry */
		put(r, 8, rnd() % 10, 4);
		return 12;
	}
}

static int write_file(void *ctx, const void *buf, size_t len)
{
	return fwrite(buf, 1, len, ctx) == len ? 0 : -5;
}

/* Pages of CPU-local events with realistic deltas, time extends now and then. */
static size_t fill_cpu(u8 *pages, u64 *ts, unsigned long events)
{
	size_t npages = 0, pos = RB_PAGE_SIZE;
	u8 *page = NULL;

	for (unsigned long i = 0; i < events; i++) {
		u8 r[128];
		unsigned int len = make_record((unsigned int)(rnd() % 6), r), padded = (len + 3) & ~3u;
		u64 delta = rnd() % 20 == 0 ? (1ull << 27) + rnd() % 1000000 : rnd() % 20000;
		u32 need = 4 + padded + (delta > RB_TS_DELTA_MAX ? 8 : 0);

		if (pos + need > RB_PAGE_SIZE) {
			if (page) {
				s64 commit = (s64)(pos - RB_PAGE_HDR_SIZE);

				memcpy(page + 8, &commit, 8);
			}
			if (npages == PAGES_MAX)
				break;
			page = pages + npages++ * RB_PAGE_SIZE;
			memset(page, 0, RB_PAGE_SIZE);
			*ts += delta;
			memcpy(page, ts, 8);
			pos = RB_PAGE_HDR_SIZE;
			delta = 0;
		} else {
			*ts += delta;
		}
		if (delta > RB_TS_DELTA_MAX) {
			u32 ext[2] = { RINGBUF_TYPE_TIME_EXTEND | (u32)(delta & RB_TS_DELTA_MAX) << 5,
				       (u32)(delta >> RB_TS_SHIFT) };

			memcpy(page + pos, ext, 8);
			pos += 8;
			delta = 0;
		}
		{
			u32 hdr = padded / 4 | (u32)delta << 5;

			memcpy(page + pos, &hdr, 4);
			memcpy(page + pos + 4, r, len);
			pos += 4 + padded;
		}
	}
	if (page) {
		s64 commit = (s64)(pos - RB_PAGE_HDR_SIZE);

		memcpy(page + 8, &commit, 8);
	}
	return npages;
}

static double run(const char *cmd)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	if (system(cmd)) {
		fprintf(stderr, "bench/report: `%s` failed\n", cmd);
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long events = argc > 1 ? strtoul(argv[1], NULL, 0) : 250000;
	char spoor[512], path[] = "/tmp/spoor-bench-XXXXXX", cmd[1024];
	struct tracedat_format *formats;
	unsigned int nr_formats;
	struct tracedat_writer w;
	u64 sizes[NR_CPUS_BENCH];
	u8 *pages[NR_CPUS_BENCH];
	double t_spoor, t_tc, mb;
	FILE *f;
	int fd;

	if (argc > 2) {
		snprintf(spoor, sizeof(spoor), "%s", argv[2]);
	} else {	/* the spoor binary of the build this bench belongs to */
		snprintf(spoor, sizeof(spoor), "%s", argv[0]);
		*strrchr(spoor, '/') = 0;
		strcat(spoor, "/../spoor");
	}
	load_formats();
	nr_formats = all_formats(&formats);
	for (int c = 0; c < NR_CPUS_BENCH; c++) {
		u64 ts = 1000000000ull + (u64)c * 777;

		pages[c] = malloc((size_t)PAGES_MAX * RB_PAGE_SIZE);
		sizes[c] = fill_cpu(pages[c], &ts, events / NR_CPUS_BENCH) * RB_PAGE_SIZE;
	}
	{
		const char *ks = "ffffffff81000000 T _stext\nffffffff81001000 T kmem_cache_alloc\n"
				 "ffffffff81002000 T do_sys_open\nffffffff81004000 T _etext\n";
		size_t ks_len = strlen(ks);

		if (getenv("BENCH_KALLSYMS"))
			ks = slurp(getenv("BENCH_KALLSYMS"), &ks_len);
		struct tracedat_info info = {
			.page_size = RB_PAGE_SIZE, .header_page = RB_HEADER_PAGE_TEXT,
			.header_event = RB_HEADER_EVENT_TEXT, .formats = formats,
			.nr_formats = nr_formats,
			.kallsyms = ks, .kallsyms_len = ks_len,
			.cmdlines = "100 bash\n200 kworker/0:1\n", .cmdlines_len = 25,
			.trace_clock = "[local] global\n", .nr_cpus = NR_CPUS_BENCH, .cpu_size = sizes,
		};

		fd = mkstemp(path);
		f = fdopen(fd, "w");
		tracedat_writer_init(&w, write_file, f);
		tracedat_write_head(&w, &info);
		for (int c = 0; c < NR_CPUS_BENCH; c++)
			tracedat_write_data(&w, pages[c], sizes[c]);
		fclose(f);
		if (w.err) {
			fprintf(stderr, "bench/report: writing %s failed\n", path);
			return 1;
		}
	}
	mb = (double)w.pos / 1e6;
	snprintf(cmd, sizeof(cmd), "%s report %s > /dev/null", spoor, path);
	t_spoor = run(cmd);
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i %s > /dev/null 2>&1", path);
	t_tc = run(cmd);
	printf("report: %lu events, %.1f MB trace.dat\n", events, mb);
	printf("  spoor report:     %.3f s  %10.0f events/s  %7.1f MB/s\n", t_spoor, events / t_spoor,
	       mb / t_spoor);
	printf("  trace-cmd report: %.3f s  %10.0f events/s  %7.1f MB/s\n", t_tc, events / t_tc, mb / t_tc);
	printf("  ratio: spoor is %.1fx trace-cmd\n", t_tc / t_spoor);
	if (!getenv("BENCH_KEEP"))
		unlink(path);
	else
		printf("  kept %s\n", path);
	for (int c = 0; c < NR_CPUS_BENCH; c++)
		free(pages[c]);
	return 0;
}
