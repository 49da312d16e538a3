/*
 * Ring buffer, one thread: round trips, the event and page format (checked
 * by a decoder written here from ring_buffer_format.h alone), time
 * extends, padding and wrap, overwrite and producer/consumer modes,
 * resize, reset, tracing_on, stats, iterators and the recursion guard.
 */
/* uses: trace/ring_buffer.c trace/ring_buffer_write.c trace/ring_buffer_read.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>
#include <stdlib.h>
#include <string.h>
#include <trace/ring_buffer.h>
#include <trace/ring_buffer_internal.h>
#include <trace/trace_recursion.h>
#include "ring_buffer_decode.h"

static u64 fake_now;
static u64 fake_clock(void) { return fake_now; }

static struct ring_buffer_record rec;

static struct trace_buffer *new_buffer(unsigned long size, unsigned int flags)
{
	struct trace_buffer *b = ring_buffer_alloc(size, flags);

	cr_assert_not_null(b);
	fake_now = 1000;
	ring_buffer_set_clock(b, fake_clock);
	return b;
}

/* Payload of event seq: seq, then bytes that depend on seq and position. */
static void fill(u8 *p, u32 seq, u32 len)
{
	for (u32 i = 0; i < len; i++)
		p[i] = (u8)(seq * 7 + i);
	if (len >= 4)
		memcpy(p, &seq, 4);
}

static void write_seq(struct trace_buffer *b, u32 seq, u32 len)
{
	u8 buf[RB_MAX_DATA];

	fill(buf, seq, len);
	cr_assert_eq(ring_buffer_write(b, len, buf), 0, "write %u", seq);
}

static u32 rec_seq(void)
{
	u32 seq;

	memcpy(&seq, rec.data, 4);
	return seq;
}

static void check_rec(u32 seq, u32 len)
{
	u8 want[RB_MAX_DATA];

	fill(want, seq, len);
	cr_assert_eq(rec.length, ALIGN_UP(len, 4));
	cr_assert_eq(memcmp(rec.data, want, len), 0, "payload of %u", seq);
	for (u32 i = len; i < rec.length; i++)
		cr_assert_eq(rec.data[i], 0, "rounding bytes are zeroed");
}

static struct decoded_page dpage;
static u8 page[RB_PAGE_SIZE];

/* ---------------------------------------------------------------------------- */

Test(ring_buffer, round_trip_exact_bytes)
{
	struct trace_buffer *b = new_buffer(4 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	u32 lens[] = { 1, 4, 7, 64, 112, 113, 200, 1000 };

	for (u32 i = 0; i < ARRAY_SIZE(lens); i++) {
		fake_now += 10 * i;
		write_seq(b, i, lens[i]);
	}
	fake_now = 1000;
	for (u32 i = 0; i < ARRAY_SIZE(lens); i++) {
		fake_now += 10 * i;
		cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
		check_rec(i, lens[i]);
		cr_assert_eq(rec.ts, fake_now);
		cr_assert_eq(rec.lost_events, 0);
	}
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), -EAGAIN);
	cr_assert(ring_buffer_empty_cpu(b, 0));
	cr_assert(ring_buffer_empty_cpu(b, 1), "other CPUs untouched");
	ring_buffer_free(b);
}

