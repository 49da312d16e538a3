/* Collecting a trace.dat from tracefs files (trace/tracedat_extract.h). */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_io.h>
#include <trace/ring_buffer_format.h>
#include <trace/tracedat_extract.h>

/* Append the whole file at path to b; 0 or -errno. */
static int read_file(const char *path, struct sh_buf *b)
{
	int fd = sh_os->open(path, SH_O_RDONLY, 0);
	int ret;

	if (fd < 0)
		return fd;
	ret = sh_read_all(fd, b);
	sh_os->close(fd);
	return ret ? ret : b->oom ? -ENOMEM : 0;
}

/* Directory entries collected by readdir: names back to back, NUL-separated. */
struct dir_list {
	struct sh_buf names;
	unsigned int n;
};

static int collect_dir(void *ctx, const char *name, enum sh_ftype type)
{
	struct dir_list *l = ctx;

	if (type != SH_FT_DIR || name[0] == '.')
		return 0;
	sh_buf_put(&l->names, name, strlen(name) + 1);
	l->n++;
	return 0;
}

static int list_dirs(const char *path, struct dir_list *l)
{
	memset(l, 0, sizeof(*l));
	return sh_os->readdir(path, collect_dir, l);
}

static int add_format(struct tracedat_extract *x, const char *path, const char *system)
{
	struct sh_buf text = { 0 };
	struct tracedat_format *n;
	int ret = read_file(path, &text);

	if (ret || !text.len) {
		sh_buf_free(&text);
		return ret == -ENOMEM ? ret : 0;	/* an event without a format is skipped */
	}
	n = krealloc(x->formats, (x->nr_formats + 1) * sizeof(*n), GFP_KERNEL);
	if (!n) {
		sh_buf_free(&text);
		return -ENOMEM;
	}
	x->formats = n;
	/* Offsets for now: x->texts moves as it grows. Pointers are made at the end. */
	n[x->nr_formats].system = (const char *)(uintptr_t)x->texts.len;
	sh_buf_put(&x->texts, system, strlen(system) + 1);
	n[x->nr_formats].text = (const char *)(uintptr_t)x->texts.len;
	n[x->nr_formats].len = text.len;
	sh_buf_put(&x->texts, text.s, text.len);
	x->nr_formats++;
	sh_buf_free(&text);
	return x->texts.oom ? -ENOMEM : 0;
}

static int read_formats(struct tracedat_extract *x, const char *tracefs)
{
	struct dir_list systems, events;
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	ret = list_dirs(path, &systems);
	for (const char *sys = systems.names.s; !ret && systems.n--; sys += strlen(sys) + 1) {
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, sys);
		ret = list_dirs(path, &events);
		for (const char *ev = events.names.s; !ret && events.n--; ev += strlen(ev) + 1) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys, ev);
			ret = add_format(x, path, sys);
		}
		sh_buf_free(&events.names);
	}
	sh_buf_free(&systems.names);
	for (unsigned int i = 0; !ret && i < x->nr_formats; i++) {
		x->formats[i].system = x->texts.s + (uintptr_t)x->formats[i].system;
		x->formats[i].text = x->texts.s + (uintptr_t)x->formats[i].text;
	}
	return ret;
}

/* The number a file starts with (buffer_size_kb: "1410", "7 (expanded: 1410)"); -ENOENT: none. */
static int read_number(const char *path, unsigned long long *val)
{
	struct sh_buf text = { 0 };
	int ret = read_file(path, &text);

	if (!ret && !(text.s && text.s[0] >= '0' && text.s[0] <= '9'))
		ret = -ENOENT;
	*val = 0;
	for (const char *p = text.s; !ret && *p >= '0' && *p <= '9' && *val < (1ull << 40); p++)
		*val = *val * 10 + (unsigned long long)(*p - '0');
	sh_buf_free(&text);
	return ret;
}

/*
 * The pages of one CPU's buffer (per_cpu/cpuN), consumed through
 * trace_pipe_raw. At most a buffer's worth: with tracing on, writers
 * (this read among them) fill pages as fast as they are taken, and a
 * dump must end. What was committed when it started is in that much.
 */
