/*
 * Ring buffer sub-buffers of every size (4 KiB << 0..7): events up to the
 * largest one a sub-buffer takes, whole pages out of ring_buffer_read_page
 * decoded independently (ring_buffer_decode.h), overwrite across big pages,
 * and a change of size, which empties the buffer and keeps its bytes.
 */
/* uses: trace/ring_buffer.c trace/ring_buffer_write.c trace/ring_buffer_read.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <stdlib.h>
#include <string.h>
#include <trace/ring_buffer.h>
#include "ring_buffer_decode.h"

static u64 fake_now;
static u64 fake_clock(void) { return fake_now; }

static struct ring_buffer_record rec;
static struct decoded_page dpage;
static u8 payload[RB_MAX_DATA_ORDER(RB_SUBBUF_MAX_ORDER) + 1];

/* A buffer of nr_pages sub-buffers of this order per CPU. */
static struct trace_buffer *new_buffer(unsigned int order, unsigned long nr_pages, unsigned int flags)
{
	struct trace_buffer *b = ring_buffer_alloc(nr_pages * RB_PAGE_DATA_SIZE, flags);

	cr_assert_not_null(b);
	cr_assert_eq(ring_buffer_subbuf_order_set(b, order), 0);
	cr_assert_eq(ring_buffer_resize(b, nr_pages * RB_SUBBUF_DATA_SIZE(order), RING_BUFFER_ALL_CPUS), 0);
	fake_now = 1000;
	ring_buffer_set_clock(b, fake_clock);
	return b;
}

/* Event seq: len bytes, its number first, then bytes depending on both. */
static void write_seq(struct trace_buffer *b, u32 seq, u32 len)
{
	for (u32 i = 0; i < len; i++)
		payload[i] = (u8)(seq * 13 + i);
	memcpy(payload, &seq, 4);
	fake_now += 7;
	cr_assert_eq(ring_buffer_write(b, len, payload), 0, "write %u of %u bytes", seq, len);
}

static bool payload_ok(const u8 *p, u32 seq, u32 len)
{
	u32 got;

	memcpy(&got, p, 4);
	for (u32 i = 4; i < len; i++)
		if (p[i] != (u8)(seq * 13 + i))
			return false;
	return got == seq;
}

Test(ring_buffer_subbuf, sizes_of_every_order)
{
	for (unsigned int order = 0; order <= RB_SUBBUF_MAX_ORDER; order++) {
		struct trace_buffer *b = new_buffer(order, 2, 0);

		cr_assert_eq(ring_buffer_subbuf_order(b), order);
		cr_assert_eq(ring_buffer_subbuf_size(b), 4096u << order);
		/* Linux's max_data_size: the page's data less two u32. */
		cr_assert_eq(ring_buffer_max_event_size(b), (4096ul << order) - 16 - 8);
		cr_assert_eq(ring_buffer_size(b, 0), 2 * ((4096ul << order) - 16));
		ring_buffer_free(b);
	}
	{
		struct trace_buffer *b = new_buffer(0, 2, 0);

		cr_assert_eq(ring_buffer_subbuf_order_set(b, RB_SUBBUF_MAX_ORDER + 1), -EINVAL);
		cr_assert_eq(ring_buffer_subbuf_order(b), 0);
		ring_buffer_free(b);
	}
}

/*
 * On each size: the largest event fits, one byte more is refused; events
 * of every form fill several pages, and read_page hands out pages of the
 * sub-buffer size (-EMSGSIZE for another size) that decode to them all.
 */
Test(ring_buffer_subbuf, pages_of_the_sub_buffer_size_decode)
{
	for (unsigned int order = 0; order <= RB_SUBBUF_MAX_ORDER; order++) {
		u32 size = RB_SUBBUF_SIZE(order), data = RB_SUBBUF_DATA_SIZE(order);
		u32 max = (u32)RB_MAX_DATA_ORDER(order), n = 0, got = 0, pages = 0;
		u32 lens[] = { max, 4, 112, 116, max / 3 & ~3u, 1000, max, 8 };
		struct trace_buffer *b = new_buffer(order, 8, 0);
		u8 *page = malloc(size);

		cr_assert_not_null(page);
		cr_assert_eq(ring_buffer_write(b, max + 1, payload), -EBUSY, "order %u", order);
		for (; n < ARRAY_SIZE(lens); n++)
			write_seq(b, n, lens[n]);
		cr_assert_eq(ring_buffer_read_page(b, 0, page, size - 8, false), -EMSGSIZE);
		cr_assert_eq(ring_buffer_read_page(b, 0, page, 2 * size, false), -EMSGSIZE);
		for (int len; (len = ring_buffer_read_page(b, 0, page, size, false)) > 0; pages++) {
			decode_page(page, data, &dpage);
			cr_assert_not(dpage.missed);
			for (int k = 0; k < dpage.n; k++, got++) {
				cr_assert_eq(dpage.ev[k].len, lens[got], "order %u event %u", order, got);
				cr_assert(payload_ok(dpage.ev[k].payload, got, lens[got]), "order %u event %u", order, got);
			}
		}
		cr_assert_eq(got, n, "order %u: every event read", order);
		/* The two largest events each fill a page: at least three pages. */
		cr_assert_geq(pages, 3, "order %u", order);
		free(page);
		ring_buffer_free(b);
	}
}

