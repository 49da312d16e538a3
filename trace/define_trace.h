/*
 * The TRACE_EVENT() multi-include technique. Every event header ends by
 * including this file, outside its include guard. Normally it does
 * nothing: the header only declared trace_<name>(). In the one C file
 * that defines CREATE_TRACE_POINTS before including an event header,
 * this re-reads that header (TRACE_INCLUDE_FILE, which the header
 * defines) once per stage in trace/stages/, each stage giving the same
 * TRACE_EVENT() text a different meaning:
 *
 *   stage 0  the tracepoint objects (DEFINE_TRACE)
 *   stage 1  struct trace_event_raw_<class>: the record
 *   stage 2  struct trace_event_data_offsets_<class>: where dynamic data goes
 *   stage 3  the field table (struct trace_event_field[])
 *   stage 4  the size of the dynamic data of one record
 *   stage 5  the text output (TP_printk)
 *   stage 6  the probe: reserve, fill (TP_fast_assign), commit
 *   stage 7  struct trace_event_call per event, listed in _ftrace_events
 *   stage 8  the perf probe (built before stage 7, which points at it)
 *
 * TRACE_EVENT(name, ...) is DECLARE_EVENT_CLASS(name, ...) plus
 * DEFINE_EVENT(name, name, ...), so stages only handle those two.
 */
#ifdef CREATE_TRACE_POINTS
#undef CREATE_TRACE_POINTS

#include <kernel/types.h>
#include <kernel/string.h>
#include <trace/tracepoint.h>
#include <trace/trace_event.h>
#include <trace/trace_output.h>
#include <trace/trace_event_buffer.h>

#ifndef TRACE_INCLUDE_FILE
#error "an event header must define TRACE_INCLUDE_FILE before including define_trace.h"
#endif

#define TRACE_HEADER_MULTI_READ

/* Stage 0: one tracepoint per event. Classes have none. */
#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args));
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args));
#include TRACE_INCLUDE_FILE

#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)) \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

#include <trace/stages/stage1_record.h>
#include <trace/stages/stage2_data_offsets.h>
#include <trace/stages/stage3_fields.h>
#include <trace/stages/stage4_get_offsets.h>
#include <trace/stages/stage5_output.h>
#include <trace/stages/stage6_probe.h>
#include <trace/stages/stage8_perf.h>
#include <trace/stages/stage7_call.h>
#include <trace/stages/reset.h>

#undef TRACE_HEADER_MULTI_READ
#undef TRACE_INCLUDE_FILE
#include <trace/stages/declare.h>

/* The next event header in this file is created too. */
#define CREATE_TRACE_POINTS
#elif !defined(TRACE_HEADER_MULTI_READ)
/* Read normally (not a stage's re-read): the next event header defines its own. */
#undef TRACE_INCLUDE_FILE
#endif
