/*
 * Stage 1: the record as it sits in the ring buffer,
 * struct trace_event_raw_<class>: the common fields, then the event's.
 * A __string or __dynamic_array is a u32 __data_loc_<name> (length << 16
 * | offset from the record start) pointing past the fixed part; a
 * __flex_array is a trailing C flexible array (ftrace:print's buf[]).
 */
#include <trace/stages/reset.h>

#define __field(type, item)			type item;
#define __array(type, item, len)		type item[len];
#define __string(item, src)			u32 __data_loc_##item;
#define __dynamic_array(type, item, len)	u32 __data_loc_##item;
#define __flex_array(type, item, len)		type item[];
#define TP_STRUCT__entry(args...) args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct trace_event_raw_##call {					\
		struct trace_entry ent;					\
		tstruct							\
	};
#define DEFINE_EVENT(template, name, proto, args)

#include TRACE_INCLUDE_FILE
