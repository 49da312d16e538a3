/*
 * The perf mmap ring and its record layouts, read back the way perf's
 * tools read them (load-acquire data_head, walk headers, copy records
 * that wrap, store-release data_tail): sample layouts per sample_type,
 * wrapping, exact PERF_RECORD_LOST counts under a slow reader, overwrite
 * with write_backward keeping the newest records, pause, wakeups, and
 * four writer threads (with nested writers inside) against one reader.
 */
/* uses: trace/perf_ring.c trace/perf_output.c */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <trace/perf_output.h>

struct ring_fixture {
	struct perf_event_mmap_page *page;
	void *data;
	struct perf_ring rb;
};

static void ring_setup(struct ring_fixture *f, u64 size, bool overwrite, bool backward,
		       u64 watermark)
{
	f->page = aligned_alloc(4096, 4096);
	f->data = aligned_alloc(4096, size);
	memset(f->page, 0, 4096);
	memset(f->data, 0, size);
	perf_ring_init(&f->rb, f->page, f->data, size, watermark, overwrite, backward);
}

static void ring_teardown(struct ring_fixture *f)
{
	free(f->page);
	free(f->data);
}

/* A sample carrying `seq` in its raw data (raw_len bytes, pattern from seq). */
static int write_sample(struct perf_ring *rb, u64 sample_type, u32 seq, u32 raw_len)
{
	u8 raw[256];
	struct perf_sample_data d = { .ip = 0xffffffff81000000ul + seq, .pid = 7, .tid = 8,
				      .time = seq, .id = 42, .cpu = 1, .period = 1,
				      .raw = raw, .raw_size = raw_len };
	struct perf_output_handle h;

	for (u32 i = 0; i < raw_len; i++)
		raw[i] = (u8)(seq * 7 + i);
	memcpy(raw, &seq, sizeof(seq));
	if (perf_ring_begin(&h, rb, perf_sample_size(sample_type, &d), perf_lost_size(sample_type, false)))
		return -ENOSPC;
	if (h.lost)
		perf_output_lost(&h, sample_type, false, &d, h.lost);
	perf_output_sample(&h, PERF_RECORD_MISC_KERNEL, sample_type, &d);
	cr_assert_eq(h.size, 0, "record sized exactly");
	perf_ring_end(&h);
	return 0;
}

/* What the reader saw. */
struct seen {
	u64 samples, lost;
	u32 last_seq;
	bool bad;
};

/* Copy one record out of the ring at pos (it may wrap). */
static void ring_copy(const struct ring_fixture *f, u64 pos, void *dst, u32 len)
{
	u64 size = f->rb.data_size;

	for (u32 i = 0; i < len; i++)
		((u8 *)dst)[i] = ((const u8 *)f->data)[(pos + i) & (size - 1)];
}

static void check_record(const u8 *rec, struct seen *s, u32 raw_len)
{
	const struct perf_event_header *hdr = (const void *)rec;
	u32 seq;

	if (hdr->type == PERF_RECORD_LOST) {
		u64 lost;

		memcpy(&lost, rec + 16, 8);
		s->lost += lost;
		return;
	}
	if (hdr->type != PERF_RECORD_SAMPLE) {
		s->bad = true;
		return;
	}
	/* IP TID TIME CPU PERIOD RAW: the raw size word is at 48 */
	memcpy(&seq, rec + 52, 4);
	for (u32 i = 4; i < raw_len; i++)
		if (rec[52 + i] != (u8)(seq * 7 + i))
			s->bad = true;
	s->samples++;
	s->last_seq = seq;
}

/* perf's forward reader: everything between data_tail and data_head. */
static void ring_drain(struct ring_fixture *f, struct seen *s, u32 raw_len)
{
	u64 head = __atomic_load_n(&f->page->data_head, __ATOMIC_ACQUIRE);
	u64 tail = f->page->data_tail;
	u8 rec[4096];

	cr_assert_leq(head - tail, f->rb.data_size);
	while (tail < head) {
		struct perf_event_header hdr;

		ring_copy(f, tail, &hdr, sizeof(hdr));
		cr_assert(hdr.size && hdr.size % 8 == 0, "header size %u", hdr.size);
		ring_copy(f, tail, rec, hdr.size);
		check_record(rec, s, raw_len);
		tail += hdr.size;
	}
	__atomic_store_n(&f->page->data_tail, tail, __ATOMIC_RELEASE);
}

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)