Test(ring_buffer, event_sizes_small_and_large_forms)
{
	struct trace_buffer *b = new_buffer(4 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	u32 lens[] = { 0, 108, 109, 112, 113, 116, 500, RB_MAX_DATA };
	u32 types[] = { 1, 27, 28, 28, 0, 0, 0, 0 };
	u32 i, got = 0;

	for (i = 0; i < ARRAY_SIZE(lens); i++)
		write_seq(b, i, lens[i]);
	cr_assert_eq(ring_buffer_write(b, RB_MAX_DATA + 1, page), -EBUSY, "too large");
	/* The largest event needs a page of its own: two pages to decode. */
	while (ring_buffer_read_page(b, 0, page, sizeof(page), false) > 0) {
		decode_page(page, RB_PAGE_DATA_SIZE, &dpage);
		for (int k = 0; k < dpage.n; k++, got++) {
			cr_assert_eq(dpage.ev[k].type_len, types[got], "len %u", lens[got]);
			cr_assert_eq(dpage.ev[k].len, lens[got] ? ALIGN_UP(lens[got], 4) : 4);
			if (lens[got] >= 4)
				cr_assert_eq(memcmp(dpage.ev[k].payload, &got, 4), 0);
		}
	}
	cr_assert_eq(got, ARRAY_SIZE(lens));
	ring_buffer_free(b);
}

Test(ring_buffer, time_extends_and_absolute_deltas)
{
	struct trace_buffer *b = new_buffer(4 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	u64 gaps[] = { 0, 5, (1ull << 27) - 1, 1ull << 27, (1ull << 27) + 5, 1ull << 40, 3, 1ull << 58 };
	u64 want[ARRAY_SIZE(gaps)];

	for (u32 i = 0; i < ARRAY_SIZE(gaps); i++) {
		fake_now += gaps[i];
		want[i] = fake_now;
		write_seq(b, i, 16);
	}
	cr_assert_gt(ring_buffer_read_page(b, 0, page, sizeof(page), false), 0);
	decode_page(page, RB_PAGE_DATA_SIZE, &dpage);
	cr_assert_eq(dpage.n, ARRAY_SIZE(gaps));
	cr_assert_eq(dpage.extends, 4, "deltas of 2^27 and more need an extend");
	cr_assert_eq(dpage.stamps, 0);
	for (u32 i = 0; i < ARRAY_SIZE(gaps); i++)
		cr_assert_eq(dpage.ev[i].ts, want[i], "event %u", i);
	ring_buffer_free(b);
}

Test(ring_buffer, clock_going_back_never_makes_negative_deltas)
{
	struct trace_buffer *b = new_buffer(4 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);

	fake_now = 5000;
	write_seq(b, 0, 8);
	fake_now = 4000;
	write_seq(b, 1, 8);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	cr_assert_eq(rec.ts, 5000);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	cr_assert_eq(rec.ts, 5000, "recorded time is max(clock, previous)");
	ring_buffer_free(b);
}

Test(ring_buffer, padding_and_page_wrap)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	struct ring_buffer_per_cpu *cb = b->buffers[0];
	/* 100-byte payloads: 104-byte events; 39 fill 4056 of 4080 bytes. */
	u32 n = 0;

	while (n < 40)
		write_seq(b, n++, 100);
	cr_assert_eq(cb->pages[0].real_end, 39 * 104);
	{
		const struct rb_event *pad = (const void *)(cb->pages[0].page->data + 39 * 104);

		cr_assert_eq(pad->type_len, RINGBUF_TYPE_PADDING);
		cr_assert_eq(pad->time_delta, 0, "end padding: rest of the page");
		cr_assert_eq(pad->array[0], RB_PAGE_DATA_SIZE - 39 * 104 - 4);
	}
	cr_assert_eq(cb->pages[0].page->commit, 39 * 104, "commit stops before the padding");
	/* Wrap the ring twice over and read back what is left, in order. */
	while (n < 300)
		write_seq(b, n++, 100);
	{
		u32 expect;
		struct ring_buffer_stats st;

		cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
		cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
		expect = rec_seq();
		cr_assert_eq(rec.lost_events, expect);
		cr_assert_eq(st.overrun, expect, "every lost event counted");
		cr_assert_eq(st.entries, 300 - expect);
		for (;;) {
			check_rec(expect, 100);
			expect++;
			if (ring_buffer_consume(b, 0, &rec))
				break;
			cr_assert_eq(rec.lost_events, 0);
		}
		cr_assert_eq(expect, 300);
	}
	ring_buffer_free(b);
}

Test(ring_buffer, overwrite_overrun_counts)
{
	struct trace_buffer *b = new_buffer(2 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	struct ring_buffer_stats st;
	u32 n, first;

	/* 60-byte events (56 payload): 68 per page. */
	for (n = 0; n < 68 * 5 + 10; n++)
		write_seq(b, n, 56);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	/* The writer is on page 5, 10 events in; pages 0..3 were dropped. */
	cr_assert_eq(st.overrun, 68 * 4);
	cr_assert_eq(st.entries, 68 + 10);
	cr_assert_eq(st.bytes, (68 + 10) * 60);
	cr_assert_eq(st.dropped_events, 0);
	cr_assert_eq(st.oldest_event_ts, 1000);
	/* Read half a page, then overwrite the page under the reader. */
	for (n = 0; n < 30; n++)
		cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	cr_assert_eq(rec_seq(), 68 * 4 + 29);
	for (n = 0; n < 68 * 2; n++)
		write_seq(b, 1000 + n, 56);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.read_events, 30);
	cr_assert_eq(st.overrun, 68 * 4 + (68 - 30) + 68, "read events are not overrun");
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	first = rec_seq();
	cr_assert_eq(rec.lost_events, (68 - 30) + 68);
	cr_assert_eq(first, 1000 + 68 - 10);
	ring_buffer_free(b);
}

Test(ring_buffer, producer_consumer_drops_new_events)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, 0);
	struct ring_buffer_stats st;
	u8 buf[60] = { 0 };
	u32 n, ok = 0;

	for (n = 0; n < 500; n++) {
		fill(buf, n, 56);
		ok += ring_buffer_write(b, 56, buf) == 0;
	}
	/* Pages 0 and 1 full; page 2 is where the writer waits for a reader. */
	cr_assert_eq(ok, 68 * 3);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.dropped_events, 500 - ok);
	cr_assert_eq(st.overrun, 0);
	/* Read one page's worth: room for one page again. */
	for (n = 0; n < 68; n++) {
		cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
		check_rec(n, 56);
	}
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	check_rec(68, 56);
	for (n = 0; n < 100; n++)
		ok += ring_buffer_write(b, 56, buf) == 0;
	cr_assert_eq(ok, 68 * 4);
	ring_buffer_free(b);
}

