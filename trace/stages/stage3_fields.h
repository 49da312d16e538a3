/*
 * Stage 3: the field table, in record order. Offsets are left 0 and the
 * registry lays the table out from sizes and alignments, as the C
 * compiler laid out stage 1's struct. Types print as format files show
 * them: arrays as "char[16]", dynamic ones as "__data_loc char[]".
 * char counts as unsigned (Linux builds with -funsigned-char).
 */
#include <trace/stages/reset.h>

#define __trace_is_signed(type)						\
	_Generic((type)0, char: 0, default: ((type)-1 < (type)1))
#define __trace_is_char(type) __builtin_types_compatible_p(type, char)

/* Parameters are _-prefixed: a parameter called type would rewrite .type. */
#define __field(_type, _item)						\
	{ .type = #_type, .name = #_item, .size = sizeof(_type),	\
	  .align = __alignof__(_type), .is_signed = __trace_is_signed(_type), \
	  .filter_type = FILTER_OTHER },
#define __array(_type, _item, _len)					\
	{ .type = #_type "[" #_len "]", .name = #_item,			\
	  .size = sizeof(_type) * (_len), .align = __alignof__(_type),	\
	  .is_signed = __trace_is_signed(_type),			\
	  .filter_type = __trace_is_char(_type) ? FILTER_STATIC_STRING : FILTER_OTHER },
#define __string(_item, _src)						\
	{ .type = "__data_loc char[]", .name = #_item, .size = 4,	\
	  .align = 4, .filter_type = FILTER_DYN_STRING },
#define __dynamic_array(_type, _item, _len)				\
	{ .type = "__data_loc " #_type "[]", .name = #_item, .size = 4,	\
	  .align = 4, .is_signed = __trace_is_signed(_type),		\
	  .filter_type = __trace_is_char(_type) ? FILTER_DYN_STRING : FILTER_OTHER },
#define __flex_array(_type, _item, _len)				\
	{ .type = #_type "[]", .name = #_item, .size = 0,		\
	  .align = __alignof__(_type), .is_signed = __trace_is_signed(_type), \
	  .filter_type = __trace_is_char(_type) ? FILTER_STATIC_STRING : FILTER_OTHER },
#define TP_STRUCT__entry(args...) args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static struct trace_event_field trace_event_fields_##call[] = {	\
		tstruct							\
		{ 0 }							\
	};
#define DEFINE_EVENT(template, name, proto, args)

#include TRACE_INCLUDE_FILE

#undef __trace_is_signed
#undef __trace_is_char