/* Overwrite across 32 KiB pages: the newest survive, the loss is counted once. */
Test(ring_buffer_subbuf, overwrite_on_big_pages)
{
	struct trace_buffer *b = new_buffer(3, 3, RB_FL_OVERWRITE);
	struct ring_buffer_stats st;
	u32 n, first, total = 2000;	/* 200-byte events: 163 a page */

	for (n = 0; n < total; n++)
		write_seq(b, n, 196);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.entries + st.overrun, total);
	cr_assert_geq(st.entries, 2 * (RB_SUBBUF_DATA_SIZE(3) / 200), "two full pages kept at least");
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	memcpy(&first, rec.data, 4);
	cr_assert_eq(rec.lost_events, first, "every event before the first kept is lost");
	cr_assert_eq(first, st.overrun);
	for (n = first + 1; n < total; n++) {
		cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
		cr_assert(payload_ok(rec.data, n, 196), "event %u", n);
		cr_assert_eq(rec.lost_events, 0);
	}
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), -EAGAIN);
	ring_buffer_free(b);
}

/* A new size empties every CPU and keeps about the bytes each had; writing goes on. */
Test(ring_buffer_subbuf, a_new_size_empties_and_keeps_the_bytes)
{
	struct trace_buffer *b = new_buffer(0, 40, RB_FL_OVERWRITE);
	unsigned long before = ring_buffer_size(b, 0);
	struct ring_buffer_iter *it;
	struct ring_buffer_stats st;

	for (u32 n = 0; n < 100; n++)
		write_seq(b, n, 60);
	it = ring_buffer_read_start(b, 0);
	cr_assert_not_null(it);
	cr_assert_eq(ring_buffer_subbuf_order_set(b, 2), 0);
	cr_assert_eq(ring_buffer_subbuf_size(b), 16384);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), -EAGAIN, "emptied");
	cr_assert_eq(ring_buffer_iter_peek(it, &rec), -EAGAIN, "an open iterator sees it empty");
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.entries + st.overrun + st.read_events, 0);
	/* 40 pages of 4080 bytes: ceil(163200 / 16368) = 10 pages of 16368. */
	cr_assert_eq(ring_buffer_size(b, 0), 10 * 16368ul);
	cr_assert_geq(ring_buffer_size(b, 0), before);
	cr_assert_eq(ring_buffer_size(b, 1), ring_buffer_size(b, 0));
	write_seq(b, 500, 5000);	/* too big for the old pages */
	cr_assert_eq(ring_buffer_iter_peek(it, &rec), 0);
	cr_assert_eq(rec.length, 5000);
	cr_assert(payload_ok(rec.data, 500, 5000));
	ring_buffer_read_finish(it);
	/* Down to two pages, then 4 KiB ones: ceil(32736 / 4080) = 9; the big event is refused. */
	cr_assert_eq(ring_buffer_resize(b, 0, RING_BUFFER_ALL_CPUS), 0);
	cr_assert_eq(ring_buffer_size(b, 0), 2 * 16368ul);
	cr_assert_eq(ring_buffer_subbuf_order_set(b, 0), 0);
	cr_assert_eq(ring_buffer_size(b, 0), 9 * RB_PAGE_DATA_SIZE);
	cr_assert_eq(ring_buffer_write(b, 5000, payload), -EBUSY);
	write_seq(b, 501, 40);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	cr_assert(payload_ok(rec.data, 501, 40));
	ring_buffer_free(b);
}

/* A reader's copy keeps RB_RECORD_MAX bytes of a larger event; the event is whole in the page. */
Test(ring_buffer_subbuf, copies_of_huge_events_are_cut)
{
	struct trace_buffer *b = new_buffer(4, 2, 0);
	u32 len = 60000, size = RB_SUBBUF_SIZE(4);
	u8 *page = malloc(size);

	cr_assert_not_null(page);
	write_seq(b, 7, len);
	cr_assert_eq(ring_buffer_peek(b, 0, &rec), 0);
	cr_assert_eq(rec.length, RB_RECORD_MAX);
	cr_assert(payload_ok(rec.data, 7, RB_RECORD_MAX));
	cr_assert_eq(ring_buffer_read_page(b, 0, page, size, false), (int)len + 8);
	decode_page(page, RB_SUBBUF_DATA_SIZE(4), &dpage);
	cr_assert_eq(dpage.n, 1);
	cr_assert(payload_ok(dpage.ev[0].payload, 7, len));
	free(page);
	ring_buffer_free(b);
}
