/*
 * trace.dat reader: versions 6 and 7 (trace/tracedat.h, trace-cmd's
 * trace-cmd.dat.v6/v7 descriptions). Every read is bounds-checked through
 * a cursor; a cursor that runs off its end stops the piece it was reading
 * and the message names the offset where the piece went wrong.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "host-tools/tracedat_read.h"
#include "trace/tracedat.h"

/* Inflated pieces bigger than this are refused: a corrupt size, not data. */
#define TDAT_MAX_INFLATE	(64u << 20)
#define TDAT_MAX_SECTIONS	256

/* A reading position in the file or in an inflated section. */
struct cursor {
	struct tdat *t;
	const unsigned char *p, *end;
	uint64_t base;		/* file offset of p's buffer start (approximate when inflated) */
	const unsigned char *start;
	bool bad;		/* ran off the end: every later read fails */
	bool silent;		/* a look-ahead pass: the real pass reports what it finds */
};

static bool quiet;

void tdat_set_quiet(bool on)
{
	quiet = on;
}

void tdat_diag(struct tdat *t, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	t->errors++;
	if (quiet)
		return;
	fprintf(stderr, "spoor: report: %s: offset %#llx: ", t->path, (unsigned long long)offset);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void cur_init(struct cursor *c, struct tdat *t, const void *buf, size_t len, uint64_t base)
{
	c->t = t;
	c->p = c->start = buf;
	c->end = c->p + len;
	c->base = base;
	c->bad = false;
	c->silent = false;
}

static uint64_t cur_off(const struct cursor *c)
{
	return c->base + (uint64_t)(c->p - c->start);
}

/* Take n bytes; NULL (and the cursor goes bad, with a message) when they are not there. */
static const unsigned char *take(struct cursor *c, uint64_t n, const char *what)
{
	const unsigned char *p = c->p;

	if (c->bad)
		return NULL;
	if (n > (uint64_t)(c->end - c->p)) {
		if (!c->silent)
			tdat_diag(c->t, cur_off(c), "truncated: %s needs %llu bytes, %zu left", what,
				  (unsigned long long)n, (size_t)(c->end - c->p));
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint16_t get16(struct cursor *c, const char *what)
{
	const unsigned char *p = take(c, 2, what);

	return p ? tdat_u16(c->t, p) : 0;
}

static uint32_t get32(struct cursor *c, const char *what)
{
	const unsigned char *p = take(c, 4, what);

	return p ? tdat_u32(c->t, p) : 0;
}

static uint64_t get64(struct cursor *c, const char *what)
{
	const unsigned char *p = take(c, 8, what);

	return p ? tdat_u64(c->t, p) : 0;
}

/* A NUL-terminated string; NULL if there is no NUL before the end. */
static const char *getstr(struct cursor *c, const char *what)
{
	const unsigned char *nul;

	if (c->bad)
		return NULL;
	nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	if (!nul) {
		tdat_diag(c->t, cur_off(c), "truncated: unterminated %s", what);
		c->bad = true;
		return NULL;
	}
	return (const char *)take(c, (uint64_t)(nul - c->p) + 1, what);
}

static bool getblob(struct cursor *c, struct tdat_blob *b, uint64_t len, const char *what)
{
	uint64_t off = cur_off(c);
	const unsigned char *p = take(c, len, what);

	if (!p)
		return false;
	b->data = (const char *)p;
	b->len = (size_t)len;
	b->offset = off;
	return true;
}

static void *track(struct tdat *t, void *p)
{
	void **n;

	if (!p)
		return NULL;
	n = realloc(t->allocs, (t->nr_allocs + 1) * sizeof(*n));
	if (!n) {
		free(p);
		return NULL;
	}
	t->allocs = n;
	t->allocs[t->nr_allocs++] = p;
	return p;
}

static bool expect(struct cursor *c, const char *magic, size_t len)
{
	uint64_t off = cur_off(c);
	const unsigned char *p = take(c, len, magic);

	if (p && memcmp(p, magic, len)) {
		tdat_diag(c->t, off, "expected \"%s\"", magic);
		c->bad = true;
		return false;
	}
	return p != NULL;
}

/* header_page and header_event. */
static void read_headers(struct cursor *c)
{
	struct tdat *t = c->t;
	const char *s;

	if (!expect(c, "header_page", 12))
		return;
	getblob(c, &t->header_page, get64(c, "header_page size"), "header_page");
	if (!expect(c, "header_event", 13))
		return;
	getblob(c, &t->header_event, get64(c, "header_event size"), "header_event");

	/* The kernel's long size is the size of header_page's commit field. */
	s = t->header_page.data ? memmem(t->header_page.data, t->header_page.len, "commit;", 7) : NULL;
	if (s) {
		const char *sz = memmem(s, t->header_page.len - (size_t)(s - t->header_page.data),
					"size:", 5);

		if (sz && (sz[5] == '4' || sz[5] == '8'))
			t->long_size = sz[5] - '0';
	}
}

static void add_format(struct cursor *c, const char *system)
{
	struct tdat *t = c->t;
	struct tdat_blob b;
	struct tdat_format *n;

	if (!getblob(c, &b, get64(c, "format size"), "format"))
		return;
	n = realloc(t->formats, (t->nr_formats + 1) * sizeof(*n));
	if (!n)
		return;
	t->formats = n;
	t->formats[t->nr_formats].system = system;
	t->formats[t->nr_formats++].text = b;
}

static void read_ftrace_events(struct cursor *c)
{
	uint32_t n = get32(c, "ftrace format count");

	for (uint32_t i = 0; i < n && !c->bad; i++)
		add_format(c, "ftrace");
}

static void read_event_formats(struct cursor *c)
{
	uint32_t systems = get32(c, "system count");

	for (uint32_t s = 0; s < systems && !c->bad; s++) {
		const char *sys = getstr(c, "system name");
		uint32_t n = get32(c, "event count");

		for (uint32_t i = 0; i < n && !c->bad; i++)
			add_format(c, sys);
	}
}

static void read_kallsyms(struct cursor *c)
{
	getblob(c, &c->t->kallsyms, get32(c, "kallsyms size"), "kallsyms");
}

static void read_printk(struct cursor *c)
{
	getblob(c, &c->t->printk, get32(c, "printk formats size"), "printk formats");
}

static void read_cmdlines(struct cursor *c)
{
	getblob(c, &c->t->cmdlines, get64(c, "saved cmdlines size"), "saved cmdlines");
}

/* "[local] global counter" -> "local"; a bare name is taken as is. */
static void set_clock(struct tdat *t, const char *text, size_t len)
{
	const char *open = memchr(text, '[', len), *close;
	size_t n;

	if (open) {
		close = memchr(open, ']', len - (size_t)(open - text));
		if (!close)
			return;
		text = open + 1;
		n = (size_t)(close - text);
	} else {
		n = strnlen(text, len);
		while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
			n--;
	}
	if (n && n < sizeof(t->clock)) {
		memcpy(t->clock, text, n);
		t->clock[n] = 0;
	}
}

static struct tdat_cpu *add_cpu(struct tdat *t, unsigned int cpu)
{
	struct tdat_cpu *n = realloc(t->cpus, (t->nr_data + 1) * sizeof(*n));

	if (!n)
		return NULL;
	t->cpus = n;
	n = &t->cpus[t->nr_data++];
	memset(n, 0, sizeof(*n));
	n->cpu = cpu;
	return n;
}

/* Raw pages at [offset, offset + size) of the file: checked, cut to what is there. */
static void set_raw_data(struct tdat *t, struct tdat_cpu *d, uint64_t offset, uint64_t size)
{
	d->offset = offset;
	if (!size)
		return;
	if (offset % t->page_size) {
		tdat_diag(t, offset, "CPU %u data is not page aligned", d->cpu);
		return;
	}
	if (offset > t->size || size > t->size - offset) {
		tdat_diag(t, offset, "truncated: CPU %u data needs %llu bytes, file has %llu", d->cpu,
			  (unsigned long long)size,
			  (unsigned long long)(offset > t->size ? 0 : t->size - offset));
		size = offset > t->size ? 0 : t->size - offset;
	}
	size -= size % t->page_size;
	d->data = size ? t->buf + offset : t->buf;
	d->size = (size_t)size;
}

/* ---- version 7: sections and compression ---------------------------------------- */

static bool inflate_to(struct tdat *t, uint64_t off, const unsigned char *src, size_t clen,
		       unsigned char *dst, size_t ulen)
{
	if (!strcmp(t->compression, "zstd")) {
		size_t r;

		/* One context for every chunk: ZSTD_decompress makes and frees one per call. */
		if (!t->zstd && !(t->zstd = ZSTD_createDCtx())) {
			tdat_diag(t, off, "zstd: out of memory");
			return false;
		}
		r = ZSTD_decompressDCtx(t->zstd, dst, ulen, src, clen);

		if (ZSTD_isError(r) || r != ulen) {
			tdat_diag(t, off, "zstd: %s", ZSTD_isError(r) ? ZSTD_getErrorName(r) :
				  "inflated size differs from the header's");
			return false;
		}
		return true;
	}
	if (!strcmp(t->compression, "zlib")) {
		uLongf n = ulen;

		if (uncompress(dst, &n, src, clen) != Z_OK || n != ulen) {
			tdat_diag(t, off, "zlib: corrupt compressed data");
			return false;
		}
		return true;
	}
	tdat_diag(t, off, "compressed with unsupported \"%s\"", t->compression);
	return false;
}

/*
 * Open the section at off (expecting id) into c: its own bytes, or an
 * inflated copy. False when it is not there or is damaged.
 */
static bool open_section(struct tdat *t, uint64_t off, uint16_t id, struct cursor *c, uint16_t *flags)
{
	struct cursor h;
	uint16_t sid, fl;
	uint64_t size;
	const unsigned char *body;

	if (off >= t->size) {
		tdat_diag(t, off, "section %u is beyond the end of the file", id);
		return false;
	}
	cur_init(&h, t, t->buf + off, t->size - off, off);
	sid = get16(&h, "section id");
	fl = get16(&h, "section flags");
	get32(&h, "section string");
	size = get64(&h, "section size");
	if (h.bad)
		return false;
	if (sid != id) {
		tdat_diag(t, off, "expected section %u, found %u", id, sid);
		return false;
	}
	if (flags)
		*flags = fl;
	if (!(fl & 1) || id == 3) {
		/* Buffer sections are chunked per CPU, not compressed whole. */
		if (size > (uint64_t)(h.end - h.p))
			size = (uint64_t)(h.end - h.p);
		cur_init(c, t, h.p, (size_t)size, cur_off(&h));
		return true;
	}
	uint32_t clen = get32(&h, "compressed size"), ulen = get32(&h, "uncompressed size");
	unsigned char *dst;

	body = take(&h, clen, "compressed section");
	if (!body)
		return false;
	if (ulen > TDAT_MAX_INFLATE) {
		tdat_diag(t, off, "section %u claims %u inflated bytes", id, ulen);
		return false;
	}
	dst = track(t, malloc(ulen ? ulen : 1));
	if (!dst || !inflate_to(t, cur_off(&h) - clen, body, clen, dst, ulen))
		return false;
	cur_init(c, t, dst, ulen, off);
	return true;
}

/* One CPU's chunked data at off: checked when read (tdat_reader_next). */
static void set_chunked_data(struct tdat *t, struct tdat_cpu *d, uint64_t off, uint64_t size)
{
	d->offset = off;
	d->chunked = size != 0;
	if (size && off >= t->size) {
		tdat_diag(t, off, "truncated: CPU %u compressed data is beyond the end of the file", d->cpu);
		d->chunked = false;
	}
	if (d->chunked) {
		/* Headers only (quietly: reading the data reports damage): what --stat shows. */
		struct cursor c;
		uint64_t sum = 0;
		uint32_t n;

		cur_init(&c, t, t->buf + off, (size_t)(t->size - off), off);
		c.silent = true;
		n = get32(&c, "chunk count");
		for (uint32_t i = 0; i < n; i++) {
			uint32_t clen = get32(&c, "chunk header"), ulen = get32(&c, "chunk header");

			if (!take(&c, clen, "chunk"))
				break;
			sum += ulen;
		}
		d->inflated_size = sum - sum % t->page_size;
	}
}

/* A v7 BUFFER option: the top instance's clock and CPU data. Others are skipped. */
static void read_buffer_option(struct tdat *t, struct cursor *c)
{
	uint64_t sec = get64(c, "buffer section offset");
	const char *name = getstr(c, "buffer name");
	const char *clock = getstr(c, "buffer clock");
	uint32_t page_size = get32(c, "buffer page size");
	uint32_t n = get32(c, "buffer CPU count");
	uint16_t flags = 0;
	struct cursor s;

	if (c->bad || !name || *name)
		return;
	set_clock(t, clock, strlen(clock));
	if (page_size != t->page_size)
		tdat_diag(t, cur_off(c), "buffer page size %u differs from the file's %u", page_size,
			  t->page_size);
	if (!open_section(t, sec, 3, &s, &flags))
		return;
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint32_t cpu = get32(c, "buffer CPU");
		uint64_t off = get64(c, "buffer CPU offset"), size = get64(c, "buffer CPU size");
		struct tdat_cpu *d;

		if (c->bad || !(d = add_cpu(t, cpu)))
			return;
		if (flags & 1)
			set_chunked_data(t, d, off, size);
		else
			set_raw_data(t, d, off, size);
	}
}

static void read_meta_section(struct tdat *t, uint64_t off, uint16_t id,
			      void (*read)(struct cursor *c))
{
	struct cursor c;

	if (open_section(t, off, id, &c, NULL))
		read(&c);
}

/* A CPUSTAT option (the buffer counters trace-cmd record kept): report --stat prints them. */
static void add_cpustat(struct tdat *t, const unsigned char *data, uint32_t size, uint64_t off)
{
	struct tdat_blob *n = realloc(t->cpustats, (t->nr_cpustats + 1) * sizeof(*n));

	if (!n)
		return;
	t->cpustats = n;
	n[t->nr_cpustats++] = (struct tdat_blob){ (const char *)data, size, off };
}

/* One options section's options; returns the next section's offset (0: none). */
static uint64_t read_options_v7(struct tdat *t, struct cursor *c)
{
	while (!c->bad && c->p < c->end) {
		uint16_t id = get16(c, "option id");
		uint32_t size = get32(c, "option size");
		struct cursor o;
		const unsigned char *data = take(c, size, "option data");

		if (!data)
			break;
		cur_init(&o, t, data, size, cur_off(c) - size);
		switch (id) {
		case TRACEDAT_OPT_DONE:
			return size >= 8 ? get64(&o, "next options") : 0;
		case TRACEDAT_OPT_BUFFER:
			read_buffer_option(t, &o);
			break;
		case TRACEDAT_OPT_OFFSET:
			t->ts_offset += strtoll((const char *)data, NULL, 0);
			break;
		case TRACEDAT_OPT_CPUCOUNT:
			t->nr_cpus = get32(&o, "CPU count");
			break;
		case TRACEDAT_OPT_CPUSTAT:
			add_cpustat(t, data, size, cur_off(c) - size);
			break;
		case TRACEDAT_OPT_HEADER_INFO:
			read_meta_section(t, get64(&o, "section offset"), id, read_headers);
			break;
		case TRACEDAT_OPT_FTRACE_EVENTS:
			read_meta_section(t, get64(&o, "section offset"), id, read_ftrace_events);
			break;
		case TRACEDAT_OPT_EVENT_FORMATS:
			read_meta_section(t, get64(&o, "section offset"), id, read_event_formats);
			break;
		case TRACEDAT_OPT_KALLSYMS:
			t->kallsyms_section = get64(&o, "section offset");
			break;
		case TRACEDAT_OPT_PRINTK:
			read_meta_section(t, get64(&o, "section offset"), id, read_printk);
			break;
		case TRACEDAT_OPT_CMDLINES:
			read_meta_section(t, get64(&o, "section offset"), id, read_cmdlines);
			break;
		default:
			break;
		}
	}
	return 0;
}

static void read_v7(struct tdat *t, struct cursor *c)
{
	const char *name = getstr(c, "compression name");
	uint64_t next;

	getstr(c, "compression version");
	next = get64(c, "options offset");
	if (c->bad)
		return;
	snprintf(t->compression, sizeof(t->compression), "%s", name);
	for (int n = 0; next && n < TDAT_MAX_SECTIONS; n++) {
		struct cursor s;

		if (!open_section(t, next, 0, &s, NULL))
			return;
		next = read_options_v7(t, &s);
	}
}

/* ---- version 6 ------------------------------------------------------------------ */

/* The header blocks a v6 file starts with, and perf.data's tracing data holds. */
static void read_header_blocks(struct cursor *c)
{
	read_headers(c);
	read_ftrace_events(c);
	read_event_formats(c);
	read_kallsyms(c);
	read_printk(c);
	read_cmdlines(c);
}

static void read_v6(struct tdat *t, struct cursor *c)
{
	bool has_clock = false;

	read_header_blocks(c);
	t->nr_cpus = get32(c, "CPU count");

	for (;;) {
		uint64_t off = cur_off(c);
		const unsigned char *label = take(c, 10, "section label");

		if (!label)
			return;
		if (!memcmp(label, "options  ", 10)) {
			uint16_t id;

			while ((id = get16(c, "option id")) && !c->bad) {
				uint32_t size = get32(c, "option size");
				const unsigned char *data = take(c, size, "option data");

				if (!data)
					return;
				if (id == TRACEDAT_OPT_TRACECLOCK)
					has_clock = true;
				else if (id == TRACEDAT_OPT_CPUSTAT)
					add_cpustat(t, data, size, cur_off(c) - size);
				else if (id == TRACEDAT_OPT_OFFSET)
					t->ts_offset += strtoll((const char *)data, NULL, 0);
			}
			continue;
		}
		if (!memcmp(label, "latency  ", 10)) {
			tdat_diag(t, off, "latency-format trace data is not supported");
			return;
		}
		if (memcmp(label, "flyrecord", 10)) {
			tdat_diag(t, off, "expected \"flyrecord\" or \"options\"");
			return;
		}
		break;
	}
	if (t->nr_cpus > 4096) {
		tdat_diag(t, cur_off(c), "CPU count %u is absurd", t->nr_cpus);
		return;
	}
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		uint64_t off = get64(c, "CPU data offset"), size = get64(c, "CPU data size");
		struct tdat_cpu *d;

		if (c->bad || !(d = add_cpu(t, cpu)))
			return;
		set_raw_data(t, d, off, size);
	}
	if (has_clock) {
		struct tdat_blob clock;

		if (getblob(c, &clock, get64(c, "clock size"), "clock"))
			set_clock(t, clock.data, clock.len);
	}
}

/* Magic, version, endianness, long size and page size; the version text, NULL if unusable. */
static const char *read_prologue(struct tdat *t, struct cursor *c)
{
	const char *version;
	const unsigned char *p;
	uint64_t at = cur_off(c);

	if (!expect(c, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN))
		return NULL;
	version = getstr(c, "version");
	p = take(c, 2, "endian and long size");
	if (!p)
		return NULL;
	t->big_endian = p[0] != 0;
	t->long_size = p[1] == 4 ? 4 : 8;
	t->page_size = get32(c, "page size");
	if (c->bad)
		return NULL;
	if (t->page_size < 64 || t->page_size > (1u << 24) || (t->page_size & (t->page_size - 1))) {
		tdat_diag(t, at + 16, "page size %u is not a power of two in [64, 16M]", t->page_size);
		return NULL;
	}
	return version;
}

static void tdat_init(struct tdat *t, const char *path, const unsigned char *buf, size_t size)
{
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->buf = buf;
	t->size = size;
	t->long_size = 8;
	strcpy(t->clock, "local");
}

int tdat_open(struct tdat *t, const char *path, const unsigned char *buf, size_t size)
{
	struct cursor c;
	const char *version;

	tdat_init(t, path, buf, size);
	cur_init(&c, t, buf, size, 0);
	version = read_prologue(t, &c);
	if (!version)
		return -1;
	t->version = atoi(version);
	if (t->version == 6) {
		read_v6(t, &c);
	} else if (t->version == 7) {
		read_v7(t, &c);
	} else {
		tdat_diag(t, TRACEDAT_MAGIC_LEN, "unsupported trace.dat version \"%s\"", version);
		return -1;
	}
	return t->nr_data || t->nr_formats ? 0 : -1;
}

int tdat_open_tracing_data(struct tdat *t, const char *path, const unsigned char *buf, size_t size,
			   uint64_t off, uint64_t len)
{
	struct cursor c;
	const char *version;

	tdat_init(t, path, buf, size);
	if (off > size || len > size - off) {
		tdat_diag(t, off, "tracing data runs past the end of the file");
		return -1;
	}
	cur_init(&c, t, buf + off, (size_t)len, off);
	version = read_prologue(t, &c);
	if (!version)
		return -1;
	if (strcmp(version, "0.6")) {
		tdat_diag(t, off + TRACEDAT_MAGIC_LEN, "unsupported tracing data version \"%s\"", version);
		return -1;
	}
	t->version = 6;
	read_header_blocks(&c);
	return t->nr_formats ? 0 : -1;
}

const struct tdat_blob *tdat_kallsyms(struct tdat *t)
{
	uint64_t off = t->kallsyms_section;

	if (off) {
		t->kallsyms_section = 0;
		read_meta_section(t, off, TRACEDAT_OPT_KALLSYMS, read_kallsyms);
	}
	return &t->kallsyms;
}

void tdat_close(struct tdat *t)
{
	for (unsigned int i = 0; i < t->nr_allocs; i++)
		free(t->allocs[i]);
	free(t->allocs);
	free(t->formats);
	free(t->cpus);
	free(t->cpustats);
	ZSTD_freeDCtx(t->zstd);
	memset(t, 0, sizeof(*t));
}

/* ---- reading CPU data ------------------------------------------------------------ */

void tdat_reader_init(struct tdat_reader *r, struct tdat *t, const struct tdat_cpu *cpu)
{
	memset(r, 0, sizeof(*r));
	r->t = t;
	r->cpu = cpu;
	r->offset = cpu->offset;
}

/*
 * The next chunk inflated after the carried bytes; false at the end or on
 * damage (reported). The chunk count, not the recorded size, bounds the
 * data: trace-cmd records a size that leaves out the chunk headers.
 */
static bool inflate_chunk(struct tdat_reader *r)
{
	struct tdat *t = r->t;
	struct cursor c;
	uint32_t clen, ulen;
	const unsigned char *src;

	if (!r->chunks_left)
		return false;
	r->chunks_left--;
	cur_init(&c, t, t->buf + r->next, (size_t)(t->size - r->next), r->next);
	clen = get32(&c, "chunk header");
	ulen = get32(&c, "chunk header");
	src = take(&c, clen, "chunk");
	if (!src)
		return false;
	if (ulen > TDAT_MAX_INFLATE) {
		tdat_diag(t, r->next, "CPU %u: chunk claims %u inflated bytes", r->cpu->cpu, ulen);
		return false;
	}
	if (!r->buf || r->carry + ulen > r->cap) {
		/* One byte more: an empty first chunk still has a buffer to inflate into. */
		unsigned char *n = realloc(r->buf, r->carry + ulen + 1);

		if (!n)
			return false;
		r->buf = n;
		r->cap = r->carry + ulen + 1;
	}
	if (!inflate_to(t, r->next, src, clen, r->buf + r->carry, ulen))
		return false;
	r->offset = r->next;
	r->next = cur_off(&c);
	r->carry += ulen;
	return true;
}

bool tdat_reader_next(struct tdat_reader *r)
{
	const struct tdat_cpu *cpu = r->cpu;
	uint32_t page_size = r->t->page_size;

	if (!cpu->chunked) {
		if (r->started || !cpu->size)
			return false;
		r->started = true;
		r->data = cpu->data;
		r->size = cpu->size;
		return true;
	}
	if (!r->started) {
		struct cursor c;

		r->started = true;
		cur_init(&c, r->t, r->t->buf + cpu->offset, (size_t)(r->t->size - cpu->offset), cpu->offset);
		r->chunks_left = get32(&c, "chunk count");
		r->next = cur_off(&c);
	} else if (r->carry) {
		/* The partial page the last piece left: the next chunk completes it. */
		memmove(r->buf, r->buf + r->size, r->carry);
	}
	for (;;) {
		if (!inflate_chunk(r))
			return false;
		if (r->carry >= page_size)
			break;
	}
	r->data = r->buf;
	r->size = r->carry - r->carry % page_size;
	r->carry -= r->size;
	return true;
}

void tdat_reader_free(struct tdat_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}
