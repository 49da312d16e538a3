/* The kmem events (trace/events/kmem.tev); the slab allocator and the page allocator call them. */
#include <kernel/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/kmem.h>
