/*
 * trace.dat, version 6, as trace-cmd reads it: a header with the text files
 * a decoder needs (header_page, header_event, every event's format,
 * kallsyms, printk formats, saved cmdlines), the CPU count, CPUSTAT and
 * TRACECLOCK options, then "flyrecord" with one page-aligned run of raw ring-buffer
 * pages (trace/ring_buffer_format.h) per CPU. Pure: the guest's dump
 * command streams it out of the machine, host tests write fixtures with it.
 *
 * The writer streams: the caller gives the sizes of every CPU's data up
 * front (the header holds their offsets), then hands over the pages.
 */
#ifndef TRACE_TRACEDAT_H
#define TRACE_TRACEDAT_H

#include <kernel/types.h>

#define TRACEDAT_MAGIC		"\x17\x08\x44tracing"	/* 10 bytes, then "6\0" */
#define TRACEDAT_MAGIC_LEN	10

/* trace.dat option ids (trace-cmd's TRACECMD_OPTION_*). */
enum tracedat_option {
	TRACEDAT_OPT_DONE = 0,
	TRACEDAT_OPT_DATE = 1,
	TRACEDAT_OPT_CPUSTAT = 2,
	TRACEDAT_OPT_BUFFER = 3,
	TRACEDAT_OPT_TRACECLOCK = 4,
	TRACEDAT_OPT_UNAME = 5,
	TRACEDAT_OPT_HOOK = 6,
	TRACEDAT_OPT_OFFSET = 7,
	TRACEDAT_OPT_CPUCOUNT = 8,
	TRACEDAT_OPT_VERSION = 9,
	TRACEDAT_OPT_PROCMAPS = 10,
	TRACEDAT_OPT_TRACEID = 11,
	TRACEDAT_OPT_TIME_SHIFT = 12,
	TRACEDAT_OPT_GUEST = 13,
	TRACEDAT_OPT_TSC2NSEC = 14,
	TRACEDAT_OPT_STRINGS = 15,
	TRACEDAT_OPT_HEADER_INFO = 16,
	TRACEDAT_OPT_FTRACE_EVENTS = 17,
	TRACEDAT_OPT_EVENT_FORMATS = 18,
	TRACEDAT_OPT_KALLSYMS = 19,
	TRACEDAT_OPT_PRINTK = 20,
	TRACEDAT_OPT_CMDLINES = 21,
	TRACEDAT_OPT_BUFFER_TEXT = 22,
};

/* One events/<system>/<name>/format file. */
struct tracedat_format {
	const char *system;	/* "ftrace" ones go to the ftrace section */
	const char *text;
	size_t len;
};

/* Everything in a trace.dat except the pages themselves. */
struct tracedat_info {
	u32 page_size;			/* RB_PAGE_SIZE for Spoor's buffers */
	const char *header_page;	/* events/header_page text */
	const char *header_event;	/* events/header_event text ("" allowed) */
	const struct tracedat_format *formats;
	unsigned int nr_formats;
	const char *kallsyms;		/* /proc/kallsyms lines; NULL = none */
	size_t kallsyms_len;
	const char *printk;		/* printk_formats lines; NULL = none */
	size_t printk_len;
	const char *cmdlines;		/* saved_cmdlines: "<pid> <comm>\n" lines */
	size_t cmdlines_len;
	const char *trace_clock;	/* trace_clock file text ("[local] global\n"); NULL = none */
	u32 nr_cpus;
	const u64 *cpu_size;		/* bytes of pages per CPU, multiples of page_size */
	/*
	 * Per CPU, the buffer's counters as trace-cmd record keeps them:
	 * "CPU: N\n" and per_cpu/cpuN/stats, read after the pages were
	 * taken (one CPUSTAT option each; trace-cmd report --stat prints
	 * them). NULL = none.
	 */
	const char *const *cpustats;
};

/*
 * Where the bytes go. write() returns 0 or a negative errno; the first
 * error sticks and every later call returns it.
 */
struct tracedat_writer {
	int (*write)(void *ctx, const void *buf, size_t len);
	void *ctx;
	u64 pos;		/* bytes written so far */
	int err;
};

void tracedat_writer_init(struct tracedat_writer *w,
			  int (*write)(void *ctx, const void *buf, size_t len), void *ctx);

/*
 * The header blocks alone: magic, version, endianness, page size,
 * header_page/header_event, the formats, kallsyms, printk formats and
 * saved cmdlines. A trace.dat starts with them (version "6"); perf.data's
 * HEADER_TRACING_DATA section is exactly them with version "0.6".
 */
int tracedat_write_tracing_data(struct tracedat_writer *w, const struct tracedat_info *info,
				const char *version);

/*
 * Everything up to the first CPU's first page, padding included. The
 * caller then writes exactly info->cpu_size[cpu] bytes for each CPU in
 * order (tracedat_write_data), nothing in between.
 * -EINVAL for sizes that are not whole pages or an absurd page size.
 */
int tracedat_write_head(struct tracedat_writer *w, const struct tracedat_info *info);
int tracedat_write_data(struct tracedat_writer *w, const void *buf, size_t len);

/* The exact size of the file tracedat_write_head() + the CPU data make. */
u64 tracedat_file_size(const struct tracedat_info *info);

#endif
