/*
 * Ring buffer under nesting and concurrency.
 *
 * Nesting: softirq, irq and NMI writers are simulated by raising
 * __preempt_count and writing from inside an outer write, at every point
 * where an interrupt is hard to get right: between reserve and commit,
 * inside the clock read (before the reservation), and at the ring
 * buffer's nest points (after reserving, after moving to a new page,
 * while committing). Every event must come back whole, in reservation
 * order, with lo <= time <= hi, where lo and hi are the clock just before
 * and just after its writer reserved it (the clock ticks on every read).
 *
 * Concurrency: writer threads, each its own CPU, write at full rate while
 * a reader thread consumes: every event comes back exactly once, in order
 * per CPU, with the gaps exactly the counted overruns.
 */
/* uses: trace/ring_buffer.c trace/ring_buffer_write.c trace/ring_buffer_read.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <trace/ring_buffer.h>

/* ---- nesting ---- */

/* The payload: who wrote it, the clock around its reservation, a pattern. */
struct sample {
	u32 id;
	u32 level;		/* 0 task .. 3 NMI */
	u32 lo_lo, lo_hi;	/* u64 halves: the payload is only 4-byte aligned */
	u32 hi_lo, hi_hi;
	u32 len;
};

static u64 ticks;
static struct trace_buffer *nb;
static u32 next_id;
static bool seen[1 << 20];
static unsigned int written_ok, refused;
static unsigned int nest_budget;	/* nested writes still allowed */
static int clock_nest_every;		/* nest from the clock every Nth read (0: never) */
static int hook_mask;			/* 1 << enum rb_nest_point: nest there */
static int depth;
static struct ring_buffer_record rec;

static const unsigned long level_offset[] = { 0, SOFTIRQ_OFFSET, HARDIRQ_OFFSET, NMI_OFFSET };

static void nested_write(void);

static u64 tick_clock(void)
{
	u64 now = ++ticks;

	if (clock_nest_every && now % clock_nest_every == 0)
		nested_write();
	return now;
}

/* Not every time: an interrupt at every commit retry would never let the commit finish. */
static void hook(struct trace_buffer *b, enum rb_nest_point where)
{
	static unsigned int calls;

	if ((hook_mask & (1 << where)) && ++calls % 3 == 0)
		nested_write();
}

static void put_u64(u32 *lo, u32 *hi, u64 v)
{
	*lo = (u32)v;
	*hi = (u32)(v >> 32);
}

/* Write one event from the current level; length varies with id. */
static void write_one(u32 level)
{
	u32 id = next_id++;
	u32 len = 28 + (id * 13) % 200;	/* small and large forms */
	u64 lo = ticks;
	struct rb_event *ev = ring_buffer_lock_reserve(nb, len);
	u8 *p;
	struct sample s;

	if (!ev) {
		refused++;
		return;
	}
	s = (struct sample){ .id = id, .level = level, .len = len };
	put_u64(&s.lo_lo, &s.lo_hi, lo);
	put_u64(&s.hi_lo, &s.hi_hi, ticks);
	p = ring_buffer_event_data(ev);
	memcpy(p, &s, sizeof(s));
	for (u32 i = sizeof(s); i < len; i++)
		p[i] = (u8)(id + i);
	/* An interrupt between reserve and commit. */
	if (depth < 3 && nest_budget && id % 3 == 0)
		nested_write();
	ring_buffer_unlock_commit(nb);
	written_ok++;
}

/* An interrupt: one level up, a write, back down. */
static void nested_write(void)
{
	if (depth >= 3 || !nest_budget)
		return;
	nest_budget--;
	depth++;
	this_cpu_add(__preempt_count, level_offset[depth]);
	write_one(depth);
	this_cpu_sub(__preempt_count, level_offset[depth]);
	depth--;
}

