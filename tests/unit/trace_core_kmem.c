/*
 * The kmem tracepoints at their call sites in the allocators: what each
 * one reports, and the recursion rule for probes that allocate (dropped
 * and counted in the same context, delivered from a nested one, and never
 * run under the zone lock, which an allocating probe would deadlock on).
 */
/* uses: kernel/mm/slab.c kernel/mm/page_alloc.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c tests/host/kmem_tracepoints.c */
#include <criterion/criterion.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/mm/slab.h>
#include <trace/events/kmem.h>
#include <stdlib.h>

#define NR_PFNS 1024UL
#include "tests/unit/mm_arena.h"

/* What the probes saw, in order. */
struct hit {
	char what;		/* 'k' kmalloc, 'f' kfree, 'a' page alloc, 'p' page free */
	unsigned long site_or_pfn;
	const void *ptr;
	size_t req, alloc;
	gfp_t gfp;
	unsigned int order;
	int node;
	int level;		/* interrupt_context_level() in the probe */
};
static struct hit hits[64];
static int nr_hits;

static void record(struct hit h)
{
	h.level = interrupt_context_level();
	if (nr_hits < (int)ARRAY_SIZE(hits))
		hits[nr_hits] = h;
	nr_hits++;
}

static void probe_kmalloc(void *data, unsigned long call_site, const void *ptr, size_t bytes_req,
			  size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	record((struct hit){ .what = 'k', .site_or_pfn = call_site, .ptr = ptr, .req = bytes_req,
			     .alloc = bytes_alloc, .gfp = gfp_flags, .node = node });
}

static void probe_kfree(void *data, unsigned long call_site, const void *ptr)
{
	record((struct hit){ .what = 'f', .site_or_pfn = call_site, .ptr = ptr });
}

static void probe_page_alloc(void *data, unsigned long pfn, unsigned int order, gfp_t gfp_flags,
			     int migratetype)
{
	record((struct hit){ .what = 'a', .site_or_pfn = pfn, .order = order, .gfp = gfp_flags });
}

static void probe_page_free(void *data, unsigned long pfn, unsigned int order)
{
	record((struct hit){ .what = 'p', .site_or_pfn = pfn, .order = order });
}

static void setup(void)
{
	mm_arena_init(true);
	nr_hits = 0;
}

TestSuite(trace_core_kmem, .init = setup, .fini = teardown, .timeout = 20);

Test(trace_core_kmem, kmalloc_and_kfree_report_their_caller)
{
	void *p, *z;

	cr_assert_eq(register_trace_kmalloc(probe_kmalloc, NULL), 0);
	cr_assert_eq(register_trace_kfree(probe_kfree, NULL), 0);
	p = __do_kmalloc(100, GFP_ATOMIC | __GFP_ZERO, 0x1111);
	z = __do_kmalloc(0, GFP_KERNEL, 0x2222);
	__do_kfree(p, 0x3333);
	__do_kfree(NULL, 0x4444);
	cr_assert_eq(unregister_trace_kmalloc(probe_kmalloc, NULL), 0);
	cr_assert_eq(unregister_trace_kfree(probe_kfree, NULL), 0);
	__do_kfree(__do_kmalloc(8, GFP_KERNEL, 0x5555), 0x5555);

	cr_assert_eq(z, ZERO_SIZE_PTR);
	cr_assert_eq(nr_hits, 3, "kmalloc(0) is not traced, kfree(NULL) is; detached probes see nothing");
	cr_assert_eq(hits[0].what, 'k');
	cr_assert_eq(hits[0].site_or_pfn, 0x1111);
	cr_assert_eq(hits[0].ptr, p);
	cr_assert_eq(hits[0].req, 100);
	cr_assert_eq(hits[0].alloc, 128, "bytes_alloc is the size class");
	cr_assert_eq(hits[0].gfp, 0x820 | 0x100, "Linux's __GFP_HIGH|__GFP_KSWAPD_RECLAIM|__GFP_ZERO");
	cr_assert_eq(hits[0].node, -1, "NUMA_NO_NODE");
	cr_assert_eq(hits[1].what, 'f');
	cr_assert_eq(hits[1].site_or_pfn, 0x3333);
	cr_assert_eq(hits[1].ptr, p);
	cr_assert_eq(hits[2].what, 'f');
	cr_assert_null(hits[2].ptr);
}

Test(trace_core_kmem, failed_and_large_allocations)
{
	void *big;

	cr_assert_eq(register_trace_kmalloc(probe_kmalloc, NULL), 0);
	cr_assert_eq(register_trace_mm_page_alloc(probe_page_alloc, NULL), 0);
	big = __do_kmalloc(3 * PAGE_SIZE, GFP_KERNEL, 0x1);
	cr_assert_not_null(big);
	cr_assert_null(__do_kmalloc(2 * NR_PFNS * PAGE_SIZE, GFP_KERNEL, 0x2));
	unregister_trace_kmalloc(probe_kmalloc, NULL);
	unregister_trace_mm_page_alloc(probe_page_alloc, NULL);
	__do_kfree(big, 0x3);

	cr_assert_eq(nr_hits, 3);
	cr_assert_eq(hits[0].what, 'a', "the pages are taken before kmalloc reports");
	cr_assert_eq(hits[0].order, 2);
	cr_assert_eq(hits[0].site_or_pfn, page_to_pfn(virt_to_page(big)));
	cr_assert_eq(hits[1].what, 'k');
	cr_assert_eq(hits[1].alloc, 4 * PAGE_SIZE);
	cr_assert_eq(hits[2].what, 'k', "a failed kmalloc is reported");
	cr_assert_null(hits[2].ptr);
	cr_assert_eq(hits[2].alloc, 0);
}

