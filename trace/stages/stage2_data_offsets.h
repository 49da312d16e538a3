/*
 * Stage 2: struct trace_event_data_offsets_<class>, the probe's scratch
 * for dynamic fields: each one's __data_loc word, and for a __string
 * the source pointer that __assign_str() copies from.
 */
#include <trace/stages/reset.h>

#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src)			u32 item; const char *item##_ptr_;
#define __dynamic_array(type, item, len)	u32 item;
#define __flex_array(type, item, len)
#define TP_STRUCT__entry(args...) args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct trace_event_data_offsets_##call {			\
		tstruct							\
	};
#define DEFINE_EVENT(template, name, proto, args)

#include TRACE_INCLUDE_FILE
