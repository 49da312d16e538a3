/*
 * The raw_syscalls events (trace/events/raw_syscalls.tev). They exist
 * (format, enable) for tools that look for them; the ring-3 system call
 * entry calls them once it exists.
 */
#include <kernel/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/raw_syscalls.h>
