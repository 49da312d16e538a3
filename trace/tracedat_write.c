/*
 * trace.dat version 6 writer (layout in trace/tracedat.h and trace-cmd's
 * trace-cmd.dat.v6 description). Numbers are little-endian, as the file's
 * endian byte says; the long size is 8 (x86_64).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <trace/tracedat.h>

void tracedat_writer_init(struct tracedat_writer *w,
			  int (*write)(void *ctx, const void *buf, size_t len), void *ctx)
{
	w->write = write;
	w->ctx = ctx;
	w->pos = 0;
	w->err = 0;
}

static int put(struct tracedat_writer *w, const void *buf, size_t len)
{
	if (w->err || !len)
		return w->err;
	w->err = w->write(w->ctx, buf, len);
	if (!w->err)
		w->pos += len;
	return w->err;
}

static int put_u16(struct tracedat_writer *w, u16 v)
{
	u8 b[2] = { (u8)v, (u8)(v >> 8) };

	return put(w, b, 2);
}

static int put_u32(struct tracedat_writer *w, u32 v)
{
	u8 b[4];

	for (int i = 0; i < 4; i++)
		b[i] = (u8)(v >> (8 * i));
	return put(w, b, 4);
}

static int put_u64(struct tracedat_writer *w, u64 v)
{
	u8 b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (u8)(v >> (8 * i));
	return put(w, b, 8);
}

/* A NUL-terminated string, terminator included. */
static int put_str(struct tracedat_writer *w, const char *s)
{
	return put(w, s, strlen(s) + 1);
}

static bool is_ftrace(const struct tracedat_format *f)
{
	return !strcmp(f->system, "ftrace");
}

/* True when formats[i] is the first of its system (ftrace excluded). */
static bool first_of_system(const struct tracedat_info *info, unsigned int i)
{
	for (unsigned int j = 0; j < i; j++)
		if (!strcmp(info->formats[j].system, info->formats[i].system))
			return false;
	return !is_ftrace(&info->formats[i]);
}

static void put_formats(struct tracedat_writer *w, const struct tracedat_info *info)
{
	unsigned int n = 0, systems = 0;

	for (unsigned int i = 0; i < info->nr_formats; i++) {
		n += is_ftrace(&info->formats[i]);
		systems += first_of_system(info, i);
	}
	put_u32(w, n);
	for (unsigned int i = 0; i < info->nr_formats; i++) {
		if (!is_ftrace(&info->formats[i]))
			continue;
		put_u64(w, info->formats[i].len);
		put(w, info->formats[i].text, info->formats[i].len);
	}

	put_u32(w, systems);
	for (unsigned int i = 0; i < info->nr_formats; i++) {
		const char *sys = info->formats[i].system;

		if (!first_of_system(info, i))
			continue;
		n = 0;
		for (unsigned int j = i; j < info->nr_formats; j++)
			n += !strcmp(info->formats[j].system, sys);
		put_str(w, sys);
		put_u32(w, n);
		for (unsigned int j = i; j < info->nr_formats; j++) {
			if (strcmp(info->formats[j].system, sys))
				continue;
			put_u64(w, info->formats[j].len);
			put(w, info->formats[j].text, info->formats[j].len);
		}
	}
}

static int check(const struct tracedat_info *info)
{
	u32 ps = info->page_size;

	if (ps < 64 || ps > (1u << 20) || (ps & (ps - 1)) || !info->header_page)
		return -EINVAL;
	for (u32 cpu = 0; cpu < info->nr_cpus; cpu++)
		if (info->cpu_size[cpu] % ps)
			return -EINVAL;
	return 0;
}

int tracedat_write_tracing_data(struct tracedat_writer *w, const struct tracedat_info *info,
				const char *version)
{
	const char *he = info->header_event ? info->header_event : "";
	int ret = check(info);

	if (ret)
		return ret;
	put(w, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN);
	put_str(w, version);
	put(w, "\0\x08", 2);	/* little-endian, 8-byte longs */
	put_u32(w, info->page_size);
	put_str(w, "header_page");
	put_u64(w, strlen(info->header_page));
	put(w, info->header_page, strlen(info->header_page));
	put_str(w, "header_event");
	put_u64(w, strlen(he));
	put(w, he, strlen(he));
	put_formats(w, info);
	put_u32(w, (u32)info->kallsyms_len);
	put(w, info->kallsyms, info->kallsyms_len);
	put_u32(w, (u32)info->printk_len);
	put(w, info->printk, info->printk_len);
	put_u64(w, info->cmdlines_len);
	put(w, info->cmdlines, info->cmdlines_len);
	return w->err;
}

int tracedat_write_head(struct tracedat_writer *w, const struct tracedat_info *info)
{
	static const u8 zeros[256];
	u64 off;
	int ret = tracedat_write_tracing_data(w, info, "6");

	if (ret)
		return ret;
	put_u32(w, info->nr_cpus);

	if (info->trace_clock || info->cpustats) {
		put(w, "options  ", 10);
		for (u32 cpu = 0; info->cpustats && cpu < info->nr_cpus; cpu++) {
			/* trace-cmd stores the text with its NUL. */
			put_u16(w, TRACEDAT_OPT_CPUSTAT);
			put_u32(w, (u32)strlen(info->cpustats[cpu]) + 1);
			put_str(w, info->cpustats[cpu]);
		}
		/* Size 0: the clock text follows the CPU offsets table (v6). */
		if (info->trace_clock) {
			put_u16(w, TRACEDAT_OPT_TRACECLOCK);
			put_u32(w, 0);
		}
		put_u16(w, TRACEDAT_OPT_DONE);
	}
	put(w, "flyrecord", 10);

	/* The offsets table, then (with a clock option) the clock text, then pages. */
	off = w->pos + 16ull * info->nr_cpus;
	if (info->trace_clock)
		off += 8 + strlen(info->trace_clock);
	off = ALIGN_UP(off, (u64)info->page_size);
	for (u32 cpu = 0; cpu < info->nr_cpus; cpu++) {
		put_u64(w, info->cpu_size[cpu] ? off : 0);
		put_u64(w, info->cpu_size[cpu]);
		off += info->cpu_size[cpu];
	}
	if (info->trace_clock) {
		put_u64(w, strlen(info->trace_clock));
		put(w, info->trace_clock, strlen(info->trace_clock));
	}
	while (!w->err && w->pos % info->page_size) {
		u64 gap = info->page_size - w->pos % info->page_size;

		put(w, zeros, gap < sizeof(zeros) ? gap : sizeof(zeros));
	}
	return w->err;
}

int tracedat_write_data(struct tracedat_writer *w, const void *buf, size_t len)
{
	return put(w, buf, len);
}

static int count_only(void *ctx, const void *buf, size_t len)
{
	return 0;
}

u64 tracedat_file_size(const struct tracedat_info *info)
{
	struct tracedat_writer w;
	u64 size;

	tracedat_writer_init(&w, count_only, NULL);
	if (tracedat_write_head(&w, info))
		return 0;
	size = w.pos;
	for (u32 cpu = 0; cpu < info->nr_cpus; cpu++)
		size += info->cpu_size[cpu];
	return size;
}
