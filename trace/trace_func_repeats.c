/*
 * func-no-repeats' accounting: see trace/trace_func_repeats.h. Pure.
 */
#include <kernel/types.h>
#include <trace/trace_func_repeats.h>

void func_repeats_start(struct func_repeats *last, unsigned long ip, unsigned long parent_ip)
{
	last->ip = ip;
	last->parent_ip = parent_ip;
	last->count = 0;
}

void func_repeats_fill(struct func_repeats_entry *e, const struct func_repeats *run, u64 now)
{
	u64 delta = now - run->ts_last_call;

	e->ip = run->ip;
	e->parent_ip = run->parent_ip;
	e->count = (u16)run->count;
	e->top_delta_ts = (u16)(delta >> 32);
	e->bottom_delta_ts = (u32)delta;
}
