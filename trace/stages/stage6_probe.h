/*
 * Stage 6: trace_event_raw_event_<class>(), the probe attached to the
 * tracepoint. Its data is the struct trace_event_file of one instance.
 * It sizes the record, reserves it in the instance's ring buffer (which
 * fills the common fields), sets the __data_loc words, runs
 * TP_fast_assign with __entry pointing at the record, and commits it
 * (trace/trace_event_buffer.h: a filtered record only if it passes).
 */
#include <trace/stages/reset.h>

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
/* __assign_str(dst): copy the source __string(dst, src) named. */
#define __assign_str(dst, ...)	strcpy(__get_str(dst), __data_offsets.dst##_ptr_)
#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static void trace_event_raw_event_##call(void *__data, proto)	\
	{								\
		struct trace_event_file *trace_file = __data;		\
		struct trace_event_data_offsets_##call __data_offsets;	\
		struct trace_event_raw_##call *entry;			\
		struct trace_event_buffer fbuffer;			\
		size_t __data_size;					\
									\
		if (trace_event_file_dropped(trace_file))		\
			return;						\
		__data_size = trace_event_get_offsets_##call(&__data_offsets, args); \
		entry = trace_event_buffer_reserve(&fbuffer, trace_file, \
						   sizeof(*entry) + __data_size); \
		if (!entry)						\
			return;						\
		tstruct							\
		{ assign; }						\
		trace_event_buffer_commit(&fbuffer);			\
	}
#define DEFINE_EVENT(template, name, proto, args)

#include TRACE_INCLUDE_FILE
