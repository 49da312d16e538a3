/*
 * Ring buffer allocation and control: per-CPU rings, resize
 * (buffer_size_kb), reset, tracing_on, trace_clock, overwrite mode and
 * the per_cpu/cpuN/stats counters. The write path is in
 * ring_buffer_write.c, the readers in ring_buffer_read.c.
 *
 * Pages (sub-buffers) come from kmalloc(RB_SUBBUF_SIZE(order)): nothing
 * here depends on a page being page-aligned (every page is found through its slot, never by
 * masking an event's address), so the host's malloc serves as well as
 * the kernel's slab.
 *
 * Resize and reset change what writers use without a lock they take:
 * they disable recording on the CPU's buffer, wait until no writer is
 * inside reserve..commit there (the writers count themselves in with a
 * full barrier before looking at record_disabled), do the work under
 * the reader lock, and enable recording again.
 */
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <trace/ring_buffer_internal.h>

/* record_disabled bit for tracing_on; counts below it are nested disables. */
#define RB_BUFFER_OFF	(1 << 20)

static unsigned long rb_size_to_pages(unsigned long size, unsigned int data_size)
{
	unsigned long nr = DIV_ROUND_UP(size, data_size);

	return nr < RB_MIN_PAGES ? RB_MIN_PAGES : nr;
}

static void rb_free_pages(struct buffer_page *pages, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		kfree(pages[i].page);
	kfree(pages);
}

static struct buffer_page *rb_alloc_pages(unsigned long nr, unsigned int order)
{
	struct buffer_page *pages = kcalloc(nr, sizeof(*pages), GFP_KERNEL);

	if (!pages)
		return NULL;
	for (unsigned long i = 0; i < nr; i++) {
		pages[i].page = kzalloc(RB_SUBBUF_SIZE(order), GFP_KERNEL);
		if (!pages[i].page) {
			rb_free_pages(pages, i);
			return NULL;
		}
	}
	return pages;
}

/* Sub-buffers of this order from now on: the ring must be reset after. */
static void rb_set_subbuf_order(struct ring_buffer_per_cpu *cpu_buffer, unsigned int order)
{
	cpu_buffer->data_size = RB_SUBBUF_DATA_SIZE(order);
	cpu_buffer->off_bits = 12 + order;
	cpu_buffer->off_mask = (1u << cpu_buffer->off_bits) - 1;
}

/* Empty the ring. Writers are quiesced and the reader lock is held. */
static void rb_reset_cpu_locked(struct ring_buffer_per_cpu *cpu_buffer)
{
	for (unsigned long i = 0; i < cpu_buffer->nr_pages; i++) {
		struct buffer_page *bpage = &cpu_buffer->pages[i];

		bpage->page->time_stamp = 0;
		bpage->page->commit = 0;
		local_set(&bpage->entries, rb_entries(i, 0));
		bpage->real_end = 0;
	}
	local_set(&cpu_buffer->tail, rb_pos(cpu_buffer, 0, 0, 0));
	local_set(&cpu_buffer->committing, 0);
	local_set(&cpu_buffer->commits, 0);
	local_set(&cpu_buffer->stamping, 0);
	cpu_buffer->write_stamp = 0;
	cpu_buffer->stamp_pos = rb_pos(cpu_buffer, 0, 0, 0);
	cpu_buffer->commit_seq = 0;
	cpu_buffer->commit_slot = 0;
	local_set(&cpu_buffer->entries_written, 0);
	local_set(&cpu_buffer->bytes_written, 0);
	local_set(&cpu_buffer->overrun, 0);
	local_set(&cpu_buffer->overrun_bytes, 0);
	local_set(&cpu_buffer->commit_overrun, 0);
	local_set(&cpu_buffer->dropped_events, 0);
	cpu_buffer->recursion.refused = 0;
	__atomic_store_n(&cpu_buffer->head, rb_head(cpu_buffer, 0, 0, 0), __ATOMIC_RELEASE);
	cpu_buffer->read_events = 0;
	cpu_buffer->read_bytes = 0;
	cpu_buffer->last_overrun = 0;
	cpu_buffer->read_stamp_head = ~0ull;
	cpu_buffer->read_stamp = 0;
}

