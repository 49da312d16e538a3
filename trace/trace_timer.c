/* The timer events (trace/events/timer.tev): hrtimer_expire_entry. */
#include <kernel/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/timer.h>