Test(trace_core_kmem, page_events)
{
	struct page *page;
	unsigned long pfn;

	cr_assert_eq(register_trace_mm_page_alloc(probe_page_alloc, NULL), 0);
	cr_assert_eq(register_trace_mm_page_free(probe_page_free, NULL), 0);
	page = alloc_pages(__GFP_ZERO, 3);
	cr_assert_not_null(page);
	pfn = page_to_pfn(page);
	cr_assert_null(alloc_pages(GFP_KERNEL, 11), "beyond MAX_ORDER: refused, not traced");
	cr_assert_null(alloc_pages(GFP_KERNEL, 10), "no order-10 block left: traced as a failure");
	__free_pages(page, 3);
	unregister_trace_mm_page_alloc(probe_page_alloc, NULL);
	unregister_trace_mm_page_free(probe_page_free, NULL);

	cr_assert_eq(nr_hits, 3);
	cr_assert_eq(hits[0].what, 'a');
	cr_assert_eq(hits[0].site_or_pfn, pfn);
	cr_assert_eq(hits[0].order, 3);
	cr_assert_eq(hits[0].gfp, 0xcc0 | 0x100, "Linux's GFP_KERNEL|__GFP_ZERO");
	cr_assert_eq(hits[1].what, 'a');
	cr_assert_eq(hits[1].site_or_pfn, -1UL, "pfn -1 marks the failure");
	cr_assert_eq(hits[2].what, 'p');
	cr_assert_eq(hits[2].site_or_pfn, pfn);
	cr_assert_eq(hits[2].order, 3);
}

/* A probe that allocates, once in its own context and once from a simulated hardirq. */
static void *nested[2];

static void probe_allocating(void *data, unsigned long call_site, const void *ptr, size_t bytes_req,
			     size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	if (call_site != 0xaaaa)
		return;
	nested[0] = __do_kmalloc(64, GFP_KERNEL, 0xbbbb);
	preempt_count_add(HARDIRQ_OFFSET);
	nested[1] = __do_kmalloc(32, GFP_ATOMIC, 0xcccc);
	preempt_count_sub(HARDIRQ_OFFSET);
}

Test(trace_core_kmem, allocating_probe_is_dropped_in_its_own_context_only)
{
	unsigned long refused = tracepoint_recursion_refused();
	void *p;

	cr_assert_eq(register_trace_kmalloc(probe_kmalloc, NULL), 0);
	cr_assert_eq(register_trace_kmalloc(probe_allocating, NULL), 0);
	p = __do_kmalloc(16, GFP_KERNEL, 0xaaaa);
	unregister_trace_kmalloc(probe_allocating, NULL);
	unregister_trace_kmalloc(probe_kmalloc, NULL);

	cr_assert_not_null(nested[0], "the probe's own allocation still succeeds");
	cr_assert_not_null(nested[1]);
	cr_assert_eq(tracepoint_recursion_refused() - refused, 1,
		     "the task-context nested hit is dropped and counted once");
	cr_assert_eq(nr_hits, 2, "the outer hit and the hardirq one are delivered");
	cr_assert_eq(hits[0].site_or_pfn, 0xaaaa);
	cr_assert_eq(hits[0].level, 0);
	cr_assert_eq(hits[1].site_or_pfn, 0xcccc);
	cr_assert_eq(hits[1].level, 2, "delivered in hardirq context");
	__do_kfree(nested[0], 0);
	__do_kfree(nested[1], 0);
	__do_kfree(p, 0);
}

/* A page probe that allocates pages: would deadlock if traced under the zone lock. */
static void *probe_pages;

static void probe_page_allocating(void *data, unsigned long pfn, unsigned int order, gfp_t gfp,
				  int migratetype)
{
	if (order != 0)
		return;		/* the probe's own order-2 block */
	preempt_count_add(HARDIRQ_OFFSET);	/* a nested context, so the inner hit is traced */
	probe_pages = __do_kmalloc(3 * PAGE_SIZE, GFP_ATOMIC, 0xdddd);
	preempt_count_sub(HARDIRQ_OFFSET);
}

static void probe_page_freeing(void *data, unsigned long pfn, unsigned int order)
{
	if (order != 0)
		return;
	preempt_count_add(HARDIRQ_OFFSET);
	__do_kfree(probe_pages, 0xeeee);
	preempt_count_sub(HARDIRQ_OFFSET);
	probe_pages = NULL;
}

Test(trace_core_kmem, page_probes_run_outside_the_zone_lock)
{
	struct page *page;

	cr_assert_eq(register_trace_mm_page_alloc(probe_page_allocating, NULL), 0);
	cr_assert_eq(register_trace_mm_page_alloc(probe_page_alloc, NULL), 0);
	page = alloc_pages(GFP_KERNEL, 0);
	cr_assert_not_null(probe_pages);
	cr_assert_eq(register_trace_mm_page_free(probe_page_freeing, NULL), 0);
	__free_pages(page, 0);
	unregister_trace_mm_page_free(probe_page_freeing, NULL);
	unregister_trace_mm_page_alloc(probe_page_alloc, NULL);
	unregister_trace_mm_page_alloc(probe_page_allocating, NULL);

	cr_assert_null(probe_pages);
	cr_assert_eq(nr_free_pages(), NR_PFNS, "every page came back");
	cr_assert_eq(nr_hits, 2, "the outer page and the probe's own (hardirq) allocation");
	cr_assert_eq(hits[0].level, 2);
	cr_assert_eq(hits[0].order, 2);
	cr_assert_eq(hits[1].level, 0);
	cr_assert_eq(hits[1].order, 0);
}
