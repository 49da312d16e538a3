/*
 * The nmi event (trace/events/nmi.tev); do_nmi calls it around each NMI
 * handler. Its print format is Linux's, "%lld" for an s64 field: Linux's
 * s64 is long long, Spoor's long, the same 64 bits on x86_64, so the
 * format checker's complaint about the type name is silenced here only.
 */
#include <kernel/types.h>

#pragma GCC diagnostic ignored "-Wformat"
#define CREATE_TRACE_POINTS
#include <trace/events/nmi.h>