Test(ring_buffer, read_page_hands_out_linux_pages_with_missed_counts)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	int len;
	u32 n;

	for (n = 0; n < 10; n++) {
		fake_now += 100;
		write_seq(b, n, 24);
	}
	/* The writer's page is not handed out when only full pages are asked for. */
	cr_assert_eq(ring_buffer_read_page(b, 0, page, sizeof(page), true), -EAGAIN);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	len = ring_buffer_read_page(b, 0, page, sizeof(page), false);
	cr_assert_eq(len, 9 * 28);
	decode_page(page, RB_PAGE_DATA_SIZE, &dpage);
	cr_assert_eq(dpage.n, 9);
	cr_assert_not(dpage.missed);
	for (n = 0; n < 9; n++) {
		cr_assert_eq(dpage.ev[n].ts, 1000 + 100 * (n + 2), "times survive a partial page");
		cr_assert_eq(memcmp(dpage.ev[n].payload, &(u32){ n + 1 }, 4), 0);
	}
	cr_assert_eq(ring_buffer_read_page(b, 0, page, sizeof(page), false), -EAGAIN);

	/*
	 * Overrun: 28-byte events, 145 to a page. Page 0 (10 read) takes 135
	 * more, pages 1..5 are filled, page 6 gets 10: the 3-page ring keeps
	 * pages 4..6 and drops 135 + 3 * 145 unread events.
	 */
	for (n = 0; n < 870; n++)
		write_seq(b, 100 + n, 24);
	len = ring_buffer_read_page(b, 0, page, sizeof(page), true);
	cr_assert_eq(len, 145 * 28);
	decode_page(page, RB_PAGE_DATA_SIZE, &dpage);
	cr_assert(dpage.missed && dpage.stored);
	cr_assert_eq(dpage.lost, 135 + 3 * 145);
	cr_assert_eq(dpage.n, 145);
	cr_assert_eq(memcmp(dpage.ev[0].payload, &(u32){ 100 + 135 + 3 * 145 }, 4), 0);
	cr_assert_eq(ring_buffer_read_page(b, 0, page, sizeof(page), true), 145 * 28);
	decode_page(page, RB_PAGE_DATA_SIZE, &dpage);
	cr_assert_not(dpage.missed, "reported once");
	cr_assert_eq(ring_buffer_read_page(b, 0, page, sizeof(page), true), -EAGAIN);
	cr_assert_eq(ring_buffer_read_page(b, 0, page, sizeof(page), false), 10 * 28);
	decode_page(page, RB_PAGE_DATA_SIZE, &dpage);
	cr_assert_eq(memcmp(dpage.ev[9].payload, &(u32){ 969 }, 4), 0);
	ring_buffer_free(b);
}