/* Read everything back: intact, unique, times within their windows and never backwards. */
static unsigned int check_all(void)
{
	unsigned int n = 0;
	u64 prev = 0;

	cr_assert_lt(next_id, ARRAY_SIZE(seen));
	memset(seen, 0, sizeof(seen));
	while (ring_buffer_consume(nb, 0, &rec) == 0) {
		struct sample s;
		u64 lo, hi;

		memcpy(&s, rec.data, sizeof(s));
		lo = (u64)s.lo_hi << 32 | s.lo_lo;
		hi = (u64)s.hi_hi << 32 | s.hi_lo;
		cr_assert_lt(s.id, next_id);
		cr_assert_not(seen[s.id], "event %u twice", s.id);
		seen[s.id] = true;
		cr_assert_eq(rec.length, ALIGN_UP(s.len, 4));
		for (u32 i = sizeof(s); i < s.len; i++)
			cr_assert_eq(rec.data[i], (u8)(s.id + i), "event %u byte %u", s.id, i);
		cr_assert(lo <= rec.ts && rec.ts <= hi, "event %u at %lu outside [%lu, %lu]",
			  s.id, (unsigned long)rec.ts, (unsigned long)lo, (unsigned long)hi);
		cr_assert_geq(rec.ts, prev, "time went backwards at event %u", s.id);
		prev = rec.ts;
		n++;
	}
	return n;
}

static void nest_setup(unsigned long size, unsigned int flags)
{
	nb = ring_buffer_alloc(size, flags);
	cr_assert_not_null(nb);
	ring_buffer_set_clock(nb, tick_clock);
	ring_buffer_set_nest_hook(nb, hook);
	ticks = 1000;
	next_id = written_ok = refused = 0;
	depth = 0;
}

Test(ring_buffer_nest, commit_waits_for_the_outermost_writer)
{
	struct rb_event *outer;

	nest_setup(4 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	outer = ring_buffer_lock_reserve(nb, 8);
	cr_assert_not_null(outer);
	memcpy(ring_buffer_event_data(outer), "outer!!!", 8);
	for (unsigned int level = 1; level <= 3; level++) {
		this_cpu_add(__preempt_count, level_offset[level]);
		cr_assert_eq(ring_buffer_write(nb, 8, "nested0"), 0);
	}
	for (unsigned int level = 3; level >= 1; level--)
		this_cpu_sub(__preempt_count, level_offset[level]);
	cr_assert(ring_buffer_empty_cpu(nb, 0), "nothing visible before the outer commit");
	ring_buffer_unlock_commit(nb);
	cr_assert_eq(ring_buffer_consume(nb, 0, &rec), 0);
	cr_assert_eq(memcmp(rec.data, "outer!!!", 8), 0, "outer first: it reserved first");
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(ring_buffer_consume(nb, 0, &rec), 0);
		cr_assert_eq(memcmp(rec.data, "nested", 6), 0);
	}
	cr_assert_eq(ring_buffer_consume(nb, 0, &rec), -EAGAIN);
	ring_buffer_free(nb);
}

