/* The signal events (trace/events/signal.tev): every signal sent. */
#include <kernel/types.h>
#include <kernel/sched.h>

#define CREATE_TRACE_POINTS
#include <trace/events/signal.h>
