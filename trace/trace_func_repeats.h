/*
 * func-no-repeats, the function tracer's option (trace/trace_functions.c):
 * a call of the same function from the same call site as the last call on
 * the CPU is counted instead of written. The first call of a run is
 * written as usual; when a different call comes, one ftrace:func_repeats
 * record (before that call's record) tells how many repeats followed and
 * when the last one was. The accounting, per CPU, is here
 * (trace/trace_func_repeats.c). Pure.
 */
#ifndef TRACE_TRACE_FUNC_REPEATS_H
#define TRACE_TRACE_FUNC_REPEATS_H

#include <kernel/types.h>
#include <trace/trace.h>

/* ftrace:func_repeats' record (trace/events/ftrace.tev). */
struct func_repeats_entry {
	struct trace_entry ent;
	unsigned long ip;
	unsigned long parent_ip;
	u16 count;		/* repeats after the call's own record */
	u16 top_delta_ts;	/* bits 47..32 of the time from the last repeat to this record */
	u32 bottom_delta_ts;	/* bits 31..0 */
};

/* Most repeats one record counts (its count is 16 bits); the next starts a new run. */
#define FUNC_REPEATS_MAX	0xffffu

/* One CPU's last call and the repeats of it since its record. */
struct func_repeats {
	unsigned long ip;
	unsigned long parent_ip;
	u64 ts_last_call;	/* buffer clock at the last repeat */
	unsigned int count;	/* repeats not yet written, at most FUNC_REPEATS_MAX */
};

/* Whether a call of ip from parent_ip repeats the last call and its run can count it. */
static inline bool func_repeats_match(const struct func_repeats *last, unsigned long ip,
				      unsigned long parent_ip)
{
	return last->ip == ip && last->parent_ip == parent_ip && last->count < FUNC_REPEATS_MAX;
}

/* Count a repeat made at now (after func_repeats_match said it is one). */
static inline void func_repeats_count(struct func_repeats *last, u64 now)
{
	last->ts_last_call = now;
	last->count++;
}

/*
 * A call that is no repeat starts a run of its own; the run it ends, if
 * it had repeats (last->count), gets its func_repeats record first.
 */
void func_repeats_start(struct func_repeats *last, unsigned long ip, unsigned long parent_ip);
/* The record's fields for run, written at now (its time; the delta keeps 48 bits). */
void func_repeats_fill(struct func_repeats_entry *e, const struct func_repeats *run, u64 now);
/* How long before its record the last repeat came. */
static inline u64 func_repeats_delta(const struct func_repeats_entry *e)
{
	return (u64)e->top_delta_ts << 32 | e->bottom_delta_ts;
}

#endif