static int read_pages(const char *dir, size_t page_size, struct sh_buf *b)
{
	char path[256];
	unsigned long long max = 1 << 16, kbytes;
	char *page;
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
	if (!read_number(path, &kbytes))
		max = kbytes * 1024 / (page_size - RB_PAGE_HDR_SIZE) + 2;
	/* Non-blocking: an empty buffer ends the CPU's data instead of waiting for more. */
	snprintf(path, sizeof(path), "%s/trace_pipe_raw", dir);
	fd = sh_os->open(path, SH_O_RDONLY | SH_O_NONBLOCK, 0);
	if (fd < 0)
		return fd;
	page = kmalloc(page_size, GFP_KERNEL);
	if (!page) {
		sh_os->close(fd);
		return -ENOMEM;
	}
	while (max-- && (n = sh_os->read(fd, page, page_size)) == (ssize_t)page_size)
		sh_buf_put(b, page, page_size);
	kfree(page);
	sh_os->close(fd);
	return n < 0 && n != -EAGAIN ? (int)n : b->oom ? -ENOMEM : 0;
}

int tracedat_extract_meta(struct tracedat_extract *x, const char *tracefs, const char *kallsyms,
			  size_t kallsyms_len)
{
	unsigned long long kb;
	u32 page_size = RB_PAGE_SIZE;
	char path[256];
	int ret;

	memset(x, 0, sizeof(*x));
	/* The pages trace_pipe_raw hands out are sub-buffers (4 KiB without the file). */
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", tracefs);
	if (!read_number(path, &kb) && kb * 1024 > RB_PAGE_SIZE &&
	    kb * 1024 <= RB_SUBBUF_SIZE(RB_SUBBUF_MAX_ORDER))
		page_size = (u32)kb * 1024;
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	ret = read_file(path, &x->header_page);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	ret = read_file(path, &x->header_event);
	if (!ret)
		ret = read_formats(x, tracefs);
	if (!ret) {
		snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs);
		ret = read_file(path, &x->cmdlines);
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/trace_clock", tracefs);
		ret = read_file(path, &x->clock);
	}
	if (ret)
		return ret;
	x->info = (struct tracedat_info){
		.page_size = page_size,
		.header_page = x->header_page.s,
		.header_event = x->header_event.s ? x->header_event.s : "",
		.formats = x->formats,
		.nr_formats = x->nr_formats,
		.kallsyms = kallsyms,
		.kallsyms_len = kallsyms ? kallsyms_len : 0,
		.cmdlines = x->cmdlines.s,
		.cmdlines_len = x->cmdlines.len,
		.trace_clock = x->clock.s,
		.cpu_size = x->cpu_size,
	};
	return x->header_page.s ? 0 : -ENOENT;
}

int tracedat_extract(struct tracedat_extract *x, const char *tracefs, const char *kallsyms,
		     size_t kallsyms_len)
{
	char path[256];
	unsigned int cpu;
	int ret = tracedat_extract_meta(x, tracefs, kallsyms, kallsyms_len);

	for (cpu = 0; !ret && cpu < TRACEDAT_MAX_CPUS; cpu++) {
		struct sh_stat st;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", tracefs, cpu);
		if (sh_os->stat(path, &st))
			break;
		ret = read_pages(path, x->info.page_size, &x->pages[cpu]);
		x->cpu_size[cpu] = x->pages[cpu].len;
		/* After the pages, as trace-cmd record: "entries" left should be 0. */
		sh_buf_printf(&x->stats[cpu], "CPU: %u\n", cpu);
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", tracefs, cpu);
		if (!ret && (read_file(path, &x->stats[cpu]) == -ENOMEM || x->stats[cpu].oom))
			ret = -ENOMEM;	/* a tree without stats files just has none */
		x->cpustats[cpu] = x->stats[cpu].s;
	}
	x->info.nr_cpus = cpu;
	x->info.cpustats = cpu ? x->cpustats : NULL;
	return ret;
}

int tracedat_extract_write(struct tracedat_extract *x, struct tracedat_writer *w)
{
	int ret = tracedat_write_head(w, &x->info);

	for (unsigned int cpu = 0; !ret && cpu < x->info.nr_cpus; cpu++)
		ret = tracedat_write_data(w, x->pages[cpu].s, x->pages[cpu].len);
	return ret;
}

void tracedat_extract_free(struct tracedat_extract *x)
{
	sh_buf_free(&x->header_page);
	sh_buf_free(&x->header_event);
	sh_buf_free(&x->cmdlines);
	sh_buf_free(&x->clock);
	sh_buf_free(&x->texts);
	for (unsigned int cpu = 0; cpu < TRACEDAT_MAX_CPUS; cpu++) {
		sh_buf_free(&x->pages[cpu]);
		sh_buf_free(&x->stats[cpu]);
	}
	kfree(x->formats);
	memset(x, 0, sizeof(*x));
}
