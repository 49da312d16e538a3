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
	/* The sub-buffer size, changed only with writers quiesced and the reader lock held. */
	unsigned int data_size;		/* bytes of event data a page holds */
	unsigned int off_bits;		/* bits of an offset into them: 12 + order */
	unsigned int off_mask;		/* (1 << off_bits) - 1 */

	/* writer side */
	local_t tail __aligned(64);	/* rb_pos of the next reservation */
	local_t writers;		/* writers inside reserve..commit (resize waits) */
	local_t committing;		/* writers between reserve and commit */
	local_t commits;		/* reservations started, ever */
	local_t stamping;		/* writers between clock read and stamp update */
	u64 write_stamp;		/* recorded time of the event ending at stamp_pos */
	long stamp_pos;			/* rb_pos write_stamp belongs to */
	u64 commit_seq;			/* page holding the commit point (readers load it) */
	unsigned long commit_slot;	/* its slot: commit_seq % nr_pages */
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
	unsigned int subbuf_order;	/* sub-buffers are RB_SUBBUF_SIZE(subbuf_order) bytes */
	atomic_t record_disabled;	/* > 0: tracing_on is off */
	trace_clock_fn clock;
	rb_nest_hook_fn nest_hook;
	unsigned int nr_cpus;
	struct ring_buffer_per_cpu **buffers;	/* [cpu] */
};

/*
 * Write positions (tail, stamp_pos) pack the page's slot (top 16 bits),
 * its seq and the offset into its data (the low off_bits bits, 12 +
 * sub-buffer order): the slot saves a division per event, and a seq of
 * 48 - off_bits bits numbers 2^48 bytes of pages before it wraps,
 * whatever the sub-buffer size. Only equality compares positions.
 */
#define RB_POS_SLOT_SHIFT	48
#define RB_POS_SEQ_MASK		((1ull << RB_POS_SLOT_SHIFT) - 1)

static inline long rb_pos(const struct ring_buffer_per_cpu *cpu_buffer, u64 seq,
			  unsigned long slot, unsigned int off)
{
	return (long)((u64)slot << RB_POS_SLOT_SHIFT | seq << cpu_buffer->off_bits | off);
}
static inline u64 rb_pos_seq(const struct ring_buffer_per_cpu *cpu_buffer, long pos)
{
	return ((u64)pos & RB_POS_SEQ_MASK) >> cpu_buffer->off_bits;
}
static inline unsigned int rb_pos_off(const struct ring_buffer_per_cpu *cpu_buffer, long pos)
{
	return (unsigned int)pos & cpu_buffer->off_mask;
}

static inline unsigned long rb_pos_slot(long pos) { return (u64)pos >> RB_POS_SLOT_SHIFT; }

/*
 * The head word: page seq, bytes and events already read from it, the
 * last two in off_bits bits each (a page holds fewer events than bytes).
 */
static inline u64 rb_head(const struct ring_buffer_per_cpu *cpu_buffer, u64 seq,
			  unsigned int off, unsigned int entries)
{
	return (seq << cpu_buffer->off_bits | off) << cpu_buffer->off_bits | entries;
}
static inline u64 rb_head_seq(const struct ring_buffer_per_cpu *cpu_buffer, u64 head)
{
	return head >> (2 * cpu_buffer->off_bits);
}
static inline unsigned int rb_head_off(const struct ring_buffer_per_cpu *cpu_buffer, u64 head)
{
	return (unsigned int)(head >> cpu_buffer->off_bits) & cpu_buffer->off_mask;
}
static inline unsigned int rb_head_entries(const struct ring_buffer_per_cpu *cpu_buffer, u64 head)
{
	return (unsigned int)head & cpu_buffer->off_mask;
}

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
