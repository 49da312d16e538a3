/*
 * The perf mmap ring: one control page (struct perf_event_mmap_page) and
 * a data area of 2^n bytes that user space maps after it. Writers reserve
 * space by moving `head` with a compare-and-swap, copy their record, and
 * the last writer out publishes `head` as data_head; the reader consumes
 * up to data_head and gives the space back by storing data_tail. Linux's
 * protocol (kernel/events/ring_buffer.c):
 *
 *	writer				reader
 *	load data_tail			load-acquire data_head
 *	(no room: count lost, stop)	read records
 *	store records			store-release data_tail
 *	store-release data_head
 *
 * The tail load and the record stores are ordered by the space check
 * (control dependency); the record stores and the data_head store by the
 * release. Writers may be nested on one CPU (task, softirq, irq, NMI) and
 * may run on several CPUs at once (an inherited event writes its parent's
 * ring from wherever the child runs): `nest` counts writers in flight on
 * every CPU, only the one that brings it to zero publishes, and
 * publication only ever moves data_head forward (backward for a
 * write_backward ring), so a late publisher never hides newer records.
 *
 * Modes:
 *  - normal (writable mapping): no record is written over unread data;
 *    a record that does not fit is lost, and the next record that fits is
 *    preceded by a PERF_RECORD_LOST carrying the exact number lost.
 *  - overwrite (read-only mapping): the tail is ignored, old data is
 *    overwritten. With write_backward the head moves down, so the newest
 *    record is always at data_head and the reader walks upwards from it.
 *  - paused (PERF_EVENT_IOC_PAUSE_OUTPUT): every record is lost.
 *
 * Wakeups: a reader polling the ring is woken every `watermark` bytes, or
 * every `wakeup_events` samples when the event asks for that. Pure.
 */
#ifndef TRACE_PERF_RING_H
#define TRACE_PERF_RING_H

#include <kernel/types.h>
#include <kernel/atomic.h>
#include <trace/perf_event_abi.h>

struct perf_ring {
	struct perf_event_mmap_page *user_page;
	u8 *data;			/* data_size bytes, contiguous */
	u64 data_size;			/* power of two */
	u64 head;			/* reservation point; moves before data_head */
	atomic_t nest;			/* writers between reserve and end, all CPUs */
	atomic64_t lost;		/* records dropped since the last LOST record */
	u64 wakeup;			/* head at the last watermark wakeup */
	u64 watermark;			/* bytes between wakeups */
	atomic_t events;		/* samples since the last wakeup_events wakeup */
	atomic_t poll;			/* POLLIN once a wakeup is due, cleared by poll */
	bool overwrite;			/* read-only mapping: never check the tail */
	bool backward;			/* write_backward: head moves down */
	int paused;			/* PAUSE_OUTPUT: drop everything */
};

/* One record being written: where it goes and how much of it is left. */
struct perf_output_handle {
	struct perf_ring *ring;
	u64 pos;			/* ring offset (free-running) of the next byte */
	u32 size;			/* bytes still to write */
	u64 wakeup;			/* ring->wakeup when reserved */
	u64 lost;			/* records the LOST record in front must report */
};

#define PERF_POLLIN	0x0001
#define PERF_POLLHUP	0x0010

/*
 * Set up a ring over user_page and data (data_size a power of two; both
 * zeroed by the caller). watermark 0 means half the data area.
 */
void perf_ring_init(struct perf_ring *rb, struct perf_event_mmap_page *user_page, void *data,
		    u64 data_size, u64 watermark, bool overwrite, bool backward);

/*
 * Reserve size bytes (a multiple of 8). When records were lost since the
 * last LOST record, lost_size more bytes are reserved in front and
 * h->lost says how many to report: the caller writes that LOST record
 * first. 0, or -ENOSPC (the record is counted as lost; no perf_ring_end).
 */
int perf_ring_begin(struct perf_output_handle *h, struct perf_ring *rb, u32 size, u32 lost_size);
/* Copy len bytes of the record (wrapping at the end of the data area). */
void perf_ring_write(struct perf_output_handle *h, const void *src, u32 len);
/* Zero len bytes of the record (padding). */
void perf_ring_skip_zero(struct perf_output_handle *h, u32 len);
/* Publish the record; true if a reader should be woken now. */
bool perf_ring_end(struct perf_output_handle *h);
/* Count one sample for wakeup_events; true when that asks for a wakeup. */
bool perf_ring_count_event(struct perf_ring *rb, u32 wakeup_events);

/* The reader's side, as user space sees it (also what poll reports). */
static inline u64 perf_ring_data_head(const struct perf_ring *rb)
{
	return __atomic_load_n(&rb->user_page->data_head, __ATOMIC_ACQUIRE);
}

/* POLLIN if a wakeup happened since the last call (and clears it). */
unsigned int perf_ring_poll(struct perf_ring *rb);

#endif
