/*
 * Reading a trace.dat container, version 6 or 7 (trace-cmd's layouts; see
 * trace/tracedat.h for v6). What comes out is the same for both: the text
 * files (header_page, formats, kallsyms, printk formats, saved cmdlines),
 * the clock, and each CPU's raw ring-buffer pages, read piece by piece
 * through a tdat_reader (v7's compressed sections are inflated here, and
 * its compressed CPU data one chunk at a time, zlib or zstd).
 *
 * Damage is reported, not fatal: a problem is described with its file
 * offset through tdat_diag(), the damaged piece is dropped or cut short,
 * and whatever is intact stays usable.
 */
#ifndef HOST_TOOLS_TRACEDAT_READ_H
#define HOST_TOOLS_TRACEDAT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A piece of text or data inside the file (or inflated from it). */
struct tdat_blob {
	const char *data;
	size_t len;
	uint64_t offset;	/* where it starts in the file, for messages */
};

/* One event format file and the system it was filed under. */
struct tdat_format {
	const char *system;	/* "ftrace" for the ftrace section */
	struct tdat_blob text;
};

/* One CPU's trace data: whole pages, as the ring buffer wrote them. */
struct tdat_cpu {
	unsigned int cpu;	/* CPU number (v7 files name it) */
	const unsigned char *data;	/* uncompressed: in the file; NULL when chunked */
	size_t size;		/* uncompressed: bytes; a trailing partial page is dropped */
	uint64_t offset;	/* file offset of the data (v7 compressed: of its chunk count) */
	bool chunked;		/* v7 compressed: {u32 count, {u32 clen, u32 ulen, data}*} at offset */
	uint64_t inflated_size;	/* chunked: the chunks' inflated bytes, whole pages (--stat) */
};

/*
 * One CPU's pages a piece at a time: uncompressed data is one piece, the
 * file's own bytes; compressed data is inflated chunk by chunk into one
 * buffer, so that a file's data is never all in memory at once (a page a
 * chunk cuts is carried over to the next piece).
 */
struct tdat_reader {
	struct tdat *t;
	const struct tdat_cpu *cpu;
	const unsigned char *data;	/* the current piece: whole pages */
	size_t size;
	uint64_t offset;		/* of the piece in the file (compressed: of its chunk) */
	uint64_t next;			/* file offset of the next chunk header */
	uint32_t chunks_left;
	bool started;
	unsigned char *buf;		/* inflated chunks */
	size_t cap, carry;		/* carry: bytes of a partial page after the piece */
};

struct tdat {
	const char *path;
	const unsigned char *buf;	/* the whole file */
	size_t size;
	int version;			/* 6 or 7 */
	bool big_endian;
	int long_size;			/* from header_page's commit field when present */
	uint32_t page_size;
	struct tdat_blob header_page, header_event;
	struct tdat_format *formats;
	unsigned int nr_formats;
	struct tdat_blob kallsyms;	/* through tdat_kallsyms(): v7 inflates it when asked */
	uint64_t kallsyms_section;	/* v7: its section, not read yet (0: none, or read) */
	struct tdat_blob printk, cmdlines;
	unsigned int nr_cpus;		/* the header's (v6) or CPUCOUNT's (v7) count */
	struct tdat_cpu *cpus;		/* nr_data entries with trace data */
	unsigned int nr_data;
	char compression[16];		/* v7: "none", "zstd" or "zlib" */
	char clock[32];			/* the trace clock in use ("local" when unknown) */
	int64_t ts_offset;		/* OFFSET option: added to every timestamp */
	struct tdat_blob *cpustats;	/* CPUSTAT options in file order, each with its NUL */
	unsigned int nr_cpustats;
	unsigned int errors;		/* problems reported so far */
	void **allocs;			/* inflated buffers, freed by tdat_close() */
	unsigned int nr_allocs;
	void *zstd;			/* a ZSTD_DCtx kept for every chunk, made on first use */
};

/*
 * Parse the file in buf (the caller keeps it alive). Returns 0 when the
 * header could be read far enough to find trace data (errors may still
 * have been reported: t->errors), -1 when nothing usable was found.
 */
int tdat_open(struct tdat *t, const char *path, const unsigned char *buf, size_t size);
/*
 * The HEADER_TRACING_DATA section of a perf.data in buf (the whole file),
 * len bytes at off: trace.dat v6's header blocks with version "0.6", no
 * CPU data. Offsets in messages are the file's. 0, or -1 when no format
 * could be read.
 */
int tdat_open_tracing_data(struct tdat *t, const char *path, const unsigned char *buf, size_t size,
			   uint64_t off, uint64_t len);
void tdat_close(struct tdat *t);
/*
 * The kallsyms text. A v7 file's section is inflated on the first call: a
 * distribution kernel's is 7 MB, and most reports print no symbol.
 */
const struct tdat_blob *tdat_kallsyms(struct tdat *t);

void tdat_reader_init(struct tdat_reader *r, struct tdat *t, const struct tdat_cpu *cpu);
/* Move to the next piece (r->data, r->size); false at the end of the data. */
bool tdat_reader_next(struct tdat_reader *r);
void tdat_reader_free(struct tdat_reader *r);

/* "spoor report: PATH: offset 0xOFF: message" on stderr; counts t->errors. */
void tdat_diag(struct tdat *t, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Count problems without printing them (spoor report -q, the fuzzer). */
void tdat_set_quiet(bool on);

/* Numbers in the file's byte order. */
static inline uint16_t tdat_u16(const struct tdat *t, const void *p)
{
	uint16_t v;

	__builtin_memcpy(&v, p, 2);
	return t->big_endian ? __builtin_bswap16(v) : v;
}

static inline uint32_t tdat_u32(const struct tdat *t, const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return t->big_endian ? __builtin_bswap32(v) : v;
}

static inline uint64_t tdat_u64(const struct tdat *t, const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return t->big_endian ? __builtin_bswap64(v) : v;
}

#endif
