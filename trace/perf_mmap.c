/*
 * mmap(2) of a perf event: 1 + 2^n pages, the control page then the data
 * area, as Linux maps them. The kernel keeps the data pages physically
 * contiguous (one buddy block), so a record that wraps is two copies and
 * the pages map to user space one by one through fault_pfn. A writable
 * mapping makes a normal ring (the reader's data_tail is honoured); a
 * read-only one an overwrite ring.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/fs/fs.h>
#include <trace/perf_event.h>

struct perf_buffer *perf_buffer_get(struct perf_buffer *rb)
{
	if (rb)
		atomic_inc(&rb->refcount);
	return rb;
}

void perf_buffer_free(struct perf_buffer *rb)
{
	free_page(rb->user_page);
	if (rb->data)
		free_pages(rb->data, rb->order);
	kfree(rb);
}

static struct perf_buffer *perf_buffer_alloc(unsigned long nr_pages, u64 watermark,
					     bool overwrite, bool backward)
{
	struct perf_buffer *rb = kzalloc(sizeof(*rb), GFP_KERNEL);

	if (!rb)
		return NULL;
	rb->order = nr_pages ? get_order(nr_pages * PAGE_SIZE) : 0;
	rb->user_page = get_zeroed_page(GFP_KERNEL);
	if (nr_pages)
		rb->data = __get_free_pages(GFP_KERNEL | __GFP_ZERO, rb->order);
	if (!rb->user_page || (nr_pages && !rb->data)) {
		if (rb->user_page)
			free_page(rb->user_page);
		kfree(rb);
		return NULL;
	}
	atomic_set(&rb->refcount, 1);
	INIT_LIST_HEAD(&rb->reclaim_node);
	perf_ring_init(&rb->ring, (void *)rb->user_page, (void *)rb->data, nr_pages * PAGE_SIZE,
		       watermark, overwrite, backward);
	return rb;
}

void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_buffer *rb = READ_ONCE(event->rb);
	struct perf_event_mmap_page *up;

	if (!rb)
		return;
	up = rb->ring.user_page;
	/* the seqlock readers of these fields use: odd while they change */
	__atomic_add_fetch(&up->lock, 1, __ATOMIC_RELEASE);
	up->index = 0;	/* no hardware counter to read with rdpmc */
	up->offset = (s64)perf_event_count(event);
	up->time_enabled = perf_event_time(event);
	up->time_running = up->time_enabled;
	__atomic_add_fetch(&up->lock, 1, __ATOMIC_RELEASE);
}

static u64 perf_vm_fault_pfn(struct vm_area_struct *vma, unsigned long pgoff)
{
	struct perf_buffer *rb = vma->vm_private;

	if (pgoff == 0)
		return __pa(rb->user_page) >> PAGE_SHIFT;
	if (!rb->data || pgoff - 1 >= (1UL << rb->order))
		return (u64)-1;
	return (__pa(rb->data) >> PAGE_SHIFT) + pgoff - 1;
}

/* Every vma mapping the ring (split parts included) holds a reference; fork copies none. */
static void perf_vm_open(struct vm_area_struct *vma)
{
	perf_buffer_get(vma->vm_private);
}

static void perf_vm_close(struct vm_area_struct *vma)
{
	perf_buffer_put(vma->vm_private);
}

static const struct vm_operations_struct perf_vm_ops = {
	.fault_pfn = perf_vm_fault_pfn,
	.open = perf_vm_open,
	.close = perf_vm_close,
};

int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_event *event = file->private_data;
	unsigned long nr_pages = (vma->end - vma->start) >> PAGE_SHIFT;
	bool writable = vma->flags & VM_WRITE;
	struct perf_buffer *rb;
	u64 watermark;

	if (vma->pgoff || !(vma->flags & VM_SHARED))
		return -EINVAL;
	/* children on any CPU would write one ring at once: Linux maps inherited rings per CPU */
	if (event->cpu < 0 && (event->attr.flags & PERF_ATTR_FLAG_INHERIT))
		return -EINVAL;
	nr_pages--;	/* the control page */
	if (nr_pages & (nr_pages - 1))
		return -EINVAL;
	if (nr_pages > (1UL << MAX_ORDER))
		return -ENOMEM;
	rb = event->rb;
	if (rb) {
		/* mapped again (or SET_OUTPUT'd): only the same ring, whole */
		if ((1UL << rb->order) != nr_pages || !rb->data != !nr_pages ||
		    rb->ring.overwrite == writable)
			return -EINVAL;
		perf_buffer_get(rb);
	} else {
		watermark = (event->attr.flags & PERF_ATTR_FLAG_WATERMARK) ?
			    event->attr.wakeup_watermark : 0;
		rb = perf_buffer_alloc(nr_pages, watermark, !writable,
				       event->attr.flags & PERF_ATTR_FLAG_WRITE_BACKWARD);
		if (!rb)
			return -ENOMEM;
		perf_buffer_get(rb);	/* one for the event, one for the mapping */
		WRITE_ONCE(event->rb, rb);
	}
	/* As Linux's VM_DONTCOPY: a forked child does not inherit the ring. */
	vma->flags |= VM_PFNMAP | VM_DONTCOPY;
	vma->vm_ops = &perf_vm_ops;
	vma->vm_private = rb;
	perf_event_update_userpage(event);
	return 0;
}
