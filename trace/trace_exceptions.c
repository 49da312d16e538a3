/* The exceptions events (trace/events/exceptions.tev), fired by arch/x86_64/fault.c. */
#include <kernel/types.h>
#include <asm/ptrace.h>

#define CREATE_TRACE_POINTS
#include <trace/events/exceptions.h>