/* Stop this CPU's writers and wait until none is inside reserve..commit. */
static void rb_quiesce(struct ring_buffer_per_cpu *cpu_buffer)
{
	__atomic_add_fetch(&cpu_buffer->record_disabled.counter, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&cpu_buffer->writers.counter, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void rb_unquiesce(struct ring_buffer_per_cpu *cpu_buffer)
{
	__atomic_sub_fetch(&cpu_buffer->record_disabled.counter, 1, __ATOMIC_SEQ_CST);
}

static struct ring_buffer_per_cpu *rb_alloc_cpu_buffer(struct trace_buffer *buffer, int cpu,
						       unsigned long nr_pages)
{
	struct ring_buffer_per_cpu *cpu_buffer = kzalloc(sizeof(*cpu_buffer), GFP_KERNEL);

	if (!cpu_buffer)
		return NULL;
	cpu_buffer->pages = rb_alloc_pages(nr_pages, buffer->subbuf_order);
	if (!cpu_buffer->pages) {
		kfree(cpu_buffer);
		return NULL;
	}
	cpu_buffer->cpu = cpu;
	cpu_buffer->buffer = buffer;
	cpu_buffer->nr_pages = nr_pages;
	rb_set_subbuf_order(cpu_buffer, buffer->subbuf_order);
	spin_lock_init(&cpu_buffer->reader_lock);
	rb_reset_cpu_locked(cpu_buffer);
	return cpu_buffer;
}

static void rb_free_cpu_buffer(struct ring_buffer_per_cpu *cpu_buffer)
{
	if (!cpu_buffer)
		return;
	rb_free_pages(cpu_buffer->pages, cpu_buffer->nr_pages);
	kfree(cpu_buffer);
}

struct trace_buffer *ring_buffer_alloc(unsigned long size, unsigned int flags)
{
	unsigned long nr_pages = rb_size_to_pages(size, RB_PAGE_DATA_SIZE);
	struct trace_buffer *buffer;

	if (nr_pages > RB_MAX_PAGES)
		return NULL;
	buffer = kzalloc(sizeof(*buffer), GFP_KERNEL);
	if (!buffer)
		return NULL;
	buffer->flags = flags;
	buffer->clock = trace_clock_local;
	buffer->nr_cpus = nr_cpu_ids;
	buffer->buffers = kcalloc(buffer->nr_cpus, sizeof(*buffer->buffers), GFP_KERNEL);
	if (!buffer->buffers)
		goto fail;
	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++) {
		buffer->buffers[cpu] = rb_alloc_cpu_buffer(buffer, cpu, nr_pages);
		if (!buffer->buffers[cpu])
			goto fail;
	}
	return buffer;
fail:
	ring_buffer_free(buffer);
	return NULL;
}

void ring_buffer_free(struct trace_buffer *buffer)
{
	if (!buffer)
		return;
	for (unsigned int cpu = 0; buffer->buffers && cpu < buffer->nr_cpus; cpu++)
		rb_free_cpu_buffer(buffer->buffers[cpu]);
	kfree(buffer->buffers);
	kfree(buffer);
}

/*
 * Give one CPU nr_pages pages, keeping the newest events: when shrinking
 * below what is unread, the oldest pages go as overrun.
 */
static int rb_resize_cpu(struct ring_buffer_per_cpu *cpu_buffer, unsigned long nr_pages)
{
	unsigned long old_nr = cpu_buffer->nr_pages, spare_nr = 0;
	struct buffer_page *old = cpu_buffer->pages, *pages, *spare = NULL;
	u64 head, h, t, first, s;
	long tail;
	unsigned long i, j;

	if (nr_pages == old_nr)
		return 0;
	pages = kcalloc(nr_pages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	if (nr_pages > old_nr) {
		spare_nr = nr_pages - old_nr;
		spare = rb_alloc_pages(spare_nr, cpu_buffer->buffer->subbuf_order);
		if (!spare) {
			kfree(pages);
			return -ENOMEM;
		}
	}

	spin_lock(&cpu_buffer->reader_lock);
	rb_quiesce(cpu_buffer);
	head = cpu_buffer->head;
	tail = local_read(&cpu_buffer->tail);
	h = rb_head_seq(cpu_buffer, head);
	t = rb_pos_seq(cpu_buffer, tail);
	first = t + 1 - h > nr_pages ? t + 1 - nr_pages : h;

	/* Pages that no longer fit are lost, as if overwritten. */
	for (s = h; s < first; s++) {
		struct buffer_page *bpage = &old[s % old_nr];
		unsigned int done = s == h ? rb_head_entries(cpu_buffer, head) : 0;
		unsigned int done_bytes = s == h ? rb_head_off(cpu_buffer, head) : 0;

		local_add(&cpu_buffer->overrun, rb_entries_count(local_read(&bpage->entries)) - done);
		local_add(&cpu_buffer->overrun_bytes, bpage->real_end - done_bytes);
	}
	if (first != h)
		head = rb_head(cpu_buffer, first, 0, 0);
	for (s = first; s <= t; s++) {
		pages[s % nr_pages] = old[s % old_nr];
		old[s % old_nr].page = NULL;
	}
	/* Fill the empty slots with the old ring's other pages, then new ones. */
	for (i = 0, j = 0; i < nr_pages; i++) {
		if (pages[i].page)
			continue;
		while (j < old_nr && !old[j].page)
			j++;
		if (j < old_nr) {
			pages[i].page = old[j].page;
			old[j++].page = NULL;
		} else {
			pages[i].page = spare[--spare_nr].page;
			spare[spare_nr].page = NULL;
		}
		pages[i].real_end = 0;
		local_set(&pages[i].entries, 0);
	}
	cpu_buffer->pages = pages;
	cpu_buffer->nr_pages = nr_pages;
	cpu_buffer->commit_slot = cpu_buffer->commit_seq % nr_pages;
	local_set(&cpu_buffer->tail, rb_pos(cpu_buffer, t, t % nr_pages, rb_pos_off(cpu_buffer, tail)));
	cpu_buffer->stamp_pos = cpu_buffer->stamp_pos == tail ? local_read(&cpu_buffer->tail) : -1;
	__atomic_store_n(&cpu_buffer->head, head, __ATOMIC_RELEASE);
	rb_unquiesce(cpu_buffer);
	spin_unlock(&cpu_buffer->reader_lock);

	rb_free_pages(old, old_nr);	/* what is left: pages the smaller ring did not take */
	kfree(spare);
	return 0;
}

int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size, int cpu)
{
	unsigned long nr_pages = rb_size_to_pages(size, RB_SUBBUF_DATA_SIZE(buffer->subbuf_order));
	int err;

	if (nr_pages > RB_MAX_PAGES)
		return -ENOMEM;
	if (cpu != RING_BUFFER_ALL_CPUS)
		return rb_cpu_buffer(buffer, cpu) ? rb_resize_cpu(buffer->buffers[cpu], nr_pages) : -EINVAL;
	for (unsigned int c = 0; c < buffer->nr_cpus; c++) {
		err = rb_resize_cpu(buffer->buffers[c], nr_pages);
		if (err)
			return err;
	}
	return 0;
}

unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer =
		rb_cpu_buffer(buffer, cpu == RING_BUFFER_ALL_CPUS ? 0 : cpu);

	return cpu_buffer ? cpu_buffer->nr_pages * cpu_buffer->data_size : 0;
}

