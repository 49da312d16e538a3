/*
 * Readers: consume and peek (trace_pipe), whole pages (trace_pipe_raw,
 * dumps) and non-consuming iterators (trace).
 *
 * A reader never stops the writers. It reads only committed bytes, copies
 * what it needs out of the page, and then checks that the page still
 * belongs to the lap it thought: a consuming reader by moving the head
 * word with cmpxchg, a non-consuming one by re-reading it. An overwriting
 * writer moves the head past a page before it writes into that slot
 * again, so if the check passes the copy was taken before any overwrite.
 * Until then a page being overwritten may hold anything: every length is
 * checked against the commit before it is followed.
 *
 * Readers of one CPU serialize on its reader_lock (writers never take
 * it), which also keeps resize and reset away.
 */
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/ring_buffer_internal.h>

/* A place in a page: the offset of a record and the time of the record before it. */
struct rb_cursor {
	unsigned int off;
	u64 ts;
};

struct ring_buffer_iter {
	struct ring_buffer_per_cpu *cpu_buffer;
	u64 seq;			/* page the iterator is in */
	struct rb_cursor cur;		/* next record to look at */
	bool peeked;			/* next is past the event iter_peek returned */
	struct rb_cursor next;
	unsigned long last_overrun;	/* overrun already reported */
};

/* Bytes the record at off takes in a page with end bytes of data, 0 if malformed. */
static unsigned int rb_record_length(const u8 *data, unsigned int off, unsigned int end)
{
	const struct rb_event *event = (const struct rb_event *)(data + off);
	unsigned int room = end - off, len;

	if (room < RB_EVNT_HDR_SIZE)
		return 0;
	switch (event->type_len) {
	case RINGBUF_TYPE_PADDING:
		if (!event->time_delta)
			return room;		/* the rest of the page is unused */
		/* A discarded event is sized like a large one. */
		__attribute__((fallthrough));
	case 0:
		if (room < 2 * RB_EVNT_HDR_SIZE || event->array[0] > room)
			return 0;
		len = ALIGN_UP(RB_EVNT_HDR_SIZE + event->array[0], RB_ALIGNMENT);
		if (event->type_len == 0 && event->array[0] < RB_EVNT_HDR_SIZE)
			return 0;
		break;
	case RINGBUF_TYPE_TIME_EXTEND:
	case RINGBUF_TYPE_TIME_STAMP:
		len = 2 * RB_EVNT_HDR_SIZE;
		break;
	default:
		len = RB_EVNT_HDR_SIZE + event->type_len * RB_ALIGNMENT;
	}
	return len <= room ? len : 0;
}

/* The time after a record, given the time before it. */
static u64 rb_record_time(const struct rb_event *event, u64 ts)
{
	u64 value = (u64)event->array[0] << RB_TS_SHIFT | event->time_delta;

	switch (event->type_len) {
	case RINGBUF_TYPE_TIME_EXTEND:
		return ts + value;
	case RINGBUF_TYPE_TIME_STAMP:
		return value | (ts & RB_TS_MSB);
	default:
		return ts + event->time_delta;
	}
}

/*
 * From cur, find the next data event before end: its offset goes to
 * *event_off, cur moves past it with the event's time. -EAGAIN: none.
 */
