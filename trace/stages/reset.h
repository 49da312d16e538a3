/*
 * Forget every stage macro, so the next stage defines only what it
 * means. Included first by each stage (no include guard).
 */
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef __field
#undef __array
#undef __string
#undef __dynamic_array
#undef __flex_array
#undef __assign_str
#undef __get_str
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __print_flags
#undef __print_symbolic
#undef __entry
