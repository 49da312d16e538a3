/*
 * The perf.data file (perf's "PERFILE2" layout), as much of it as a
 * tracepoint recording needs, writer and reader:
 *
 *	[0]	header: magic, its own size (104), the size of one attrs entry,
 *		the attrs and data sections, a 256-bit feature bitmap
 *	[104]	data: the records as the kernel's rings gave them (plus the
 *		COMM records the tool adds for tasks that already ran)
 *	[..]	one {offset, size} per feature bit set, in bit order; here
 *		only HEADER_TRACING_DATA, whose payload is the header blocks
 *		of a trace.dat with version "0.6" (/sys/kernel/debug/tracing_data)
 *	[..]	attrs: per event {perf_event_attr, {offset, size} of its ids}
 *	[..]	the ids: the sample ids the kernel gave each event's fds
 *
 * Little-endian only (x86_64 writes it, x86_64 reads it). Pure C on libc's
 * string functions: the guest's perf writes and reads it, the host's
 * `spoor report` and the unit tests read it.
 */
#ifndef USER_PERF_DATA_H
#define USER_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../../trace/perf_event_abi.h"

#define PERF_DATA_MAGIC		"PERFILE2"
#define PERF_DATA_HEADER_SIZE	104
/* attr.size in the file: VER7. Linux's perf 6.1 refuses an attr bigger than it knows. */
#define PERF_DATA_ATTR_SIZE	PERF_ATTR_SIZE_VER7
#define HEADER_TRACING_DATA	1	/* feature bit */

/* One event of the file: its attributes and the sample ids of its fds. */
struct perf_data_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	unsigned int nr_ids;
};

/*
 * Writing: records are appended to the data section as they come, the
 * rest is written by perf_data_finish. write() puts len bytes at file
 * offset off and returns 0 or -1; the first failure sticks.
 */
struct perf_data_writer {
	int (*write)(void *ctx, uint64_t off, const void *buf, size_t len);
	void *ctx;
	uint64_t data_size;
	int err;
};

void perf_data_writer_init(struct perf_data_writer *w,
			   int (*write)(void *ctx, uint64_t off, const void *buf, size_t len),
			   void *ctx);
int perf_data_add(struct perf_data_writer *w, const void *records, size_t len);
/* Feature table, tracing data, attrs, ids, then the header at offset 0. */
int perf_data_finish(struct perf_data_writer *w, const struct perf_data_attr *attrs,
		     unsigned int nr_attrs, const void *tracing, size_t tracing_len);

/* Reading a whole file held in memory. */
struct perf_data_file {
	const uint8_t *buf;
	size_t size;
	struct perf_data_attr *attrs;
	unsigned int nr_attrs;
	uint64_t data_offset, data_size;
	uint64_t tracing_offset, tracing_size;	/* size 0: no HEADER_TRACING_DATA */
	uint64_t features[4];
};

/* 0, or -1 with *err saying what is wrong (a static string). */
int perf_data_open(struct perf_data_file *f, const void *buf, size_t size, const char **err);
void perf_data_close(struct perf_data_file *f);

/* A record of the data section. */
struct perf_data_rec {
	struct perf_event_header hdr;
	const uint8_t *body;		/* after the header; hdr.size - 8 bytes */
	uint64_t offset;		/* of the header in the file */
};

/*
 * The record at *pos (a data section offset, start at 0), moving *pos
 * past it. False at the end, or with *err set when a record's size
 * does not fit the section.
 */
bool perf_data_next(const struct perf_data_file *f, uint64_t *pos, struct perf_data_rec *r,
		    const char **err);

/* A PERF_RECORD_SAMPLE's fields (those its sample_type has). */
struct perf_sample {
	const struct perf_data_attr *attr;
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t nr_ips;
	const uint8_t *ips;		/* nr_ips u64s, maybe unaligned */
	const uint8_t *raw;		/* the tracepoint record (trace_entry first) */
	uint32_t raw_size;
};

/* Which attr a sample or a record with sample_id_all belongs to; NULL if unknown. */
const struct perf_data_attr *perf_data_attr_of(const struct perf_data_file *f,
					       const struct perf_data_rec *r);
/* Parse a sample; false with *err when it is shorter than its sample_type says. */
bool perf_data_sample(const struct perf_data_file *f, const struct perf_data_rec *r,
		      struct perf_sample *s, const char **err);

/* perf's names of the software events Spoor has (-e takes the name or the alias). */
struct perf_sw_name {
	const char *name, *alias;
	uint64_t config;
};
extern const struct perf_sw_name perf_sw_names[];
extern const unsigned int perf_sw_names_nr;

/*
 * What perf script calls a software event in a file without event names:
 * its name and perf's modifiers from the attr's exclude bits ("cpu-clock",
 * "cpu-clock:u", "cpu-clock:HG" when exclude_guest is not set); a
 * hardware or unknown one "raw-TYPE-CONFIG".
 */
void perf_data_event_name(const struct perf_event_attr *a, char *buf, size_t size);

static inline uint64_t perf_data_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

#endif
