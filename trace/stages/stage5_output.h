/*
 * Stage 5: trace_raw_output_<class>(), TP_printk() on a record: REC (and
 * __entry) is the record, p the scratch that __print_flags() and
 * __print_symbolic() render into. trace/trace_output.c checks a
 * record's __data_loc words against its length before calling this.
 */
#include <trace/stages/reset.h>

#define __entry REC
#define __get_dynamic_array(field)					\
	((const void *)((const char *)REC + (REC->__data_loc_##field & 0xffff)))
#define __get_dynamic_array_len(field)	(REC->__data_loc_##field >> 16)
#define __get_str(field)		((const char *)__get_dynamic_array(field))
#define __print_flags(flag, delim, flag_array...)			\
	({								\
		static const struct trace_print_flags __flags[] =	\
			{ flag_array, { 0, NULL } };			\
		trace_print_flags_seq(p, delim, flag, __flags);		\
	})
#define __print_symbolic(value, symbol_array...)			\
	({								\
		static const struct trace_print_flags __symbols[] =	\
			{ symbol_array, { 0, NULL } };			\
		trace_print_symbols_seq(p, value, __symbols);		\
	})
#define TP_printk(fmt, args...) fmt, ##args

#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	static int trace_raw_output_##call(struct trace_seq *s,		\
					   struct trace_seq *p,		\
					   const struct trace_entry *ent) \
	{								\
		const struct trace_event_raw_##call *REC = (const void *)ent; \
		(void)REC;						\
		trace_seq_init(p);					\
		return trace_seq_printf(s, print);			\
	}
#define DEFINE_EVENT(template, name, proto, args)

/*
 * Print arguments are Linux's text, written where u64 is unsigned long
 * long (ftrace:func_repeats casts to it for a %llu): so it is here, while
 * they expand.
 */
#define u64 unsigned long long
#include TRACE_INCLUDE_FILE
#undef u64
