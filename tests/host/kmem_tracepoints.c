/*
 * Host side of the kmem tracepoints. In the kernel trace/trace_kmem.c
 * defines them together with their events (records, format files, ring
 * buffer probes); host tests of the allocators get the bare tracepoints,
 * which the allocators call and tests may attach probes to, without the
 * event machinery. Name it in a test's uses: line with trace/tracepoint.c
 * kernel/jump_label.c kernel/rcu.c.
 */
#include <trace/events/kmem.h>

DEFINE_TRACE(kmalloc, PARAMS(unsigned long call_site, const void *ptr, size_t bytes_req,
			     size_t bytes_alloc, gfp_t gfp_flags, int node),
	     PARAMS(call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node));
DEFINE_TRACE(kfree, PARAMS(unsigned long call_site, const void *ptr), PARAMS(call_site, ptr));
DEFINE_TRACE(kmem_cache_alloc, PARAMS(unsigned long call_site, const void *ptr, size_t bytes_req,
				      size_t bytes_alloc, gfp_t gfp_flags, int node, bool accounted),
	     PARAMS(call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node, accounted));
DEFINE_TRACE(kmem_cache_free, PARAMS(unsigned long call_site, const void *ptr, const char *name),
	     PARAMS(call_site, ptr, name));
DEFINE_TRACE(mm_page_alloc, PARAMS(unsigned long pfn, unsigned int order, gfp_t gfp_flags,
				   int migratetype),
	     PARAMS(pfn, order, gfp_flags, migratetype));
DEFINE_TRACE(mm_page_free, PARAMS(unsigned long pfn, unsigned int order), PARAMS(pfn, order));