/*
 * Every CPU's new pages are allocated first, so a failure changes
 * nothing; the switch itself holds every CPU's reader lock, so a reader
 * sees either the old sub-buffers or the new ones on all CPUs.
 */
int ring_buffer_subbuf_order_set(struct trace_buffer *buffer, unsigned int order)
{
	unsigned int old_data = RB_SUBBUF_DATA_SIZE(buffer->subbuf_order), cpu;
	struct buffer_page **pages;
	unsigned long *nr;
	int err = 0;

	if (order > RB_SUBBUF_MAX_ORDER)
		return -EINVAL;
	if (order == buffer->subbuf_order)
		return 0;
	pages = kcalloc(buffer->nr_cpus, sizeof(*pages), GFP_KERNEL);
	nr = kcalloc(buffer->nr_cpus, sizeof(*nr), GFP_KERNEL);
	for (cpu = 0; pages && nr && cpu < buffer->nr_cpus; cpu++) {
		nr[cpu] = rb_size_to_pages(buffer->buffers[cpu]->nr_pages * old_data,
					   RB_SUBBUF_DATA_SIZE(order));
		pages[cpu] = nr[cpu] <= RB_MAX_PAGES ? rb_alloc_pages(nr[cpu], order) : NULL;
		if (!pages[cpu])
			break;
	}
	if (!pages || !nr || cpu < buffer->nr_cpus) {
		err = -ENOMEM;
		goto out;
	}
	for (cpu = 0; cpu < buffer->nr_cpus; cpu++) {
		spin_lock(&buffer->buffers[cpu]->reader_lock);
		rb_quiesce(buffer->buffers[cpu]);
	}
	for (cpu = 0; cpu < buffer->nr_cpus; cpu++) {
		struct ring_buffer_per_cpu *cpu_buffer = buffer->buffers[cpu];
		struct buffer_page *old = cpu_buffer->pages;
		unsigned long old_nr = cpu_buffer->nr_pages;

		cpu_buffer->pages = pages[cpu];
		cpu_buffer->nr_pages = nr[cpu];
		pages[cpu] = old;	/* freed below */
		nr[cpu] = old_nr;
		rb_set_subbuf_order(cpu_buffer, order);
		rb_reset_cpu_locked(cpu_buffer);
	}
	WRITE_ONCE(buffer->subbuf_order, order);
	for (cpu = buffer->nr_cpus; cpu-- > 0;) {
		rb_unquiesce(buffer->buffers[cpu]);
		spin_unlock(&buffer->buffers[cpu]->reader_lock);
	}
	cpu = buffer->nr_cpus;
out:
	while (pages && nr && cpu-- > 0)
		rb_free_pages(pages[cpu], nr[cpu]);
	kfree(pages);
	kfree(nr);
	return err;
}

