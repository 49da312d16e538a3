/*
 * Collecting a trace.dat from a tracefs directory, as trace-cmd extract
 * does on Linux: the events/ format files, header_page and header_event,
 * saved_cmdlines, trace_clock, and every CPU's pages from
 * per_cpu/cpuN/trace_pipe_raw (consumed: the writers keep going and lose
 * nothing already committed), then its per_cpu/cpuN/stats. Pure: it only uses files through sh_os, so
 * host tests run it over a fake tree.
 */
#ifndef TRACE_TRACEDAT_EXTRACT_H
#define TRACE_TRACEDAT_EXTRACT_H

#include <kernel/types.h>
#include <kernel/shell/sh_buf.h>
#include <trace/tracedat.h>

#define TRACEDAT_MAX_CPUS	64

/* What one extraction gathered; info describes it for tracedat_write_head(). */
struct tracedat_extract {
	struct tracedat_info info;
	struct tracedat_format *formats;
	unsigned int nr_formats;
	struct sh_buf header_page, header_event, cmdlines, clock;
	struct sh_buf texts;		/* the format files, back to back */
	struct sh_buf pages[TRACEDAT_MAX_CPUS];
	u64 cpu_size[TRACEDAT_MAX_CPUS];
	struct sh_buf stats[TRACEDAT_MAX_CPUS];	/* "CPU: N\n" + per_cpu/cpuN/stats */
	const char *cpustats[TRACEDAT_MAX_CPUS];	/* info.cpustats: stats[cpu].s */
};

/*
 * Read everything under tracefs (e.g. "/sys/kernel/tracing"); kallsyms is
 * the symbol table text to include (may be NULL). Returns 0 or -errno
 * (-ENOENT: not a tracefs directory, -ENOMEM).
 */
int tracedat_extract(struct tracedat_extract *x, const char *tracefs, const char *kallsyms,
		     size_t kallsyms_len);
/* The same without the pages: what the header blocks need (info.nr_cpus is 0). */
int tracedat_extract_meta(struct tracedat_extract *x, const char *tracefs, const char *kallsyms,
			  size_t kallsyms_len);
/* The whole trace.dat to w. */
int tracedat_extract_write(struct tracedat_extract *x, struct tracedat_writer *w);
void tracedat_extract_free(struct tracedat_extract *x);

/* Kernel only (trace/tracedat_debugfs.c): /proc/kallsyms-style lines of every symbol. */
char *tracedat_kallsyms_text(size_t *len);
/* /sys/kernel/debug/tracing_data: the header blocks, as perf.data's tracing data. */
int tracedat_debugfs_init(void);

#endif