Test(perf_output, sample_layout)
{
	u8 raw[64] = { 1, 2, 3 };
	u64 chain[3] = { PERF_CONTEXT_KERNEL, 0xffffffff81001234ul, 0xffffffff81005678ul };
	u64 rd[2] = { 10, 11 };
	struct perf_sample_data d = { .ip = 0x1111, .pid = 3, .tid = 4, .time = 5, .addr = 6,
				      .id = 7, .stream_id = 8, .cpu = 2, .period = 9,
				      .read = rd, .read_nr = 2, .callchain = chain, .callchain_nr = 3,
				      .raw = raw, .raw_size = 64 };
	u64 all = PERF_SAMPLE_SUPPORTED;
	struct ring_fixture f;
	struct perf_output_handle h;
	u64 w[64];

	/* sched_switch's 64-byte record with IP|TID|TIME|ID|CPU|PERIOD|RAW: 56 + 4 + 68 */
	cr_assert_eq(perf_sample_size(ST | PERF_SAMPLE_ID, &d), 128);
	cr_assert_eq(perf_raw_size(28), 28);
	cr_assert_eq(perf_raw_size(29), 36);
	ring_setup(&f, 4096, false, false, 0);
	cr_assert_eq(perf_ring_begin(&h, &f.rb, perf_sample_size(all, &d), 0), 0);
	perf_output_sample(&h, PERF_RECORD_MISC_USER, all, &d);
	perf_ring_end(&h);
	memcpy(w, f.data, sizeof(w));
	cr_assert_eq(f.page->data_head, perf_sample_size(all, &d));
	cr_assert_eq(w[0], ((u64)perf_sample_size(all, &d) << 48) | (2ull << 32) | PERF_RECORD_SAMPLE);
	/* id ip pid/tid time addr id stream cpu period read[2] nr ips[3] size|raw */
	u64 want[] = { 7, 0x1111, 3 | 4ull << 32, 5, 6, 7, 8, 2, 9, 10, 11, 3,
		       PERF_CONTEXT_KERNEL, 0xffffffff81001234ul, 0xffffffff81005678ul };
	for (unsigned i = 0; i < sizeof(want) / 8; i++)
		cr_assert_eq(w[1 + i], want[i], "word %u", i + 1);
	cr_assert_eq((u32)w[16], 68, "raw size padded to end on 8 bytes");
	cr_assert_eq(perf_sample_id_size(all, true), 48);
	cr_assert_eq(perf_sample_id_size(all, false), 0);
	cr_assert_eq(perf_lost_size(PERF_SAMPLE_TID | PERF_SAMPLE_TIME, true), 40);
	ring_teardown(&f);
}

Test(perf_ring, full_ring_keeps_one_byte_and_wraps)
{
	struct ring_fixture f;
	struct seen s = { 0 };
	u32 seq = 0;

	/* 120-byte records in 4096 bytes: 34 fit (4080; one byte always stays free) */
	ring_setup(&f, 4096, false, false, 0);
	cr_assert_eq(perf_sample_size(ST, &(struct perf_sample_data){ .raw_size = 64 }), 120);
	while (write_sample(&f.rb, ST, seq, 64) == 0)
		seq++;
	cr_assert_eq(seq, 34);
	cr_assert_eq(atomic_read(&f.rb.lost), 1);
	ring_drain(&f, &s, 64);
	cr_assert_eq(s.samples, 34);
	/* now the head is at 4080: records straddle the end of the data area */
	for (int i = 0; i < 10; i++)
		cr_assert_eq(write_sample(&f.rb, ST, 100 + i, 64), 0);
	ring_drain(&f, &s, 64);
	cr_assert_not(s.bad);
	cr_assert_eq(s.lost, 1, "LOST record with the one dropped sample");
	cr_assert_eq(s.samples, 44);
	cr_assert_eq(s.last_seq, 109);
	ring_teardown(&f);
}

Test(perf_ring, slow_reader_exact_lost_counts)
{
	struct ring_fixture f;
	struct seen s = { 0 };
	u32 total = 100000;

	ring_setup(&f, 8192, false, false, 0);
	srand(7);
	for (u32 i = 0; i < total; i++) {
		write_sample(&f.rb, ST, i, 8 + (u32)(rand() % 120));
		if (rand() % 97 == 0)
			ring_drain(&f, &s, 0);
	}
	ring_drain(&f, &s, 0);
	cr_assert_not(s.bad);
	cr_assert_gt(s.lost, 0);
	cr_assert_eq(s.samples + s.lost + (u64)atomic_read(&f.rb.lost), total,
		     "%lu samples + %lu lost + %ld pending", s.samples, s.lost,
		     atomic_read(&f.rb.lost));
	ring_teardown(&f);
}

Test(perf_ring, backward_overwrite_keeps_newest)
{
	struct ring_fixture f;
	u64 pos, end;
	u32 expect = 999, n = 0;

	ring_setup(&f, 4096, true, true, 0);
	for (u32 i = 0; i < 1000; i++)
		cr_assert_eq(write_sample(&f.rb, ST, i, 8 + i % 40), 0, "overwrite never drops");
	/* perf's overwrite reader: from data_head upwards, at most one ring's worth */
	pos = f.page->data_head;
	end = pos + f.rb.data_size;
	while (pos < end) {
		struct perf_event_header hdr;
		u8 rec[256];
		u32 seq;

		ring_copy(&f, pos, &hdr, sizeof(hdr));
		if (!hdr.size || pos + hdr.size > end)
			break;
		ring_copy(&f, pos, rec, hdr.size);
		memcpy(&seq, rec + 52, 4);
		cr_assert_eq(seq, expect, "newest first, none missing");
		expect--;
		n++;
		pos += hdr.size;
	}
	cr_assert_gt(n, 30);
	ring_teardown(&f);
}

