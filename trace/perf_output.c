/*
 * PERF_RECORD_SAMPLE, the sample_id trailer and PERF_RECORD_LOST, field
 * by field in Linux's order (include/uapi/linux/perf_event.h describes
 * them). Sizes and writers walk the same bits in the same order, so a
 * record is always exactly as long as its header says. Pure.
 */
#include <trace/perf_output.h>

u32 perf_sample_id_size(u64 sample_type, bool sample_id_all)
{
	u32 size = 0;

	if (!sample_id_all)
		return 0;
	if (sample_type & PERF_SAMPLE_TID)
		size += 8;
	if (sample_type & PERF_SAMPLE_TIME)
		size += 8;
	if (sample_type & PERF_SAMPLE_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_CPU)
		size += 8;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	return size;
}

u32 perf_sample_size(u64 sample_type, const struct perf_sample_data *d)
{
	/* IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD: 8 bytes each */
	static const u64 fixed = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	u32 size = sizeof(struct perf_event_header);

	size += 8 * (u32)__builtin_popcountll(sample_type & fixed);
	if (sample_type & PERF_SAMPLE_READ)
		size += 8 * d->read_nr;
	if (sample_type & PERF_SAMPLE_CALLCHAIN)
		size += 8 + 8 * d->callchain_nr;
	if (sample_type & PERF_SAMPLE_RAW)
		size += 4 + perf_raw_size(d->raw_size);
	return size;
}

u32 perf_lost_size(u64 sample_type, bool sample_id_all)
{
	return sizeof(struct perf_event_header) + 16 + perf_sample_id_size(sample_type, sample_id_all);
}

static void put_u64(struct perf_output_handle *h, u64 v)
{
	perf_ring_write(h, &v, sizeof(v));
}

/* Two u32s in one u64 slot (pid/tid, cpu/reserved). */
static void put_u32_pair(struct perf_output_handle *h, u32 a, u32 b)
{
	u32 pair[2] = { a, b };

	perf_ring_write(h, pair, sizeof(pair));
}

void perf_output_sample(struct perf_output_handle *h, u16 misc, u64 sample_type,
			const struct perf_sample_data *d)
{
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE,
		.misc = misc,
		.size = (u16)perf_sample_size(sample_type, d),
	};

	perf_ring_write(h, &hdr, sizeof(hdr));
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		put_u64(h, d->id);
	if (sample_type & PERF_SAMPLE_IP)
		put_u64(h, d->ip);
	if (sample_type & PERF_SAMPLE_TID)
		put_u32_pair(h, d->pid, d->tid);
	if (sample_type & PERF_SAMPLE_TIME)
		put_u64(h, d->time);
	if (sample_type & PERF_SAMPLE_ADDR)
		put_u64(h, d->addr);
	if (sample_type & PERF_SAMPLE_ID)
		put_u64(h, d->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		put_u64(h, d->stream_id);
	if (sample_type & PERF_SAMPLE_CPU)
		put_u32_pair(h, d->cpu, 0);
	if (sample_type & PERF_SAMPLE_PERIOD)
		put_u64(h, d->period);
	if (sample_type & PERF_SAMPLE_READ)
		perf_ring_write(h, d->read, 8 * d->read_nr);
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		put_u64(h, d->callchain_nr);
		perf_ring_write(h, d->callchain, 8 * d->callchain_nr);
	}
	if (sample_type & PERF_SAMPLE_RAW) {
		u32 size = perf_raw_size(d->raw_size);

		perf_ring_write(h, &size, sizeof(size));
		perf_ring_write(h, d->raw, d->raw_size);
		perf_ring_skip_zero(h, size - d->raw_size);
	}
}

void perf_output_sample_id(struct perf_output_handle *h, u64 sample_type, bool sample_id_all,
			   const struct perf_sample_data *d)
{
	if (!sample_id_all)
		return;
	if (sample_type & PERF_SAMPLE_TID)
		put_u32_pair(h, d->pid, d->tid);
	if (sample_type & PERF_SAMPLE_TIME)
		put_u64(h, d->time);
	if (sample_type & PERF_SAMPLE_ID)
		put_u64(h, d->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		put_u64(h, d->stream_id);
	if (sample_type & PERF_SAMPLE_CPU)
		put_u32_pair(h, d->cpu, 0);
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		put_u64(h, d->id);
}

void perf_output_lost(struct perf_output_handle *h, u64 sample_type, bool sample_id_all,
		      const struct perf_sample_data *d, u64 lost)
{
	struct perf_event_header hdr = {
		.type = PERF_RECORD_LOST,
		.size = (u16)perf_lost_size(sample_type, sample_id_all),
	};

	perf_ring_write(h, &hdr, sizeof(hdr));
	put_u64(h, d->id);
	put_u64(h, lost);
	perf_output_sample_id(h, sample_type, sample_id_all, d);
}
