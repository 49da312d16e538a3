/*
 * Stage 7: the event descriptors. A class gives its print fmt text:
 * TP_printk's format and its arguments stringified as written (REC->x),
 * which is the format file's "print fmt:" line. Each event gets a
 * struct trace_event_call and a pointer to it in section _ftrace_events,
 * where the registry finds it at boot; a compile-time check that the
 * class probe takes exactly the tracepoint's arguments.
 */
#include <trace/stages/reset.h>

#define __trace_stringify_1(x...) #x
#define __trace_stringify(x...) __trace_stringify_1(x)
#define TP_printk(fmt, args...) "\"" fmt "\", " #args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static const char print_fmt_##call[] = print;
#define DEFINE_EVENT(_template, _name, proto, args)			\
	static inline void __check_probe_##_name(void)			\
	{								\
		void (*probe)(void *, proto) = trace_event_raw_event_##_template; \
		(void)probe;						\
	}								\
	struct trace_event_call event_##_name = {			\
		.system = __trace_stringify(TRACE_SYSTEM),		\
		.name = #_name,						\
		.size = sizeof(struct trace_event_raw_##_template),	\
		.fields = trace_event_fields_##_template,		\
		.print_fmt = print_fmt_##_template,			\
		.output = trace_raw_output_##_template,			\
		.tp = &__tracepoint_##_name,				\
		.probe = (void *)trace_event_raw_event_##_template,	\
		TRACE_PERF_INIT(_template)				\
	};								\
	static struct trace_event_call *const __event_##_name		\
		__used __section("_ftrace_events") __aligned(8) = &event_##_name;

#include TRACE_INCLUDE_FILE

#undef __trace_stringify
#undef __trace_stringify_1