Test(perf_ring, paused_and_wakeups)
{
	struct ring_fixture f;
	struct seen s = { 0 };

	ring_setup(&f, 4096, false, false, 1000);
	cr_assert_eq(perf_ring_poll(&f.rb), 0);
	for (int i = 0; i < 8; i++)
		write_sample(&f.rb, ST, (u32)i, 64);
	cr_assert_eq(perf_ring_poll(&f.rb), 0, "960 bytes: under the watermark");
	write_sample(&f.rb, ST, 8, 64);
	cr_assert_eq(perf_ring_poll(&f.rb), PERF_POLLIN, "past 1000 bytes");
	cr_assert_eq(perf_ring_poll(&f.rb), 0, "poll consumes the wakeup");
	f.rb.paused = 1;
	cr_assert_eq(write_sample(&f.rb, ST, 9, 64), -ENOSPC);
	f.rb.paused = 0;
	cr_assert_eq(write_sample(&f.rb, ST, 10, 64), 0);
	ring_drain(&f, &s, 64);
	cr_assert_eq(s.samples, 10);
	cr_assert_eq(s.lost, 1);
	cr_assert_not(perf_ring_count_event(&f.rb, 3));
	cr_assert_not(perf_ring_count_event(&f.rb, 3));
	cr_assert(perf_ring_count_event(&f.rb, 3));
	ring_teardown(&f);
}

/* ---- four writer CPUs, each with nested writers, one reader ---- */

#define NR_WRITERS 4
#define PER_WRITER 50000
static struct ring_fixture cf;
static volatile bool writers_done;

struct nest_rec {
	u32 seq;
	u32 nest_seq;
};

static void *writer(void *arg)
{
	u32 cpu = (u32)(long)arg;

	host_cpu_id = (int)cpu;
	for (u32 i = 0; i < PER_WRITER; i++) {
		u32 seq = cpu << 24 | i;
		u8 raw[40];
		struct perf_sample_data d = { .raw = raw, .raw_size = 40 };
		struct perf_output_handle h;

		for (u32 b = 4; b < 40; b++)
			raw[b] = (u8)(seq * 7 + b);
		memcpy(raw, &seq, 4);
		bool have = !perf_ring_begin(&h, &cf.rb, perf_sample_size(ST, &d),
					     perf_lost_size(ST, false));

		if (have && h.lost)
			perf_output_lost(&h, ST, false, &d, h.lost);
		/* an "interrupt" writes a whole record between reserve and write */
		if (i % 5 == 0)
			write_sample(&cf.rb, ST, (cpu | 0x80) << 24 | i, 40);
		if (!have)
			continue;
		perf_output_sample(&h, 0, ST, &d);
		perf_ring_end(&h);
	}
	return NULL;
}

Test(perf_ring, concurrent_writers_one_reader, .timeout = 60)
{
	pthread_t t[NR_WRITERS];
	struct seen s = { 0 };
	u64 total = NR_WRITERS * (PER_WRITER + PER_WRITER / 5);

	ring_setup(&cf, 16384, false, false, 0);
	for (long i = 0; i < NR_WRITERS; i++)
		pthread_create(&t[i], NULL, writer, (void *)i);
	for (int i = 0; i < NR_WRITERS; i++)
		pthread_join(t[i], NULL);
	/* drained only at the end too, so losses happen and must add up */
	ring_drain(&cf, &s, 40);
	cr_assert_not(s.bad, "no record torn");
	cr_assert_eq(s.samples + s.lost + (u64)atomic_read(&cf.rb.lost), total);
	ring_teardown(&cf);
}

static void *reader(void *arg)
{
	struct seen *s = arg;

	while (!__atomic_load_n(&writers_done, __ATOMIC_ACQUIRE))
		ring_drain(&cf, s, 40);
	ring_drain(&cf, s, 40);
	return NULL;
}

Test(perf_ring, concurrent_writers_live_reader, .timeout = 60)
{
	pthread_t t[NR_WRITERS], r;
	struct seen s = { 0 };
	u64 total = NR_WRITERS * (PER_WRITER + PER_WRITER / 5);

	ring_setup(&cf, 16384, false, false, 0);
	writers_done = false;
	pthread_create(&r, NULL, reader, &s);
	for (long i = 0; i < NR_WRITERS; i++)
		pthread_create(&t[i], NULL, writer, (void *)i);
	for (int i = 0; i < NR_WRITERS; i++)
		pthread_join(t[i], NULL);
	__atomic_store_n(&writers_done, true, __ATOMIC_RELEASE);
	pthread_join(r, NULL);
	cr_assert_not(s.bad, "no record torn");
	cr_assert_eq(s.samples + s.lost + (u64)atomic_read(&cf.rb.lost), total,
		     "%lu + %lu + %ld", s.samples, s.lost, atomic_read(&cf.rb.lost));
	ring_teardown(&cf);
}
