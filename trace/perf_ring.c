/*
 * The perf mmap ring's writer side (see trace/perf_ring.h for the
 * protocol). Every shared word is moved with an atomic: writers for one
 * ring may run on several CPUs and nest on each. Pure.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <trace/perf_ring.h>

void perf_ring_init(struct perf_ring *rb, struct perf_event_mmap_page *user_page, void *data,
		    u64 data_size, u64 watermark, bool overwrite, bool backward)
{
	memset(rb, 0, sizeof(*rb));
	rb->user_page = user_page;
	rb->data = data;
	rb->data_size = data_size;
	rb->watermark = watermark && watermark < data_size ? watermark : data_size / 2;
	rb->overwrite = overwrite;
	rb->backward = backward;
	/* What a reader checks before trusting the rest (Linux's perf_event_init_userpage). */
	user_page->size = (u32)__builtin_offsetof(struct perf_event_mmap_page, reserved);
	user_page->capabilities = PERF_CAP_BIT0_IS_DEPRECATED;
	user_page->data_offset = 4096;
	user_page->data_size = data_size;
}

/*
 * Free bytes between the writer at head and the reader at tail, keeping
 * one byte unused so that a full ring never looks empty (Linux's
 * CIRC_SPACE). A backward writer has the roles swapped.
 */
static u64 ring_space(const struct perf_ring *rb, u64 head, u64 tail)
{
	if (rb->backward)
		return (head - (tail + 1)) & (rb->data_size - 1);
	return (tail - (head + 1)) & (rb->data_size - 1);
}

/*
 * Make data_head say head, unless a later publisher already said more:
 * a writer on another CPU may reach this point with an older head after
 * a newer one was published.
 */
static void ring_publish(struct perf_ring *rb, u64 head)
{
	u64 old = __atomic_load_n(&rb->user_page->data_head, __ATOMIC_RELAXED);

	do {
		s64 ahead = rb->backward ? (s64)(old - head) : (s64)(head - old);

		if (ahead <= 0)
			return;
	} while (!__atomic_compare_exchange_n(&rb->user_page->data_head, &old, head, false,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/*
 * Leave the writer section. The writer that brings nest to zero
 * publishes head; if a writer reserved in the meantime (its reservation
 * moved head after we read it), we take the section again so that one of
 * us publishes the newer head once it is complete.
 */
static void ring_put(struct perf_ring *rb)
{
	u64 head;

	for (;;) {
		head = __atomic_load_n(&rb->head, __ATOMIC_ACQUIRE);
		if (atomic_dec_return(&rb->nest) != 0)
			return;
		ring_publish(rb, head);
		if (head == __atomic_load_n(&rb->head, __ATOMIC_ACQUIRE))
			return;
		atomic_inc_return(&rb->nest);
	}
}

int perf_ring_begin(struct perf_output_handle *h, struct perf_ring *rb, u32 size, u32 lost_size)
{
	u64 head, next, tail, total, w;
	long lost = 0;

	atomic_inc_return(&rb->nest);
	h->ring = rb;
	h->wakeup = __atomic_load_n(&rb->wakeup, __ATOMIC_RELAXED);
	if (READ_ONCE(rb->paused))
		goto fail;
	/* Taken now, so two writers never both report the same losses. */
	lost = atomic_xchg(&rb->lost, 0);
	total = size + (lost ? lost_size : 0);
	head = __atomic_load_n(&rb->head, __ATOMIC_RELAXED);
	do {
		if (!rb->overwrite) {
			tail = __atomic_load_n(&rb->user_page->data_tail, __ATOMIC_RELAXED);
			if (ring_space(rb, head, tail) < total)
				goto fail;
		}
		next = rb->backward ? head - total : head + total;
	} while (!__atomic_compare_exchange_n(&rb->head, &head, next, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));

	/* Past the watermark: the reader gets woken when this record is out. */
	w = __atomic_load_n(&rb->wakeup, __ATOMIC_RELAXED);
	if ((rb->backward ? w - next : next - w) > rb->watermark)
		__atomic_compare_exchange_n(&rb->wakeup, &w, w + (rb->backward ? -rb->watermark :
								  rb->watermark),
					    false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	h->pos = rb->backward ? next : head;
	h->size = (u32)total;
	h->lost = (u64)lost;
	return 0;

fail:
	atomic64_add(&rb->lost, lost + 1);
	ring_put(rb);
	return -ENOSPC;
}

void perf_ring_write(struct perf_output_handle *h, const void *src, u32 len)
{
	struct perf_ring *rb = h->ring;
	u64 off = h->pos & (rb->data_size - 1);
	u64 first = rb->data_size - off;

	if (first > len)
		first = len;
	memcpy(rb->data + off, src, first);
	if (len > first)
		memcpy(rb->data, (const u8 *)src + first, len - first);
	h->pos += len;
	h->size -= len;
}

void perf_ring_skip_zero(struct perf_output_handle *h, u32 len)
{
	static const u8 zeros[8];

	while (len) {
		u32 n = len < sizeof(zeros) ? len : (u32)sizeof(zeros);

		perf_ring_write(h, zeros, n);
		len -= n;
	}
}

bool perf_ring_end(struct perf_output_handle *h)
{
	struct perf_ring *rb = h->ring;
	bool wake;

	ring_put(rb);
	wake = h->wakeup != __atomic_load_n(&rb->wakeup, __ATOMIC_RELAXED);
	if (wake)
		atomic_set(&rb->poll, PERF_POLLIN);
	return wake;
}

bool perf_ring_count_event(struct perf_ring *rb, u32 wakeup_events)
{
	if (!wakeup_events || atomic_inc_return(&rb->events) < (int)wakeup_events)
		return false;
	atomic_sub(&rb->events, (int)wakeup_events);
	atomic_set(&rb->poll, PERF_POLLIN);
	return true;
}

unsigned int perf_ring_poll(struct perf_ring *rb)
{
	return (unsigned int)atomic_xchg(&rb->poll, 0);
}