unsigned int ring_buffer_subbuf_order(struct trace_buffer *buffer)
{
	return READ_ONCE(buffer->subbuf_order);
}

unsigned int ring_buffer_subbuf_size(struct trace_buffer *buffer)
{
	return RB_SUBBUF_SIZE(ring_buffer_subbuf_order(buffer));
}

unsigned long ring_buffer_max_event_size(struct trace_buffer *buffer)
{
	return RB_MAX_DATA_ORDER(ring_buffer_subbuf_order(buffer));
}

void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	if (!cpu_buffer)
		return;
	spin_lock(&cpu_buffer->reader_lock);
	rb_quiesce(cpu_buffer);
	rb_reset_cpu_locked(cpu_buffer);
	rb_unquiesce(cpu_buffer);
	spin_unlock(&cpu_buffer->reader_lock);
}

void ring_buffer_reset(struct trace_buffer *buffer)
{
	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		ring_buffer_reset_cpu(buffer, cpu);
}

/* Times from two clocks do not compare: callers reset the buffer after (Linux does). */
void ring_buffer_set_clock(struct trace_buffer *buffer, trace_clock_fn clock)
{
	WRITE_ONCE(buffer->clock, clock);
}

u64 ring_buffer_time_stamp(struct trace_buffer *buffer)
{
	return buffer->clock();
}

void ring_buffer_change_overwrite(struct trace_buffer *buffer, bool overwrite)
{
	if (overwrite)
		__atomic_fetch_or(&buffer->flags, RB_FL_OVERWRITE, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&buffer->flags, ~RB_FL_OVERWRITE, __ATOMIC_RELAXED);
}

void ring_buffer_record_on(struct trace_buffer *buffer)
{
	__atomic_fetch_and(&buffer->record_disabled.counter, ~RB_BUFFER_OFF, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_off(struct trace_buffer *buffer)
{
	__atomic_fetch_or(&buffer->record_disabled.counter, RB_BUFFER_OFF, __ATOMIC_SEQ_CST);
}

bool ring_buffer_record_is_on(struct trace_buffer *buffer)
{
	return !atomic_read(&buffer->record_disabled);
}

bool ring_buffer_record_is_on_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	return ring_buffer_record_is_on(buffer) && cpu_buffer &&
	       !atomic_read(&cpu_buffer->record_disabled);
}

void ring_buffer_record_disable_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	if (cpu_buffer)
		__atomic_add_fetch(&cpu_buffer->record_disabled.counter, 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_enable_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);

	if (cpu_buffer)
		__atomic_sub_fetch(&cpu_buffer->record_disabled.counter, 1, __ATOMIC_SEQ_CST);
}

int ring_buffer_stats_cpu(struct trace_buffer *buffer, int cpu, struct ring_buffer_stats *st)
{
	struct ring_buffer_per_cpu *cpu_buffer = rb_cpu_buffer(buffer, cpu);
	unsigned long written, written_bytes;

	if (!cpu_buffer)
		return -EINVAL;
	spin_lock(&cpu_buffer->reader_lock);
	written = local_read(&cpu_buffer->entries_written);
	written_bytes = local_read(&cpu_buffer->bytes_written);
	st->overrun = local_read(&cpu_buffer->overrun);
	st->commit_overrun = local_read(&cpu_buffer->commit_overrun);
	st->dropped_events = local_read(&cpu_buffer->dropped_events);
	st->read_events = cpu_buffer->read_events;
	st->entries = written - st->overrun - st->read_events;
	st->bytes = written_bytes - local_read(&cpu_buffer->overrun_bytes) - cpu_buffer->read_bytes;
	if (rb_peek_ts_locked(cpu_buffer, &st->oldest_event_ts))
		st->oldest_event_ts = 0;
	spin_unlock(&cpu_buffer->reader_lock);
	st->now_ts = buffer->clock();
	return 0;
}

unsigned long ring_buffer_recursion_refused(struct trace_buffer *buffer)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		n += READ_ONCE(buffer->buffers[cpu]->recursion.refused);
	return n;
}

void ring_buffer_set_nest_hook(struct trace_buffer *buffer, rb_nest_hook_fn hook)
{
	buffer->nest_hook = hook;
}
