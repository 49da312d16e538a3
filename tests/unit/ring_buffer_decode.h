/*
 * For the ring buffer's unit tests: an independent decoder of one page
 * (sub-buffer) of data_size bytes of data, written from
 * trace/ring_buffer_format.h alone.
 */
#ifndef TESTS_UNIT_RING_BUFFER_DECODE_H
#define TESTS_UNIT_RING_BUFFER_DECODE_H

#include <criterion/criterion.h>
#include <string.h>
#include <kernel/types.h>
#include <trace/ring_buffer_format.h>

struct decoded {
	u64 ts;
	u32 type_len;	/* of the data event */
	u32 len;	/* payload bytes */
	const u8 *payload;
};

struct decoded_page {
	int n, extends, stamps, paddings;
	bool missed, stored;
	unsigned long lost;
	struct decoded ev[1024];
};

static void decode_page(const void *page, u32 data_size, struct decoded_page *out)
{
	const struct rb_data_page *dp = page;
	u64 commit = (u64)dp->commit;
	u64 size = commit & ~(RB_MISSED_EVENTS | RB_MISSED_STORED);
	u64 ts = dp->time_stamp;
	u32 off = 0;

	memset(out, 0, sizeof(*out));
	out->missed = commit & RB_MISSED_EVENTS;
	out->stored = commit & RB_MISSED_STORED;
	cr_assert_leq(size, data_size);
	if (out->stored)
		memcpy(&out->lost, dp->data + size, sizeof(long));
	while (off < size) {
		u32 word, a0 = 0, type, delta, len;

		memcpy(&word, dp->data + off, 4);
		if (off + 8 <= data_size)
			memcpy(&a0, dp->data + off + 4, 4);
		type = word & 31;
		delta = word >> 5;
		if (type == 29) {
			len = delta ? 4 + a0 : size - off;
			ts += delta;
			out->paddings++;
		} else if (type == 30) {
			len = 8;
			ts += ((u64)a0 << 27) + delta;
			out->extends++;
		} else if (type == 31) {
			len = 8;
			ts = ((u64)a0 << 27) + delta + (ts & (0xf8ull << 56));
			out->stamps++;
		} else {
			struct decoded *d;

			cr_assert_lt(out->n, (int)ARRAY_SIZE(out->ev));
			d = &out->ev[out->n++];

			ts += delta;
			d->ts = ts;
			d->type_len = type;
			if (type) {
				d->len = type * 4;
				d->payload = dp->data + off + 4;
				len = 4 + d->len;
			} else {
				d->len = a0 - 4;
				d->payload = dp->data + off + 8;
				len = (4 + a0 + 3) & ~3u;
			}
		}
		cr_assert_gt(len, 0);
		off += len;
	}
	cr_assert_eq(off, size, "events end exactly at commit");
}

#endif
