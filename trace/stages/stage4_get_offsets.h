/*
 * Stage 4: trace_event_get_offsets_<class>(): from the tracepoint's
 * arguments, the bytes of dynamic data a record needs and where each
 * dynamic field's data goes (right after the fixed part, in order).
 * A NULL string source is recorded as "(null)", as Linux does.
 */
#include <trace/stages/reset.h>

#define __trace_dyn_item(item, length)					\
	__item_length = (length);					\
	__data_offsets->item = (u32)(__data_offset + __data_size) |	\
			       (u32)(__item_length << 16);		\
	__data_size += __item_length;

#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src)						\
	__data_offsets->item##_ptr_ = (src) ? (const char *)(src) : "(null)"; \
	__trace_dyn_item(item, strlen(__data_offsets->item##_ptr_) + 1)
#define __dynamic_array(type, item, len)				\
	__trace_dyn_item(item, sizeof(type) * (size_t)(len))
#define __flex_array(type, item, len)					\
	__data_size += sizeof(type) * (size_t)(len);
#define TP_STRUCT__entry(args...) args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static inline size_t trace_event_get_offsets_##call(		\
		struct trace_event_data_offsets_##call *__data_offsets, proto) \
	{								\
		size_t __data_size = 0, __item_length __unused;		\
		size_t __data_offset __unused =				\
			sizeof(struct trace_event_raw_##call);		\
		(void)__data_offsets;					\
		tstruct							\
		return __data_size;					\
	}
#define DEFINE_EVENT(template, name, proto, args)

#include TRACE_INCLUDE_FILE

#undef __trace_dyn_item
