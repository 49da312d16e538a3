/*
 * The write path: lockless reserve and commit on the local CPU.
 *
 * Writers on one CPU nest strictly (task, softirq, irq, NMI): an
 * interrupting writer runs to completion before the interrupted one
 * continues. So a writer sees every nested write as one atomic step
 * somewhere between two of its own instructions, and each step below
 * only has to stay correct if a whole nested write lands in front of it.
 *
 * Reserving is one cmpxchg on the tail position (local: no lock prefix;
 * only this CPU writes it). A nested writer that got in first moves the
 * tail and the cmpxchg fails: start over. Moving to the next page is the
 * same cmpxchg to a position on the next page; what has to happen before
 * it (dropping the oldest page, resetting the next page's event count) is
 * idempotent, so a nested writer may do it too.
 *
 * Commits: a reserved event is only visible to readers once every event
 * before it is complete. The outermost writer on the CPU (committing == 1)
 * moves the commit point up to the tail when it commits: anything nested
 * inside it has finished by then. commits counts reservations, so the
 * outermost writer notices one that slipped in after it moved the commit
 * point and goes round again (Linux's rb_end_commit).
 *
 * Time: see "Time" in ring_buffer.h. write_stamp is the recorded time of
 * the event ending at stamp_pos. A writer may compute a delta from it only
 * if stamp_pos is the tail it reserves at and no other writer is between
 * reading the clock and updating write_stamp (stamping == 1); otherwise it
 * writes an absolute TIME_STAMP record. Only such writers update
 * write_stamp, so it never regresses; an interrupted one that comes back
 * finds stamp_pos stale and writes one absolute stamp, after which deltas
 * resume.
 */
#include <kernel/preempt.h>
#include <kernel/percpu.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <trace/ring_buffer_internal.h>

/* What precedes an event to give its time. */
enum rb_stamp {
	RB_STAMP_DELTA,		/* the event's own 27-bit delta */
	RB_STAMP_EXTEND,	/* a TIME_EXTEND record carries a larger delta */
	RB_STAMP_ABSOLUTE,	/* a TIME_STAMP record carries the time itself */
};
#define RB_STAMP_SIZE	8u		/* TIME_EXTEND and TIME_STAMP records */
#define RB_DELTA_LIMIT	(1ull << 59)	/* 32 + 27 bits */

static inline void rb_nest_point(struct trace_buffer *buffer, enum rb_nest_point where)
{
	if (unlikely(buffer->nest_hook))
		buffer->nest_hook(buffer, where);
}

/* Bytes of a data event with a payload of this (4-aligned) length. */
static inline unsigned int rb_data_length(u32 payload)
{
	return payload + (payload <= RB_MAX_SMALL_DATA ? RB_EVNT_HDR_SIZE : 2 * RB_EVNT_HDR_SIZE);
}

static inline struct rb_event *rb_write_event(void *where, enum rb_stamp stamp, u64 value, u32 payload)
{
	struct rb_event *event = where;
	u32 delta = 0;

	if (stamp != RB_STAMP_DELTA) {
		*event = (struct rb_event){
			.type_len = stamp == RB_STAMP_EXTEND ? RINGBUF_TYPE_TIME_EXTEND
							     : RINGBUF_TYPE_TIME_STAMP,
			.time_delta = value & RB_TS_DELTA_MAX,
		};
		event->array[0] = (u32)(value >> RB_TS_SHIFT);
		event = (struct rb_event *)((char *)event + RB_STAMP_SIZE);
	} else {
		delta = (u32)value;
	}
	if (payload <= RB_MAX_SMALL_DATA) {
		*event = (struct rb_event){ .type_len = payload / RB_ALIGNMENT, .time_delta = delta };
	} else {
		*event = (struct rb_event){ .type_len = 0, .time_delta = delta };
		event->array[0] = payload + RB_EVNT_HDR_SIZE;
	}
	return event;
}

/*
 * Make page seq next ready to be written: false if the event must be
 * dropped instead. Safe to repeat, and to run again from a nested writer.
 */
