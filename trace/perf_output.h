/*
 * Record layouts of the perf ring, as Linux lays them out: the body of a
 * PERF_RECORD_SAMPLE in sample_type bit order, the sample_id trailer that
 * sample_id_all adds to every other record, and PERF_RECORD_LOST. The
 * caller gathers the values (struct perf_sample_data); these functions
 * size and write them. Pure.
 */
#ifndef TRACE_PERF_OUTPUT_H
#define TRACE_PERF_OUTPUT_H

#include <kernel/types.h>
#include <trace/perf_event_abi.h>
#include <trace/perf_ring.h>

/* Everything a sample or a sample_id trailer may carry. */
struct perf_sample_data {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 id;			/* PERF_SAMPLE_ID / IDENTIFIER: the event's id */
	u64 stream_id;		/* the id of the event the record is for (a child's parent) */
	u32 cpu;
	u64 period;
	const u64 *read;	/* PERF_SAMPLE_READ: the read_format values, ready */
	u32 read_nr;		/* how many u64s */
	const u64 *callchain;	/* PERF_SAMPLE_CALLCHAIN: context markers and ips */
	u32 callchain_nr;
	const void *raw;	/* PERF_SAMPLE_RAW: the tracepoint record */
	u32 raw_size;		/* its bytes before padding */
};

/* RAW's size word: the record padded so that the u32 plus the data end on 8 bytes. */
static inline u32 perf_raw_size(u32 raw_size)
{
	return ((raw_size + 4 + 7) & ~7u) - 4;
}

/* Bytes of the sample_id trailer for sample_type (0 without sample_id_all). */
u32 perf_sample_id_size(u64 sample_type, bool sample_id_all);
/* Bytes of a whole PERF_RECORD_SAMPLE, header included. */
u32 perf_sample_size(u64 sample_type, const struct perf_sample_data *d);
/* Bytes of a PERF_RECORD_LOST with its trailer. */
u32 perf_lost_size(u64 sample_type, bool sample_id_all);

/* Write the header and body of a sample (h has perf_sample_size() bytes left). */
void perf_output_sample(struct perf_output_handle *h, u16 misc, u64 sample_type,
			const struct perf_sample_data *d);
/* Write the sample_id trailer (nothing without sample_id_all). */
void perf_output_sample_id(struct perf_output_handle *h, u64 sample_type, bool sample_id_all,
			   const struct perf_sample_data *d);
/* Write PERF_RECORD_LOST {id, lost} and its trailer. */
void perf_output_lost(struct perf_output_handle *h, u64 sample_type, bool sample_id_all,
		      const struct perf_sample_data *d, u64 lost);

#endif