static int rb_next_data(const u8 *data, unsigned int end, struct rb_cursor *cur,
			unsigned int *event_off)
{
	while (cur->off < end) {
		const struct rb_event *event = (const struct rb_event *)(data + cur->off);
		unsigned int len = rb_record_length(data, cur->off, end);

		if (!len)
			return -EIO;
		cur->ts = rb_record_time(event, cur->ts);
		*event_off = cur->off;
		cur->off += len;
		if (event->type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
			return 0;
	}
	return -EAGAIN;
}

/* The cursor for offset off of page bpage (the head page, described by head). */
static int rb_cursor_at(struct ring_buffer_per_cpu *cpu_buffer, struct buffer_page *bpage,
			u64 head, unsigned int commit, struct rb_cursor *cur)
{
	unsigned int off = rb_head_off(cpu_buffer, head);

	if (cpu_buffer->read_stamp_head == head) {
		cur->off = off;
		cur->ts = cpu_buffer->read_stamp;
		return 0;
	}
	cur->off = 0;
	cur->ts = READ_ONCE(bpage->page->time_stamp);
	while (cur->off < off) {
		unsigned int len = rb_record_length(bpage->page->data, cur->off, commit);

		if (!len)
			return -EIO;
		cur->ts = rb_record_time((const struct rb_event *)(bpage->page->data + cur->off), cur->ts);
		cur->off += len;
	}
	return cur->off == off ? 0 : -EIO;
}

static unsigned int rb_page_commit(struct ring_buffer_per_cpu *cpu_buffer,
				   struct buffer_page *bpage)
{
	unsigned long commit = (unsigned long)smp_load_acquire(&bpage->page->commit);

	return commit < cpu_buffer->data_size ? (unsigned int)commit : cpu_buffer->data_size;
}

static void rb_copy_event(struct ring_buffer_record *rec, const u8 *data, unsigned int off)
{
	const struct rb_event *event = (const struct rb_event *)(data + off);
	const u32 *payload = event->type_len ? &event->array[0] : &event->array[1];
	u32 length = event->type_len ? event->type_len * RB_ALIGNMENT : event->array[0] - RB_EVNT_HDR_SIZE;

	/* rb_record_length() bounded the event by the page; a torn one is caught later. */
	rec->length = min(length, (u32)RB_RECORD_MAX);
	memcpy(rec->data, payload, rec->length);
}

/*
 * The next unread event, reader lock held: its time to *ts and, with rec,
 * a copy of it. With consume, the event is read and gone.
 */
static int rb_read_locked(struct ring_buffer_per_cpu *cpu_buffer, struct ring_buffer_record *rec,
			  u64 *ts, bool consume)
{
	for (;;) {
		u64 head = smp_load_acquire(&cpu_buffer->head);
		u64 h = rb_head_seq(cpu_buffer, head);
		u64 c = smp_load_acquire(&cpu_buffer->commit_seq);
		struct buffer_page *bpage = rb_slot(cpu_buffer, h);
		unsigned int commit = rb_page_commit(cpu_buffer, bpage), event_off = 0;
		unsigned long overrun;
		struct rb_cursor cur;
		int err;

		if (rb_head_off(cpu_buffer, head) >= commit) {
			if (h == c)
				return -EAGAIN;
			/* Page read to its end: on to the next (no event goes with it). */
			__atomic_compare_exchange_n(&cpu_buffer->head, &head, rb_head(cpu_buffer, h + 1, 0, 0),
						    false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
			continue;
		}
		err = rb_cursor_at(cpu_buffer, bpage, head, commit, &cur);
		if (!err)
			err = rb_next_data(bpage->page->data, commit, &cur, &event_off);
		if (!err && rec)
			rb_copy_event(rec, bpage->page->data, event_off);
		smp_mb();
		if (consume && !err) {
			u64 new = rb_head(cpu_buffer, h, cur.off, rb_head_entries(cpu_buffer, head) + 1);

			if (!__atomic_compare_exchange_n(&cpu_buffer->head, &head, new, false,
							 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
				continue;
			cpu_buffer->read_stamp_head = new;
			cpu_buffer->read_stamp = cur.ts;
			cpu_buffer->read_events++;
			cpu_buffer->read_bytes += cur.off - rb_head_off(cpu_buffer, head);
		} else if (__atomic_load_n(&cpu_buffer->head, __ATOMIC_SEQ_CST) != head) {
			continue;	/* the writer took the page: what we read may be torn */
		}
		if (err)
			return -EIO;	/* a committed page that does not parse */
		*ts = cur.ts;
		overrun = local_read(&cpu_buffer->overrun);
		if (rec) {
			rec->ts = cur.ts;
			rec->lost_events = overrun - cpu_buffer->last_overrun;
		}
		if (consume)
			cpu_buffer->last_overrun = overrun;
		return 0;
	}
}

int rb_peek_ts_locked(struct ring_buffer_per_cpu *cpu_buffer, u64 *ts)
{
	return rb_read_locked(cpu_buffer, NULL, ts, false);
}

static int rb_read(struct trace_buffer *buffer, int cpu, struct ring_buffer_record *rec, bool consume)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u64 ts;
	int err;

	if (!cpu_buffer)
		return -EINVAL;
	spin_lock(&cpu_buffer->reader_lock);
	err = rb_read_locked(cpu_buffer, rec, &ts, consume);
	spin_unlock(&cpu_buffer->reader_lock);
	return err;
}

int ring_buffer_peek(struct trace_buffer *buffer, int cpu, struct ring_buffer_record *rec)
{
	return rb_read(buffer, cpu, rec, false);
}

int ring_buffer_consume(struct trace_buffer *buffer, int cpu, struct ring_buffer_record *rec)
{
	return rb_read(buffer, cpu, rec, true);
}

bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu)
{
	return rb_read(buffer, cpu, NULL, false) == -EAGAIN;
}

bool ring_buffer_watermark_hit(struct trace_buffer *buffer, int cpu, unsigned int percent)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	u64 h, t, ts;
	bool hit;

	if (!cpu_buffer)
		return false;
	spin_lock(&cpu_buffer->reader_lock);
	h = rb_head_seq(cpu_buffer, smp_load_acquire(&cpu_buffer->head));
	t = rb_pos_seq(cpu_buffer, local_read(&cpu_buffer->tail));
	hit = !rb_peek_ts_locked(cpu_buffer, &ts) &&
	      (!percent || (h != t && (t - h + 1) * 100 >= (u64)percent * cpu_buffer->nr_pages));
	spin_unlock(&cpu_buffer->reader_lock);
	return hit;
}

/* Count the data events in a stable copy; the time after the last record to *ts. */
static int rb_count_events(const u8 *data, unsigned int end, u64 *ts, unsigned int *nr)
{
	struct rb_cursor cur = { 0, *ts };
	unsigned int off;
	int err;

	*nr = 0;
	while (!(err = rb_next_data(data, end, &cur, &off)))
		(*nr)++;
	*ts = cur.ts;
	return err == -EAGAIN ? 0 : err;
}

int ring_buffer_read_page(struct trace_buffer *buffer, int cpu, void *dst, size_t size, bool full)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	struct rb_data_page *dpage = dst;
	unsigned long overrun, lost;
	unsigned int len = 0, nr = 0;
	int ret;

	if (!cpu_buffer)
		return -EINVAL;
	spin_lock(&cpu_buffer->reader_lock);
	ret = -EMSGSIZE;
	if (size != cpu_buffer->data_size + RB_PAGE_HDR_SIZE)
		goto out;
	for (;;) {
		u64 head = smp_load_acquire(&cpu_buffer->head);
		u64 h = rb_head_seq(cpu_buffer, head);
		u64 c = smp_load_acquire(&cpu_buffer->commit_seq);
		struct buffer_page *bpage = rb_slot(cpu_buffer, h);
		unsigned int commit = rb_page_commit(cpu_buffer, bpage);
		struct rb_cursor cur;
		u64 new, end_ts = 0;
		int err;

		if (rb_head_off(cpu_buffer, head) >= commit || (full && h == c)) {
			ret = -EAGAIN;
			if (h == c)
				goto out;
			__atomic_compare_exchange_n(&cpu_buffer->head, &head, rb_head(cpu_buffer, h + 1, 0, 0),
						    false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
			continue;
		}
		err = rb_cursor_at(cpu_buffer, bpage, head, commit, &cur);
		len = commit - cur.off;
		if (!err) {
			dpage->time_stamp = cur.ts;
			memcpy(dpage->data, bpage->page->data + cur.off, len);
			end_ts = cur.ts;
			err = rb_count_events(dpage->data, len, &end_ts, &nr);
		}
		smp_mb();
		new = h < c ? rb_head(cpu_buffer, h + 1, 0, 0)
			    : rb_head(cpu_buffer, h, commit, rb_head_entries(cpu_buffer, head) + nr);
		if (err) {
			if (__atomic_load_n(&cpu_buffer->head, __ATOMIC_SEQ_CST) != head)
				continue;
			ret = -EIO;
			goto out;
		}
		if (!__atomic_compare_exchange_n(&cpu_buffer->head, &head, new, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			continue;
		cpu_buffer->read_stamp_head = new;
		cpu_buffer->read_stamp = end_ts;
		cpu_buffer->read_events += nr;
		cpu_buffer->read_bytes += len;
		break;
	}
	overrun = local_read(&cpu_buffer->overrun);
	lost = overrun - cpu_buffer->last_overrun;
	cpu_buffer->last_overrun = overrun;
	memset(dpage->data + len, 0, cpu_buffer->data_size - len);
	dpage->commit = len;
	if (lost) {
		dpage->commit |= RB_MISSED_EVENTS;
		if (len + sizeof(long) <= cpu_buffer->data_size) {
			memcpy(dpage->data + len, &lost, sizeof(long));
			dpage->commit |= RB_MISSED_STORED;
		}
	}
	ret = len;
out:
	spin_unlock(&cpu_buffer->reader_lock);
	return ret;
}

struct ring_buffer_iter *ring_buffer_read_start(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	struct ring_buffer_iter *iter;

	if (!cpu_buffer)
		return NULL;
	iter = kzalloc(sizeof(*iter), GFP_KERNEL);
	if (!iter)
		return NULL;
	iter->cpu_buffer = cpu_buffer;
	spin_lock(&cpu_buffer->reader_lock);
	iter->last_overrun = local_read(&cpu_buffer->overrun);
	spin_unlock(&cpu_buffer->reader_lock);
	/* seq 0, off 0 is behind any head: the first peek moves to the head. */
	return iter;
}

void ring_buffer_read_finish(struct ring_buffer_iter *iter)
{
	kfree(iter);
}

static int rb_iter_peek_locked(struct ring_buffer_iter *iter, struct ring_buffer_record *rec)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	unsigned long lost = 0;

	for (;;) {
		u64 head = smp_load_acquire(&cpu_buffer->head);
		u64 h = rb_head_seq(cpu_buffer, head);
		u64 c = smp_load_acquire(&cpu_buffer->commit_seq);
		struct buffer_page *bpage;
		struct rb_cursor next;
		unsigned int commit, event_off = 0;
		int err;

		/* Behind the readers or the overwriting writer: restart at the head. */
		if (iter->seq < h || (iter->seq == h && iter->cur.off < rb_head_off(cpu_buffer, head))) {
			unsigned long overrun = local_read(&cpu_buffer->overrun);

			lost += overrun - iter->last_overrun;
			iter->last_overrun = overrun;
			bpage = rb_slot(cpu_buffer, h);
			err = rb_cursor_at(cpu_buffer, bpage, head, rb_page_commit(cpu_buffer, bpage), &iter->cur);
			iter->seq = h;
			iter->peeked = false;
			if (err && __atomic_load_n(&cpu_buffer->head, __ATOMIC_SEQ_CST) == head)
				return -EIO;
			continue;
		}
		bpage = rb_slot(cpu_buffer, iter->seq);
		commit = rb_page_commit(cpu_buffer, bpage);
		if (iter->cur.off >= commit) {
			if (iter->seq == c)
				return -EAGAIN;
			iter->seq++;
			iter->cur.off = 0;
			continue;
		}
		next = iter->cur;
		if (!next.off)
			next.ts = READ_ONCE(bpage->page->time_stamp);
		err = rb_next_data(bpage->page->data, commit, &next, &event_off);
		if (!err && rec)
			rb_copy_event(rec, bpage->page->data, event_off);
		smp_mb();
		if (rb_head_seq(cpu_buffer, __atomic_load_n(&cpu_buffer->head, __ATOMIC_SEQ_CST)) > iter->seq)
			continue;	/* overwritten while we read it */
		if (err)
			return -EIO;
		if (rec) {
			rec->ts = next.ts;
			rec->lost_events = lost;
		}
		iter->next = next;
		iter->peeked = true;
		return 0;
	}
}

int ring_buffer_iter_peek(struct ring_buffer_iter *iter, struct ring_buffer_record *rec)
{
	int err;

	spin_lock(&iter->cpu_buffer->reader_lock);
	err = rb_iter_peek_locked(iter, rec);
	spin_unlock(&iter->cpu_buffer->reader_lock);
	return err;
}

void ring_buffer_iter_advance(struct ring_buffer_iter *iter)
{
	spin_lock(&iter->cpu_buffer->reader_lock);
	if (iter->peeked || !rb_iter_peek_locked(iter, NULL)) {
		iter->cur = iter->next;
		iter->peeked = false;
	}
	spin_unlock(&iter->cpu_buffer->reader_lock);
}
