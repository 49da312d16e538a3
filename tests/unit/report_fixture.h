/*
 * Fixtures for the spoor report tests: ring-buffer pages built event by
 * event (with time extends, absolute stamps, padding, discarded events
 * and lost-event flags exactly where a test wants them), whole
 * trace.dat files written with trace/tracedat_write.c into memory, and
 * the comparison with what trace-cmd report prints for a file.
 * Header-only; each report_*.c test includes it.
 */
#ifndef TESTS_UNIT_REPORT_FIXTURE_H
#define TESTS_UNIT_REPORT_FIXTURE_H

#include <kernel/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/ring_buffer_format.h"
#include "trace/tracedat.h"
#include "host-tools/report.h"
#include <criterion/criterion.h>
#include "tests/unit/run_cmd.h"

/* A page being filled. */
struct fx_page {
	u8 b[RB_PAGE_SIZE];
	size_t pos;		/* next event's offset */
};

static inline void fx_page_init(struct fx_page *p, u64 ts)
{
	memset(p->b, 0, sizeof(p->b));
	memcpy(p->b, &ts, 8);
	p->pos = RB_PAGE_HDR_SIZE;
}

static inline void fx_put32(struct fx_page *p, u32 v)
{
	memcpy(p->b + p->pos, &v, 4);
	p->pos += 4;
}

/* A data event: the small form when it fits, else type_len 0. */
static inline void fx_event(struct fx_page *p, u32 delta, const void *payload, u32 len)
{
	u32 padded = (len + 3) & ~3u;

	if (padded && padded <= RB_MAX_SMALL_DATA) {
		fx_put32(p, padded / 4 | delta << 5);
	} else {
		fx_put32(p, delta << 5);
		fx_put32(p, padded + 4);
	}
	memcpy(p->b + p->pos, payload, len);
	p->pos += padded;
}

static inline void fx_time_extend(struct fx_page *p, u64 delta)
{
	fx_put32(p, RINGBUF_TYPE_TIME_EXTEND | (u32)(delta & RB_TS_DELTA_MAX) << 5);
	fx_put32(p, (u32)(delta >> RB_TS_SHIFT));
}

static inline void fx_time_stamp(struct fx_page *p, u64 ts)
{
	fx_put32(p, RINGBUF_TYPE_TIME_STAMP | (u32)(ts & RB_TS_DELTA_MAX) << 5);
	fx_put32(p, (u32)((ts & ~RB_TS_MSB) >> RB_TS_SHIFT));
}

/*
 * A discarded event: len bytes after its header (the length word
 * included, as the kernel counts them); its delta still counts.
 */
static inline void fx_discarded(struct fx_page *p, u32 delta, u32 len)
{
	fx_put32(p, RINGBUF_TYPE_PADDING | delta << 5);
	fx_put32(p, len);
	p->pos += len - 4;
}

/* Close the page: commit = bytes used, with lost-event flags (missed < 0: none). */
static inline void fx_page_finish(struct fx_page *p, long missed)
{
	s64 commit = (s64)(p->pos - RB_PAGE_HDR_SIZE);

	if (missed >= 0) {
		commit |= RB_MISSED_EVENTS;
		if (missed > 0) {
			commit |= RB_MISSED_STORED;
			memcpy(p->b + p->pos, &missed, 8);
		}
	}
	memcpy(p->b + 8, &commit, 8);
}

/* The common fields of a record (struct trace_entry). */
struct fx_entry {
	u16 type;
	u8 flags, preempt_count;
	s32 pid;
};

/* The test event every simple fixture uses: id 1500, "user_events:test", two u32/s32. */
#define FX_TEST_ID	1500
#define FX_TEST_FORMAT								\
	"name: test\nID: 1500\nformat:\n"					\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"		\
	"\tfield:u32 field1;\toffset:8;\tsize:4;\tsigned:0;\n"			\
	"\tfield:s32 field2;\toffset:12;\tsize:4;\tsigned:1;\n\n"		\
	"print fmt: \"field1=%u field2=%d\", REC->field1, REC->field2\n"

struct fx_test_rec {
	struct fx_entry e;
	u32 field1;
	s32 field2;
};

static inline void fx_test_event(struct fx_page *p, u32 delta, s32 pid, u32 f1, s32 f2)
{
	struct fx_test_rec r = { { FX_TEST_ID, 0, 0, pid }, f1, f2 };

	fx_event(p, delta, &r, sizeof(r));
}

/* A growing in-memory file for the writer. */
struct fx_file {
	u8 *buf;
	size_t len, cap;
};

