/*
 * Inside the ring buffer: shared by ring_buffer.c (allocation, control),
 * ring_buffer_write.c (the lockless write path) and ring_buffer_read.c.
 *
 * A CPU's ring is an array of nr_pages buffer pages used in turn. Pages
 * are numbered by a lap-independent sequence number seq (page seq lives in
 * slot seq % nr_pages); comparing sequence numbers is how writers and
 * readers know whether a slot still holds the page they mean.
 *
 *	head seq <= commit seq <= tail seq < head seq + nr_pages
 *
 * tail: the page and offset the next reservation takes (writers only).
 * commit: every byte before it is complete; readers never look past it.
 * head: the oldest unread page and how far readers got into it. Readers
 * advance it as they consume; an overwriting writer advances it to drop
 * the oldest page. Both do so by cmpxchg on one word, so a reader that
 * copied data out of a page can tell afterwards (the cmpxchg fails)
 * whether the writer took the page from under it.
 */
#ifndef TRACE_RING_BUFFER_INTERNAL_H
#define TRACE_RING_BUFFER_INTERNAL_H

#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/spinlock.h>
#include <trace/ring_buffer.h>
#include <trace/trace_recursion.h>

/*
 * Write positions (tail, stamp_pos) pack the page's seq, its slot and the
 * offset into its data: the slot saves a division per event.
 */
#define RB_POS_OFF_BITS		12
#define RB_POS_SLOT_BITS	16
#define RB_POS_SEQ_SHIFT	(RB_POS_OFF_BITS + RB_POS_SLOT_BITS)

static inline long rb_pos(u64 seq, unsigned long slot, unsigned int off)
{
	return (long)(seq << RB_POS_SEQ_SHIFT | slot << RB_POS_OFF_BITS | off);
}
static inline u64 rb_pos_seq(long pos) { return (u64)pos >> RB_POS_SEQ_SHIFT; }
static inline unsigned long rb_pos_slot(long pos)
{
	return ((u64)pos >> RB_POS_OFF_BITS) & ((1ul << RB_POS_SLOT_BITS) - 1);
}
static inline unsigned int rb_pos_off(long pos)
{
	return (unsigned int)pos & ((1u << RB_POS_OFF_BITS) - 1);
}

/* The head word: page seq, bytes and events already read from it. */
#define RB_HEAD_SEQ_SHIFT	24
static inline u64 rb_head(u64 seq, unsigned int off, unsigned int entries)
{
	return seq << RB_HEAD_SEQ_SHIFT | (u64)off << 12 | entries;
}
static inline u64 rb_head_seq(u64 head) { return head >> RB_HEAD_SEQ_SHIFT; }
static inline unsigned int rb_head_off(u64 head) { return (head >> 12) & 0xfff; }
static inline unsigned int rb_head_entries(u64 head) { return head & 0xfff; }

/* Per-page event counts are tagged with the low bits of the page's seq. */
static inline long rb_entries(u64 seq, unsigned int n) { return (long)((seq & 0xffffffffu) << 32 | n); }
static inline u32 rb_entries_seq(long e) { return (u32)((u64)e >> 32); }
static inline unsigned int rb_entries_count(long e) { return (u32)e; }

/* One slot of the ring. */
struct buffer_page {
	struct rb_data_page *page;	/* the data, in Linux's page layout */
	local_t entries;		/* rb_entries(seq, events reserved in lap seq) */
	unsigned int real_end;		/* bytes of events when the writer left the page */
};

/*
 * One CPU's buffer. The writer fields are written only from this CPU
 * (by nested writers on it); head is shared; the reader fields are under
 * reader_lock, which writers never take.
 */
struct ring_buffer_per_cpu {
	int cpu;
	struct trace_buffer *buffer;
	struct buffer_page *pages;
	unsigned long nr_pages;

	/* writer side */
	local_t tail __aligned(64);	/* rb_pos of the next reservation */
	local_t writers;		/* writers inside reserve..commit (resize waits) */
	local_t committing;		/* writers between reserve and commit */
	local_t commits;		/* reservations started, ever */
	local_t stamping;		/* writers between clock read and stamp update */
	u64 write_stamp;		/* recorded time of the event ending at stamp_pos */
	long stamp_pos;			/* rb_pos write_stamp belongs to */
	u64 commit_seq;			/* page holding the commit point (readers load it) */
	atomic_t record_disabled;
	struct trace_recursion recursion;
	local_t entries_written;	/* events reserved, ever */
	local_t bytes_written;		/* bytes reserved for events, ever */
	local_t overrun;		/* events dropped with their page (overwrite) */
	local_t overrun_bytes;
	local_t commit_overrun;
	local_t dropped_events;		/* events refused: buffer full (no overwrite) */

	/* shared: readers and overwriting writers */
	u64 head __aligned(64);		/* rb_head of the oldest unread page */

	/* reader side */
	spinlock_t reader_lock __aligned(64);
	unsigned long read_events;
	unsigned long read_bytes;
	unsigned long last_overrun;	/* overrun already reported to readers */
	u64 read_stamp_head;		/* the head word read_stamp belongs to */
	u64 read_stamp;			/* time of the last event consumed */
};

struct trace_buffer {
	unsigned int flags;		/* RB_FL_* */
	atomic_t record_disabled;	/* > 0: tracing_on is off */
	trace_clock_fn clock;
	rb_nest_hook_fn nest_hook;
	unsigned int nr_cpus;
	struct ring_buffer_per_cpu **buffers;	/* [cpu] */
};

static inline struct buffer_page *rb_slot(struct ring_buffer_per_cpu *cpu_buffer, u64 seq)
{
	return &cpu_buffer->pages[seq % cpu_buffer->nr_pages];
}

static inline struct ring_buffer_per_cpu *rb_cpu_buffer(struct trace_buffer *buffer, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= buffer->nr_cpus)
		return NULL;
	return buffer->buffers[cpu];
}

/* Time of the next unread event, reader lock held (ring_buffer_read.c); -EAGAIN: none. */
int rb_peek_ts_locked(struct ring_buffer_per_cpu *cpu_buffer, u64 *ts);

#endif