static bool rb_prepare_next_page(struct ring_buffer_per_cpu *cpu_buffer, u64 next)
{
	unsigned long nr = cpu_buffer->nr_pages;
	struct buffer_page *bpage;
	long e;

	/* Nested writers filled the ring while an outer one holds the commit. */
	if (next - smp_load_acquire(&cpu_buffer->commit_seq) >= nr) {
		local_inc(&cpu_buffer->commit_overrun);
		return false;
	}
	for (;;) {
		u64 head = smp_load_acquire(&cpu_buffer->head);
		u64 h = rb_head_seq(cpu_buffer, head);

		if (next - h < nr)
			break;
		if (!(cpu_buffer->buffer->flags & RB_FL_OVERWRITE)) {
			local_inc(&cpu_buffer->dropped_events);
			return false;
		}
		/* Page h is complete (h < commit_seq): its counts are final. */
		bpage = rb_slot(cpu_buffer, h);
		e = local_read(&bpage->entries);
		if (__atomic_compare_exchange_n(&cpu_buffer->head, &head, rb_head(cpu_buffer, h + 1, 0, 0),
						false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
			local_add(&cpu_buffer->overrun, rb_entries_count(e) - rb_head_entries(cpu_buffer, head));
			local_add(&cpu_buffer->overrun_bytes, bpage->real_end - rb_head_off(cpu_buffer, head));
			break;
		}
	}
	bpage = rb_slot(cpu_buffer, next);
	e = local_read(&bpage->entries);
	if (rb_entries_seq(e) != (u32)next)
		local_cmpxchg(&bpage->entries, e, rb_entries(next, 0));	/* fails: done by a nested writer */
	return true;
}

/* The writer is leaving the page: record where its data ends, pad the rest. */
static void rb_close_page(struct buffer_page *bpage, unsigned int end, unsigned int data_size)
{
	unsigned int rest = data_size - end;
	struct rb_event *pad = (struct rb_event *)(bpage->page->data + end);

	bpage->real_end = end;
	if (!rest)
		return;
	*pad = (struct rb_event){ .type_len = RINGBUF_TYPE_PADDING, .time_delta = 0 };
	if (rest >= 2 * RB_EVNT_HDR_SIZE)
		pad->array[0] = rest - RB_EVNT_HDR_SIZE;
}

static struct rb_event *rb_reserve_next(struct trace_buffer *buffer,
					struct ring_buffer_per_cpu *cpu_buffer, u32 payload)
{
	unsigned int length = rb_data_length(payload);
	struct rb_event *event = NULL;
	long nest;

	local_inc(&cpu_buffer->stamping);
	barrier();
	nest = local_read(&cpu_buffer->stamping);
	for (;;) {
		long pos = local_read(&cpu_buffer->tail);
		long stamp_pos = READ_ONCE(cpu_buffer->stamp_pos);
		unsigned int off = rb_pos_off(cpu_buffer, pos), total;
		enum rb_stamp stamp = RB_STAMP_DELTA;
		struct buffer_page *bpage;
		u64 last, ts, delta = 0;
		bool known;
		long next;

		barrier();
		last = READ_ONCE(cpu_buffer->write_stamp);
		ts = buffer->clock();
		known = nest == 1 && stamp_pos == pos;
		if (known && ts < last)
			ts = last;
		if (off && !known) {
			stamp = RB_STAMP_ABSOLUTE;
		} else if (off) {
			delta = ts - last;
			if (delta > RB_TS_DELTA_MAX)
				stamp = delta < RB_DELTA_LIMIT ? RB_STAMP_EXTEND : RB_STAMP_ABSOLUTE;
		}
		total = length + (stamp == RB_STAMP_DELTA ? 0 : RB_STAMP_SIZE);

		if (likely(off + total <= cpu_buffer->data_size)) {
			next = pos + total;
			if (local_cmpxchg(&cpu_buffer->tail, pos, next) != pos)
				continue;
			bpage = &cpu_buffer->pages[rb_pos_slot(pos)];
			if (!off)
				bpage->page->time_stamp = ts;
		} else {
			u64 seq = rb_pos_seq(cpu_buffer, pos) + 1;
			unsigned long slot = rb_pos_slot(pos) + 1;

			/*
			 * Too big for a page of this buffer (an event fitting
			 * where it is never is): refused. The size cannot change
			 * while we are counted in writers.
			 */
			if (unlikely(length > cpu_buffer->data_size) ||
			    !rb_prepare_next_page(cpu_buffer, seq))
				break;
			if (slot == cpu_buffer->nr_pages)
				slot = 0;
			next = rb_pos(cpu_buffer, seq, slot, length);
			if (local_cmpxchg(&cpu_buffer->tail, pos, next) != pos)
				continue;
			rb_nest_point(buffer, RB_NEST_PAGE_MOVED);
			rb_close_page(&cpu_buffer->pages[rb_pos_slot(pos)], off, cpu_buffer->data_size);
			bpage = &cpu_buffer->pages[slot];
			bpage->page->time_stamp = ts;
			off = 0;
			stamp = RB_STAMP_DELTA;
			delta = 0;
			total = length;
		}
		local_inc(&bpage->entries);
		local_inc(&cpu_buffer->entries_written);
		local_add(&cpu_buffer->bytes_written, total);
		event = rb_write_event(bpage->page->data + off, stamp,
				       stamp == RB_STAMP_ABSOLUTE ? ts : delta, payload);
		rb_nest_point(buffer, RB_NEST_RESERVED);
		if (nest == 1) {
			WRITE_ONCE(cpu_buffer->write_stamp, ts);
			barrier();
			WRITE_ONCE(cpu_buffer->stamp_pos, next);
		}
		break;
	}
	barrier();
	local_dec(&cpu_buffer->stamping);
	return event;
}

/* Publish everything up to the tail to readers. Only the outermost writer calls it. */
static void rb_set_commit_to_write(struct ring_buffer_per_cpu *cpu_buffer)
{
	for (;;) {
		long pos = local_read(&cpu_buffer->tail);

		/* The tail is less than a ring ahead: the same slot is the same page. */
		while (cpu_buffer->commit_slot != rb_pos_slot(pos)) {
			struct buffer_page *bpage = &cpu_buffer->pages[cpu_buffer->commit_slot];
			unsigned long next = cpu_buffer->commit_slot + 1;

			if (next == cpu_buffer->nr_pages)
				next = 0;
			smp_store_release(&bpage->page->commit, (s64)bpage->real_end);
			/* The next page's commit is from its last lap until set here. */
			WRITE_ONCE(cpu_buffer->pages[next].page->commit, 0);
			cpu_buffer->commit_slot = next;
			smp_store_release(&cpu_buffer->commit_seq, cpu_buffer->commit_seq + 1);
		}
		smp_store_release(&cpu_buffer->pages[rb_pos_slot(pos)].page->commit,
				  (s64)rb_pos_off(cpu_buffer, pos));
		barrier();
		if (local_read(&cpu_buffer->tail) == pos)
			return;
	}
}

static void rb_end_commit(struct trace_buffer *buffer, struct ring_buffer_per_cpu *cpu_buffer)
{
	for (;;) {
		long commits = local_read(&cpu_buffer->commits);

		barrier();
		if (local_read(&cpu_buffer->committing) == 1)
			rb_set_commit_to_write(cpu_buffer);
		rb_nest_point(buffer, RB_NEST_COMMITTING);
		local_dec(&cpu_buffer->committing);
		barrier();
		/* A reservation between our commit and the decrement is ours to publish. */
		if (local_read(&cpu_buffer->commits) == commits || local_read(&cpu_buffer->committing))
			return;
		local_inc(&cpu_buffer->committing);
		barrier();
	}
}

struct rb_event *ring_buffer_lock_reserve(struct trace_buffer *buffer, unsigned long length)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct rb_event *event;
	int cpu;

	preempt_disable_notrace();
	cpu = smp_processor_id();
	/* Larger than any sub-buffer takes; the buffer's own limit is checked on a new page. */
	if (unlikely(atomic_read(&buffer->record_disabled) || (unsigned int)cpu >= buffer->nr_cpus ||
		     length > RB_MAX_DATA_ORDER(RB_SUBBUF_MAX_ORDER)))
		goto out;
	cpu_buffer = buffer->buffers[cpu];
	if (unlikely(!trace_recursion_lock(&cpu_buffer->recursion)))
		goto out;
	/*
	 * A full barrier between counting ourselves in and checking
	 * record_disabled: resize and reset set record_disabled and then wait
	 * for writers to drain, and must not miss us.
	 */
	__atomic_add_fetch(&cpu_buffer->writers.counter, 1, __ATOMIC_SEQ_CST);
	if (unlikely(atomic_read(&buffer->record_disabled) ||
		     atomic_read(&cpu_buffer->record_disabled)))
		goto out_writers;
	local_inc(&cpu_buffer->committing);
	local_inc(&cpu_buffer->commits);
	barrier();
	event = rb_reserve_next(buffer, cpu_buffer, length ? ALIGN_UP((u32)length, RB_ALIGNMENT) : RB_ALIGNMENT);
	if (likely(event))
		return event;
	rb_end_commit(buffer, cpu_buffer);
out_writers:
	local_dec(&cpu_buffer->writers);
	trace_recursion_unlock(&cpu_buffer->recursion);
out:
	preempt_enable_notrace();
	return NULL;
}

