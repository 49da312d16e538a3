/*
 * The event macros for an event header read normally: they only declare
 * each event's tracepoint and `trace_<name>()`. No include guard:
 * trace/define_trace.h includes it again after its stages, so the next
 * event header in the same file starts from the declaring meaning.
 * While define_trace.h re-reads a header (TRACE_HEADER_MULTI_READ), the
 * header's own #include <trace/tracepoint.h> must not undo the stage.
 */
#ifndef TRACE_HEADER_MULTI_READ
#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#endif
