/*
 * The ftrace ring buffer: per-CPU rings of sub-buffers ("pages", 4 KiB to
 * 512 KiB, one size per buffer) in Linux's layout
 * (trace/ring_buffer_format.h), written locklessly on the local CPU
 * from any context, read from any CPU without stopping the writers.
 *
 * Writers:
 *	ev = ring_buffer_lock_reserve(buffer, len);	// NULL: dropped
 *	fill ring_buffer_event_data(ev);
 *	ring_buffer_unlock_commit(buffer);
 * or ring_buffer_write(buffer, len, data). Between reserve and commit the
 * writer stays on its CPU (preemption is off) and may be interrupted by
 * softirq, irq and NMI writers; each nested event lands whole. A second
 * reserve in the same context before the commit is recursion: refused.
 * Payloads are rounded up to 4 bytes and are 4-byte aligned, as on Linux
 * x86: records with u64 fields must tolerate that (x86 does; UBSan on the
 * host wants such structs __packed or __aligned(4)).
 *
 * Time: every event carries its time as a 27-bit delta from the previous
 * event on the page (the page holds the absolute time of its first
 * event), with a TIME_EXTEND record when the delta does not fit. Nested
 * writers can read the clock in one order and reserve in the other; the
 * recorded time of an event is therefore defined as
 *	max(its clock reading, the recorded time of the event before it),
 * so times never go backwards along the buffer. When a writer cannot be
 * sure which time the event before it carries (it interrupted another
 * writer between that writer's reservation and its bookkeeping), it
 * writes an absolute TIME_STAMP record instead of a delta.
 *
 * Readers (consume, peek, iterators, read_page) copy data out and then
 * validate it against the page's lap, so a writer overwriting the page
 * concurrently makes the reader retry instead of return torn data.
 * Readers of one CPU's buffer serialize on a lock writers never take.
 */
#ifndef TRACE_RING_BUFFER_H
#define TRACE_RING_BUFFER_H

#include <kernel/types.h>
#include <trace/ring_buffer_format.h>

#define RING_BUFFER_ALL_CPUS	(-1)

/* ring_buffer_alloc() flags */
#define RB_FL_OVERWRITE		(1u << 0)	/* full: drop the oldest page (else drop new events) */

/*
 * Largest payload of one event, Linux's: a sub-buffer's data less a
 * large-event header. An event that large starts a page, where its time
 * is the page's and needs no time stamp record.
 */
#define RB_MAX_DATA_ORDER(order) (RB_SUBBUF_DATA_SIZE(order) - 2 * RB_EVNT_HDR_SIZE)
#define RB_MAX_DATA		RB_MAX_DATA_ORDER(0)	/* with the default 4 KiB sub-buffers */
/*
 * Payload bytes a reader's copy of an event (ring_buffer_record) and a
 * writer's scratch record hold: a whole trace_marker event (4 KiB of text)
 * and anything smaller. Only trace_marker_raw records on sub-buffers over
 * 8 KiB are larger; copies keep their first RB_RECORD_MAX bytes (their
 * text lines are cut before that, at trace_seq's 8 KiB).
 */
#define RB_RECORD_MAX		(2 * RB_PAGE_SIZE)
/* Pages per CPU are at least 2 (one to write, one to read) and at most this. */
#define RB_MIN_PAGES		2ul
#define RB_MAX_PAGES		65535ul

struct trace_buffer;
struct ring_buffer_iter;

/* A clock for time stamps: trace_clock_local, _global, _counter, or a test's. */
typedef u64 (*trace_clock_fn)(void);

/* An event copied out for a reader. */
struct ring_buffer_record {
	u64 ts;				/* recorded time of the event */
	unsigned long lost_events;	/* events overwritten since the previous read */
	u32 length;			/* payload bytes kept (a multiple of 4, <= RB_RECORD_MAX) */
	u8 data[RB_RECORD_MAX] __aligned(8);
};

/* One CPU's counters, as per_cpu/cpuN/stats prints them. */
struct ring_buffer_stats {
	unsigned long entries;		/* events in the buffer, not yet read */
	unsigned long overrun;		/* events lost to overwrite mode */
	unsigned long commit_overrun;	/* events lost because nesting filled the ring */
	unsigned long bytes;		/* bytes of unread events */
	u64 oldest_event_ts;		/* time of the next event a read returns (0: empty) */
	u64 now_ts;			/* the buffer's clock now */
	unsigned long dropped_events;	/* events refused because the buffer was full */
	unsigned long read_events;	/* events consumed by readers */
};

/* Where a writer can be interrupted: test instrumentation (ring_buffer_set_nest_hook). */
enum rb_nest_point {
	RB_NEST_RESERVED,	/* space reserved, time bookkeeping not yet done */
	RB_NEST_PAGE_MOVED,	/* moved to a new page, old page not yet closed */
	RB_NEST_COMMITTING,	/* commit published, nesting count not yet dropped */
};
typedef void (*rb_nest_hook_fn)(struct trace_buffer *buffer, enum rb_nest_point where);