Test(ring_buffer, iterator_does_not_consume)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	struct ring_buffer_iter *it;
	u32 n;

	for (n = 0; n < 200; n++) {
		fake_now += 3;
		write_seq(b, n, 40);
	}
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	it = ring_buffer_read_start(b, 0);
	cr_assert_not_null(it);
	for (n = 1; n < 200; n++) {
		cr_assert_eq(ring_buffer_iter_peek(it, &rec), 0, "event %u", n);
		cr_assert_eq(ring_buffer_iter_peek(it, &rec), 0, "peek twice");
		check_rec(n, 40);
		cr_assert_eq(rec.ts, 1000 + 3 * (n + 1));
		ring_buffer_iter_advance(it);
	}
	cr_assert_eq(ring_buffer_iter_peek(it, &rec), -EAGAIN);
	write_seq(b, 200, 40);
	cr_assert_eq(ring_buffer_iter_peek(it, &rec), 0, "new events show up");
	check_rec(200, 40);
	ring_buffer_read_finish(it);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	check_rec(1, 40);
	cr_assert_eq(ring_buffer_peek(b, 0, &rec), 0);
	check_rec(2, 40);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	check_rec(2, 40);
	ring_buffer_free(b);
}

Test(ring_buffer, resize_keeps_the_newest_events)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	struct ring_buffer_stats st;
	u32 n, first;

	for (n = 0; n < 68 * 2 + 5; n++)
		write_seq(b, n, 56);
	cr_assert_eq(ring_buffer_resize(b, 10 * RB_PAGE_DATA_SIZE, 0), 0);
	cr_assert_eq(ring_buffer_size(b, 0), 10 * RB_PAGE_DATA_SIZE);
	cr_assert_eq(ring_buffer_size(b, 1), 3 * RB_PAGE_DATA_SIZE);
	for (; n < 68 * 9; n++)
		write_seq(b, n, 56);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.overrun, 0, "grown ring holds it all");
	cr_assert_eq(ring_buffer_resize(b, 2 * RB_PAGE_DATA_SIZE, RING_BUFFER_ALL_CPUS), 0);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	/* Newest two pages kept: the writer's (page 8, 68 events) and page 7. */
	cr_assert_eq(st.entries, 68 * 2);
	cr_assert_eq(st.overrun, 68 * 7);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	first = rec_seq();
	cr_assert_eq(first, 68 * 7);
	cr_assert_eq(rec.lost_events, 68 * 7);
	for (n = first + 1; n < 68 * 9; n++) {
		cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
		check_rec(n, 56);
	}
	for (n = 0; n < 1000; n++)
		write_seq(b, n, 56);
	cr_assert_eq(ring_buffer_resize(b, 0, 99), -EINVAL);
	cr_assert_eq(ring_buffer_resize(b, ~0ul / 2, 0), -ENOMEM);
	ring_buffer_free(b);
}