void (*ring_buffer_commit_notify)(void);

int ring_buffer_unlock_commit(struct trace_buffer *buffer)
{
	struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[smp_processor_id()];
	void (*notify)(void);

	rb_end_commit(buffer, cpu_buffer);
	barrier();
	notify = READ_ONCE(ring_buffer_commit_notify);
	if (unlikely(notify))
		notify();
	local_dec(&cpu_buffer->writers);
	trace_recursion_unlock(&cpu_buffer->recursion);
	preempt_enable_notrace();
	return 0;
}

int ring_buffer_write(struct trace_buffer *buffer, unsigned long length, const void *data)
{
	struct rb_event *event = ring_buffer_lock_reserve(buffer, length);
	u8 *payload;

	if (!event)
		return -EBUSY;
	payload = ring_buffer_event_data(event);
	if (length)
		memcpy(payload, data, length);
	/* Don't leave stale bytes in the rounding. */
	memset(payload + length, 0, ring_buffer_event_length(event) - length);
	return ring_buffer_unlock_commit(buffer);
}

void *ring_buffer_event_data(struct rb_event *event)
{
	return event->type_len ? &event->array[0] : &event->array[1];
}

unsigned int ring_buffer_event_length(struct rb_event *event)
{
	return event->type_len ? event->type_len * RB_ALIGNMENT : event->array[0] - RB_EVNT_HDR_SIZE;
}