/* Allocation and control (trace/ring_buffer.c). size: bytes of data per CPU. */
struct trace_buffer *ring_buffer_alloc(unsigned long size, unsigned int flags);
void ring_buffer_free(struct trace_buffer *buffer);
int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size, int cpu);
/*
 * Sub-buffers of RB_SUBBUF_SIZE(order) bytes (buffer_subbuf_size_kb): the
 * buffer is emptied, and each CPU keeps about as many bytes of data as it
 * had (at least RB_MIN_PAGES sub-buffers), as Linux's.
 */
int ring_buffer_subbuf_order_set(struct trace_buffer *buffer, unsigned int order);
unsigned int ring_buffer_subbuf_order(struct trace_buffer *buffer);
/* Bytes of one sub-buffer, its header included (what trace_pipe_raw hands out). */
unsigned int ring_buffer_subbuf_size(struct trace_buffer *buffer);
/* Largest payload one event may have. */
unsigned long ring_buffer_max_event_size(struct trace_buffer *buffer);
unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu);
void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu);
void ring_buffer_reset(struct trace_buffer *buffer);
void ring_buffer_set_clock(struct trace_buffer *buffer, trace_clock_fn clock);
u64 ring_buffer_time_stamp(struct trace_buffer *buffer);
void ring_buffer_change_overwrite(struct trace_buffer *buffer, bool overwrite);
void ring_buffer_record_on(struct trace_buffer *buffer);
void ring_buffer_record_off(struct trace_buffer *buffer);
bool ring_buffer_record_is_on(struct trace_buffer *buffer);
/* And recording on cpu's buffer (tracing_cpumask, pause-on-trace): a reserve there can succeed. */
bool ring_buffer_record_is_on_cpu(struct trace_buffer *buffer, int cpu);
void ring_buffer_record_disable_cpu(struct trace_buffer *buffer, int cpu);
void ring_buffer_record_enable_cpu(struct trace_buffer *buffer, int cpu);
int ring_buffer_stats_cpu(struct trace_buffer *buffer, int cpu, struct ring_buffer_stats *st);
/* Recursion refusals on this buffer's write path (all CPUs). */
unsigned long ring_buffer_recursion_refused(struct trace_buffer *buffer);
void ring_buffer_set_nest_hook(struct trace_buffer *buffer, rb_nest_hook_fn hook);

/* Writing (trace/ring_buffer_write.c). */
struct rb_event *ring_buffer_lock_reserve(struct trace_buffer *buffer, unsigned long length);
int ring_buffer_unlock_commit(struct trace_buffer *buffer);
/*
 * Called after each commit, in whatever context the writer is in (NMI,
 * scheduler locks held), while it is not NULL: trace_wait.c points it at
 * the wake-up of sleeping readers while any sleep.
 */
extern void (*ring_buffer_commit_notify)(void);
int ring_buffer_write(struct trace_buffer *buffer, unsigned long length, const void *data);
/* The payload of a data event, and its length (rounded up to 4). */
void *ring_buffer_event_data(struct rb_event *event);
unsigned int ring_buffer_event_length(struct rb_event *event);

/*
 * Reading (trace/ring_buffer_read.c). All return 0 or a negative errno:
 * -EAGAIN when there is nothing (more) to read, -EINVAL for a bad CPU.
 */
int ring_buffer_peek(struct trace_buffer *buffer, int cpu, struct ring_buffer_record *rec);
int ring_buffer_consume(struct trace_buffer *buffer, int cpu, struct ring_buffer_record *rec);
bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu);
/*
 * Linux's rb_watermark_hit, what buffer_percent means to poll(2): the CPU
 * has unread events and, with percent, readers are off the writer's page
 * and the pages the writer has left unread, plus its own, are at least
 * percent of the ring.
 */
bool ring_buffer_watermark_hit(struct trace_buffer *buffer, int cpu, unsigned int percent);
/*
 * Hand out the oldest unread page (trace_pipe_raw, dumps) into dst, a
 * buffer of size bytes, in Linux's layout; consumes it. With full, only a
 * page the writer has left. Returns bytes of event data (the page's commit
 * without flags), -EAGAIN when there is none, -EMSGSIZE when size is not
 * the sub-buffer size (it changed: ask ring_buffer_subbuf_size again).
 * Lost events before the page set RB_MISSED_EVENTS, and RB_MISSED_STORED
 * with the count after the data.
 */
int ring_buffer_read_page(struct trace_buffer *buffer, int cpu, void *dst, size_t size, bool full);

/* Non-consuming per-CPU iteration (the trace file merges CPUs by ts). */
struct ring_buffer_iter *ring_buffer_read_start(struct trace_buffer *buffer, int cpu);
int ring_buffer_iter_peek(struct ring_buffer_iter *iter, struct ring_buffer_record *rec);
void ring_buffer_iter_advance(struct ring_buffer_iter *iter);
void ring_buffer_read_finish(struct ring_buffer_iter *iter);

#endif
