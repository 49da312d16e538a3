/*
 * Stage 8: perf_trace_<class>(), the probe perf attaches to the
 * tracepoint when a perf event is opened on the event (trace/perf_tp.c).
 * Its data is the struct trace_event_call. It builds the same record as
 * stage 6, but in this CPU's scratch buffer for the current context
 * (perf_trace_buf_alloc), and hands it to every perf event on the event
 * (perf_trace_buf_submit). __perf_count(c) in TP_ARGS makes c the count
 * a hit adds instead of 1: it is redefined here to capture the value
 * while the args are evaluated for the record's size.
 *
 * Kernel only (Linux's CONFIG_PERF_EVENTS): host builds of event headers
 * get no perf probe, and TRACE_PERF_INIT leaves .perf_probe NULL.
 */
#include <trace/stages/reset.h>

#undef TRACE_PERF_INIT
#ifdef SPOOR_HOST
#define TRACE_PERF_INIT(template)
#else
#define TRACE_PERF_INIT(template)	.perf_probe = (void *)perf_trace_##template,
#include <trace/perf_trace.h>

#undef __perf_count
#define __perf_count(c)	(__count = (c))

#define __entry entry
#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src)	entry->__data_loc_##item = __data_offsets.item;
#define __dynamic_array(type, item, len) entry->__data_loc_##item = __data_offsets.item;
#define __flex_array(type, item, len)
#define __get_dynamic_array(field)					\
	((void *)((char *)entry + (entry->__data_loc_##field & 0xffff)))
#define __get_dynamic_array_len(field)	(entry->__data_loc_##field >> 16)
#define __get_str(field)		((char *)__get_dynamic_array(field))
#define __assign_str(dst, ...)	strcpy(__get_str(dst), __data_offsets.dst##_ptr_)
#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static void perf_trace_##call(void *__data, proto)		\
	{								\
		struct trace_event_call *event_call = __data;		\
		struct trace_event_data_offsets_##call __data_offsets;	\
		struct trace_event_raw_##call *entry;			\
		struct pt_regs __regs;					\
		u64 __count = 1;					\
		u32 __entry_size;					\
		int rctx;						\
									\
		__entry_size = sizeof(*entry) +				\
			(u32)trace_event_get_offsets_##call(&__data_offsets, args); \
		entry = perf_trace_buf_alloc(__entry_size, &rctx);	\
		if (!entry)						\
			return;						\
		tracing_generic_entry_update(&entry->ent, event_call->id, tracing_gen_ctx()); \
		tstruct							\
		{ assign; }						\
		perf_fetch_caller_regs(&__regs);			\
		perf_trace_buf_submit(event_call, entry, __entry_size, rctx, 0, \
				      __count, NULL, &__regs);		\
	}
#define DEFINE_EVENT(template, name, proto, args)

#include TRACE_INCLUDE_FILE

#undef __perf_count
#define __perf_count(c) (c)
#endif