Test(ring_buffer_nest, between_reserve_and_commit)
{
	nest_setup(512 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	nest_budget = ~0u;
	for (int i = 0; i < 3000; i++)
		write_one(0);
	cr_assert_eq(check_all(), written_ok);
	ring_buffer_free(nb);
}

Test(ring_buffer_nest, inside_the_clock_read)
{
	nest_setup(512 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	nest_budget = ~0u;
	clock_nest_every = 5;
	for (int i = 0; i < 2000; i++)
		write_one(0);
	clock_nest_every = 0;
	cr_assert_eq(check_all(), written_ok);
	ring_buffer_free(nb);
}

Test(ring_buffer_nest, at_each_nest_point)
{
	for (int point = RB_NEST_RESERVED; point <= RB_NEST_COMMITTING; point++) {
		nest_setup(512 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
		hook_mask = 1 << point;
		nest_budget = ~0u;
		for (int i = 0; i < 2000; i++)
			write_one(0);
		hook_mask = 0;
		cr_assert_eq(check_all(), written_ok, "nest point %d", point);
		cr_assert_eq(refused, 0);
		ring_buffer_free(nb);
	}
}

Test(ring_buffer_nest, everywhere_with_overwrite)
{
	struct ring_buffer_stats st;
	unsigned int n;

	/* A small ring that wraps many times while writers nest. */
	nest_setup(3 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	hook_mask = 7;
	clock_nest_every = 7;
	nest_budget = ~0u;
	for (int i = 0; i < 5000; i++)
		write_one(0);
	hook_mask = 0;
	clock_nest_every = 0;
	cr_assert_eq(ring_buffer_stats_cpu(nb, 0, &st), 0);
	n = check_all();
	cr_assert_eq(n + st.overrun, written_ok, "read %u + overrun %lu != written %u",
		     n, st.overrun, written_ok);
	cr_assert_eq(refused, st.commit_overrun);
	ring_buffer_free(nb);
}

Test(ring_buffer_nest, nested_events_fill_the_ring_past_the_commit)
{
	struct ring_buffer_stats st;
	struct rb_event *outer;
	unsigned int n, ok = 0;
	u8 buf[200] = { 0 };

	nest_setup(2 * RB_PAGE_DATA_SIZE, RB_FL_OVERWRITE);
	outer = ring_buffer_lock_reserve(nb, 8);
	cr_assert_not_null(outer);
	memset(ring_buffer_event_data(outer), 0xab, 8);
	this_cpu_add(__preempt_count, HARDIRQ_OFFSET);
	for (n = 0; n < 100; n++)
		ok += ring_buffer_write(nb, sizeof(buf), buf) == 0;
	this_cpu_sub(__preempt_count, HARDIRQ_OFFSET);
	ring_buffer_unlock_commit(nb);
	/* Two pages: the outer event's page and one more; the rest cannot go anywhere. */
	cr_assert_eq(ring_buffer_stats_cpu(nb, 0, &st), 0);
	cr_assert_eq(st.commit_overrun, 100 - ok);
	cr_assert_gt(st.commit_overrun, 0);
	cr_assert_eq(st.overrun, 0);
	cr_assert_eq(ring_buffer_consume(nb, 0, &rec), 0);
	cr_assert_eq(rec.data[0], 0xab, "the outer event survives");
	for (n = 0; ring_buffer_consume(nb, 0, &rec) == 0; n++)
		;
	cr_assert_eq(n, ok);
	ring_buffer_free(nb);
}

/* ---- concurrency ---- */

#define WRITERS		2
#define PER_WRITER	1000000

struct cevent {
	u32 cpu;
	u32 seq;
	u32 check;
};

static struct trace_buffer *cb;
static volatile int writers_done;
static unsigned int refused_by[WRITERS + 1];

static void *writer(void *arg)
{
	int cpu = (int)(long)arg;

	host_cpu_id = cpu;
	for (u32 seq = 0; seq < PER_WRITER; seq++) {
		struct cevent e = { cpu, seq, cpu * 0x9e3779b9u ^ seq };
		u8 buf[sizeof(e) + 16] = { 0 };

		memcpy(buf, &e, sizeof(e));
		/* Vary the size: the reader must follow events of every length. */
		if (ring_buffer_write(cb, sizeof(e) + (seq % 5) * 4, buf))
			refused_by[cpu]++;
	}
	__atomic_add_fetch(&writers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct cpu_check {
	long next;		/* next seq expected */
	unsigned long gaps;	/* events missing between reads */
	unsigned long lost;	/* lost_events reported */
	bool lost_uncounted;	/* a page said "events dropped" with no room for the count */
	unsigned long read;
	u64 last_ts;
};

static void check_event(struct cpu_check *cc, int cpu, const struct cevent *e, u64 ts)
{
	cr_assert_eq(e->cpu, (u32)cpu);
	cr_assert_eq(e->check, cpu * 0x9e3779b9u ^ e->seq, "torn event cpu %d seq %u", cpu, e->seq);
	cr_assert_geq((long)e->seq, cc->next, "cpu %d: seq %u after %ld", cpu, e->seq, cc->next - 1);
	cr_assert_geq(ts, cc->last_ts, "cpu %d: time went backwards", cpu);
	cc->gaps += e->seq - cc->next;
	cc->next = e->seq + 1;
	cc->last_ts = ts;
	cc->read++;
}

/* Read pages by hand: their events are exactly the ones the consumer would get. */
static bool read_pages(struct cpu_check *cc, int cpu, u8 *pg)
{
	const struct rb_data_page *dp = (const void *)pg;
	int len = ring_buffer_read_page(cb, cpu, pg, sizeof(pg), false);
	u64 ts;
	int off = 0;

	if (len <= 0)
		return false;
	ts = dp->time_stamp;
	if (dp->commit & RB_MISSED_STORED) {
		unsigned long lost;

		memcpy(&lost, dp->data + len, sizeof(lost));
		cc->lost += lost;
	} else if (dp->commit & RB_MISSED_EVENTS) {
		cc->lost_uncounted = true;
	}
	while (off < len) {
		const struct rb_event *ev = (const void *)(dp->data + off);
		struct cevent e;

		/* A writer thread descheduled for long gets a time extend or stamp. */
		if (ev->type_len == RINGBUF_TYPE_TIME_EXTEND) {
			ts += (u64)ev->array[0] << 27 | ev->time_delta;
			off += 8;
			continue;
		}
		if (ev->type_len == RINGBUF_TYPE_TIME_STAMP) {
			ts = (u64)ev->array[0] << 27 | ev->time_delta;
			off += 8;
			continue;
		}
		cr_assert(ev->type_len >= 1 && ev->type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX,
			  "small data events only, got type %u", ev->type_len);
		ts += ev->time_delta;
		memcpy(&e, ev->array, sizeof(e));
		check_event(cc, cpu, &e, ts);
		off += 4 + ev->type_len * 4;
	}
	cr_assert_eq(off, len);
	return true;
}

static void run_concurrent(unsigned int flags, bool pages)
{
	static u8 pg[RB_PAGE_SIZE];
	struct cpu_check cc[WRITERS + 1] = { 0 };
	pthread_t t[WRITERS];

	cb = ring_buffer_alloc(64 * RB_PAGE_DATA_SIZE, flags);
	cr_assert_not_null(cb);
	writers_done = 0;
	memset(refused_by, 0, sizeof(refused_by));
	for (long i = 0; i < WRITERS; i++)
		pthread_create(&t[i], NULL, writer, (void *)(i + 1));
	/* The reader is CPU 0; the writers are CPUs 1..WRITERS. */
	for (;;) {
		bool done = __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) == WRITERS;
		bool got = false;

		for (int cpu = 1; cpu <= WRITERS; cpu++) {
			if (pages)
				got |= read_pages(&cc[cpu], cpu, pg);
			for (int k = 0; k < 64; k++) {
				struct cevent e;

				if (ring_buffer_consume(cb, cpu, &rec))
					break;
				memcpy(&e, rec.data, sizeof(e));
				cc[cpu].lost += rec.lost_events;
				check_event(&cc[cpu], cpu, &e, rec.ts);
				got = true;
			}
		}
		if (done && !got)
			break;
	}
	for (int i = 0; i < WRITERS; i++)
		pthread_join(t[i], NULL);
	for (int cpu = 1; cpu <= WRITERS; cpu++) {
		struct ring_buffer_stats st;

		cr_assert(ring_buffer_empty_cpu(cb, cpu));
		cr_assert_eq(ring_buffer_stats_cpu(cb, cpu, &st), 0);
		cc[cpu].gaps += PER_WRITER - cc[cpu].next;
		cr_assert_eq(st.read_events, cc[cpu].read);
		cr_assert_eq(st.entries, 0);
		cr_assert_eq(st.bytes, 0);
		if (flags & RB_FL_OVERWRITE) {
			cr_assert_eq(refused_by[cpu], 0);
			cr_assert_eq(cc[cpu].gaps, st.overrun, "cpu %d: missing %lu, overrun %lu",
				     cpu, cc[cpu].gaps, st.overrun);
			if (cc[cpu].lost_uncounted)
				cr_assert_lt(cc[cpu].lost, st.overrun);
			else
				cr_assert_eq(cc[cpu].lost, st.overrun, "lost events reported once each");
		} else {
			cr_assert_eq(cc[cpu].gaps, refused_by[cpu], "cpu %d: only refused writes missing", cpu);
			cr_assert_eq(st.dropped_events, refused_by[cpu]);
			cr_assert_eq(st.overrun, 0);
		}
		cr_log_info("cpu %d (%s%s): read %lu, overrun %lu, dropped %lu", cpu,
			    flags & RB_FL_OVERWRITE ? "overwrite" : "producer/consumer",
			    pages ? ", pages" : "", cc[cpu].read, st.overrun, st.dropped_events);
	}
	ring_buffer_free(cb);
}

Test(ring_buffer_concurrent, overwrite_reader_consumes_while_writers_write, .timeout = 120)
{
	run_concurrent(RB_FL_OVERWRITE, false);
}

Test(ring_buffer_concurrent, producer_consumer, .timeout = 120)
{
	run_concurrent(0, false);
}

Test(ring_buffer_concurrent, pages_and_events_mixed, .timeout = 120)
{
	run_concurrent(RB_FL_OVERWRITE, true);
}