static inline int fx_file_write(void *ctx, const void *b, size_t n)
{
	struct fx_file *f = ctx;

	if (f->len + n > f->cap) {
		f->cap = (f->len + n) * 2;
		f->buf = realloc(f->buf, f->cap);
		if (!f->buf)
			return -12;
	}
	memcpy(f->buf + f->len, b, n);
	f->len += n;
	return 0;
}

/*
 * A trace.dat with the given formats and, per CPU, nr_pages[cpu] pages
 * from pages[cpu], and per CPU a CPUSTAT text when cpustats is not NULL.
 * Returns the file (free f.buf).
 */
static inline struct fx_file fx_tracedat_stats(const struct tracedat_format *formats,
					       unsigned int nr_formats, unsigned int nr_cpus,
					       struct fx_page **pages, const unsigned int *nr_pages,
					       const char *cmdlines, const char *kallsyms,
					       const char *const *cpustats)
{
	struct fx_file f = { 0 };
	struct tracedat_writer w;
	u64 sizes[16];
	struct tracedat_info info = {
		.page_size = RB_PAGE_SIZE,
		.header_page = RB_HEADER_PAGE_TEXT,
		.header_event = RB_HEADER_EVENT_TEXT,
		.formats = formats,
		.nr_formats = nr_formats,
		.kallsyms = kallsyms,
		.kallsyms_len = kallsyms ? strlen(kallsyms) : 0,
		.cmdlines = cmdlines,
		.cmdlines_len = cmdlines ? strlen(cmdlines) : 0,
		.trace_clock = "[local] global counter\n",
		.nr_cpus = nr_cpus,
		.cpu_size = sizes,
		.cpustats = cpustats,
	};

	for (unsigned int c = 0; c < nr_cpus; c++)
		sizes[c] = (u64)nr_pages[c] * RB_PAGE_SIZE;
	tracedat_writer_init(&w, fx_file_write, &f);
	if (tracedat_write_head(&w, &info))
		abort();
	for (unsigned int c = 0; c < nr_cpus; c++)
		for (unsigned int i = 0; i < nr_pages[c]; i++)
			tracedat_write_data(&w, pages[c][i].b, RB_PAGE_SIZE);
	if (w.err)
		abort();
	return f;
}

/* The same without CPUSTAT options. */
static inline struct fx_file fx_tracedat(const struct tracedat_format *formats, unsigned int nr_formats,
					 unsigned int nr_cpus, struct fx_page **pages,
					 const unsigned int *nr_pages, const char *cmdlines,
					 const char *kallsyms)
{
	return fx_tracedat_stats(formats, nr_formats, nr_cpus, pages, nr_pages, cmdlines, kallsyms,
				 NULL);
}

/* report_run into a string (free it); *status gets the exit status. */
static inline char *fx_report(const u8 *buf, size_t len, const struct report_opts *opt, int *status)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct report_opts none = { 0 };

	*status = report_run("fixture.dat", buf, len, opt ? opt : &none, f);
	fclose(f);
	return out;
}

/* trace-cmd's output for path with extra flags. */
static inline char *trace_cmd(const char *path, const char *flags)
{
	char cmd[512];
	int status;

	snprintf(cmd, sizeof(cmd), "trace-cmd report %s -i %s 2>/dev/null", flags, path);
	return run(cmd, &status);
}

/* The first line where a and b differ, for the failure message. */
static inline void first_difference(const char *a, const char *b, char *msg, size_t size)
{
	int line = 1;

	while (*a && *a == *b) {
		line += *a == '\n';
		a++;
		b++;
	}
	while (line > 1 && a[-1] != '\n') {
		a--;
		b--;
	}
	snprintf(msg, size, "line %d:\n trace-cmd: %.*s\n spoor:     %.*s", line,
		 (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

/*
 * Does got equal trace-cmd's output for path with flags? Else a message
 * naming the first line that differs. trace-cmd gets a second run before
 * a difference counts: on a loaded machine it has once in a while printed
 * raw nanosecond stamps ("1000058997:") in place of "1.000059:".
 */
static inline bool same_as_trace_cmd(const char *path, const char *flags, const char *got, char *msg,
			      size_t size)
{
	for (int run = 0; run < 2; run++) {
		char *want = trace_cmd(path, flags);
		bool same = !strcmp(want, got);

		if (!same)
			first_difference(want, got, msg, size);
		free(want);
		if (same)
			return true;
	}
	return false;
}

#endif
