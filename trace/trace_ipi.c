/* The ipi events (trace/events/ipi.tev): every IPI sent to one CPU. */
#include <kernel/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/ipi.h>
