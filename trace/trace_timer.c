/* The timer events (trace/events/timer.tev): the tick's hrtimer_expire_entry. */
#include <kernel/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/timer.h>