Test(ring_buffer, reset_record_off_and_stats)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	struct ring_buffer_stats st;

	write_seq(b, 1, 8);
	ring_buffer_record_off(b);
	cr_assert_not(ring_buffer_record_is_on(b));
	cr_assert_eq(ring_buffer_write(b, 8, page), -EBUSY);
	ring_buffer_record_on(b);
	cr_assert(ring_buffer_record_is_on(b));
	ring_buffer_record_disable_cpu(b, 0);
	cr_assert_eq(ring_buffer_write(b, 8, page), -EBUSY);
	ring_buffer_record_enable_cpu(b, 0);
	fake_now = 2000;
	write_seq(b, 2, 8);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.entries, 2);
	cr_assert_eq(st.bytes, 2 * 12);
	cr_assert_eq(st.oldest_event_ts, 1000);
	cr_assert_eq(st.now_ts, 2000);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.entries, 1);
	cr_assert_eq(st.read_events, 1);
	cr_assert_eq(st.oldest_event_ts, 2000);
	ring_buffer_reset_cpu(b, 0);
	cr_assert_eq(ring_buffer_stats_cpu(b, 0, &st), 0);
	cr_assert_eq(st.entries + st.read_events + st.bytes, 0);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), -EAGAIN);
	write_seq(b, 3, 8);
	cr_assert_eq(ring_buffer_consume(b, 0, &rec), 0);
	check_rec(3, 8);
	cr_assert_eq(ring_buffer_stats_cpu(b, 64, &st), -EINVAL);
	cr_assert_eq(ring_buffer_consume(b, -1, &rec), -EINVAL);
	ring_buffer_free(b);
}

Test(ring_buffer, recursion_in_one_context_is_refused)
{
	struct trace_buffer *b = new_buffer(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	struct rb_event *outer = ring_buffer_lock_reserve(b, 8);

	cr_assert_not_null(outer);
	cr_assert_null(ring_buffer_lock_reserve(b, 8), "same context again: recursion");
	cr_assert_eq(ring_buffer_recursion_refused(b), 1);
	this_cpu_add(__preempt_count, HARDIRQ_OFFSET);
	cr_assert_eq(ring_buffer_write(b, 8, page), 0, "an irq may write");
	this_cpu_sub(__preempt_count, HARDIRQ_OFFSET);
	ring_buffer_unlock_commit(b);
	cr_assert_eq(ring_buffer_write(b, 8, page), 0, "guard released");
	cr_assert_eq(ring_buffer_recursion_refused(b), 1);
	ring_buffer_free(b);
}

Test(trace_recursion, one_bit_per_context)
{
	struct trace_recursion r = { 0 };
	unsigned long levels[] = { 0, SOFTIRQ_OFFSET, HARDIRQ_OFFSET, NMI_OFFSET };

	for (unsigned int i = 0; i < ARRAY_SIZE(levels); i++) {
		this_cpu_add(__preempt_count, levels[i]);
		cr_assert(trace_recursion_lock(&r), "level %u", i);
		cr_assert_not(trace_recursion_lock(&r));
	}
	cr_assert_eq(r.refused, 4);
	cr_assert_eq(r.context, 0xf);
	for (int i = ARRAY_SIZE(levels) - 1; i >= 0; i--) {
		trace_recursion_unlock(&r);
		this_cpu_sub(__preempt_count, levels[i]);
		/* Levels below i still hold their bits (level j has bit 3 - j). */
		cr_assert_eq(r.context, 0xfu & ~((1u << (4 - i)) - 1), "after leaving level %d", i);
	}
	cr_assert_eq(r.context, 0);
	/* Softirq disabled (not serving) is still task context. */
	this_cpu_add(__preempt_count, SOFTIRQ_DISABLE_OFFSET);
	cr_assert(trace_recursion_lock(&r));
	cr_assert_eq(r.context, 1u << TRACE_CTX_NORMAL);
	trace_recursion_unlock(&r);
	this_cpu_sub(__preempt_count, SOFTIRQ_DISABLE_OFFSET);
}
