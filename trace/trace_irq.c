/* The irq events (trace/events/irq.tev): interrupt entry/exit and softirqs call them. */
#include <kernel/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/irq.h>
