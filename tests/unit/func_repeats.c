/*
 * func-no-repeats' accounting (trace/trace_func_repeats.c), driven the way
 * the function tracer's callback drives it: a call that repeats the last
 * one is counted, any other ends the run (a func_repeats record when it
 * had repeats) and starts its own; a run counts at most 65,535 repeats;
 * the record's delta keeps 48 bits, split as Linux's record splits them.
 */
/* uses: trace/trace_func_repeats.c */
#include <criterion/criterion.h>
#include <string.h>
#include <kernel/types.h>
#include <trace/trace_func_repeats.h>

/* What the tracer wrote: 'F' a function record, 'R' a func_repeats record. */
struct written {
	char kind;
	struct func_repeats_entry e;
};

static struct func_repeats last;
static struct written out[16];
static unsigned int nout;

static void setup(void)
{
	memset(&last, 0, sizeof(last));
	nout = 0;
}

TestSuite(func_repeats, .init = setup);

/* One traced call at time now, as function_repeats() and function_trace_call() handle it. */
static void call(unsigned long ip, unsigned long parent_ip, u64 now)
{
	if (func_repeats_match(&last, ip, parent_ip)) {
		func_repeats_count(&last, now);
		return;
	}
	if (last.count) {
		out[nout].kind = 'R';
		func_repeats_fill(&out[nout++].e, &last, now);
	}
	func_repeats_start(&last, ip, parent_ip);
	out[nout].kind = 'F';
	out[nout].e.ip = ip;
	out[nout++].e.parent_ip = parent_ip;
}

/* The kinds written so far, in order. */
static const char *kinds(void)
{
	static char k[sizeof(out) / sizeof(out[0]) + 1];

	for (unsigned int i = 0; i < nout; i++)
		k[i] = out[i].kind;
	k[nout] = '\0';
	return k;
}

Test(func_repeats, the_record_layout_is_linuxs)
{
	/* events/ftrace/func_repeats/format: ip 8, parent_ip 16, count 24 (2), top 26 (2), bottom 28 (4) */
	cr_expect_eq(offsetof(struct func_repeats_entry, ip), 8);
	cr_expect_eq(offsetof(struct func_repeats_entry, parent_ip), 16);
	cr_expect_eq(offsetof(struct func_repeats_entry, count), 24);
	cr_expect_eq(offsetof(struct func_repeats_entry, top_delta_ts), 26);
	cr_expect_eq(offsetof(struct func_repeats_entry, bottom_delta_ts), 28);
	cr_expect_eq(sizeof(struct func_repeats_entry), 32);
}

Test(func_repeats, a_run_is_one_record_and_a_count)
{
	call(0x100, 0x900, 1000);
	call(0x100, 0x900, 1100);
	call(0x100, 0x900, 1250);
	cr_expect_eq(nout, 1, "the repeats are only counted until the run ends");
	call(0x200, 0x900, 1400);
	cr_assert_eq(nout, 3);
	cr_expect_eq(out[0].kind, 'F');
	cr_expect_eq(out[1].kind, 'R');
	cr_expect_eq(out[1].e.ip, 0x100);
	cr_expect_eq(out[1].e.parent_ip, 0x900);
	cr_expect_eq(out[1].e.count, 2);
	cr_expect_eq(func_repeats_delta(&out[1].e), 150, "from the last repeat to the record");
	cr_expect_eq(out[2].kind, 'F');
	cr_expect_eq(out[2].e.ip, 0x200);
}

Test(func_repeats, another_call_site_is_no_repeat)
{
	call(0x100, 0x900, 1);
	call(0x100, 0x904, 2);	/* same function, called from elsewhere */
	call(0x104, 0x904, 3);	/* another function, same caller */
	call(0x100, 0x900, 4);
	cr_expect_str_eq(kinds(), "FFFF");
}

Test(func_repeats, a_run_without_repeats_writes_no_count)
{
	call(0x100, 0x900, 1);
	call(0x200, 0x900, 2);
	call(0x100, 0x900, 3);
	call(0x100, 0x900, 4);
	call(0x200, 0x900, 5);
	cr_assert_eq(nout, 5);
	cr_expect_str_eq(kinds(), "FFFRF");
	cr_expect_eq(out[3].e.count, 1);
}

Test(func_repeats, a_full_count_starts_a_new_run)
{
	call(0x100, 0x900, 0);
	for (unsigned int i = 1; i <= FUNC_REPEATS_MAX; i++)
		call(0x100, 0x900, i);
	cr_expect_eq(nout, 1);
	/* the 65,536th repeat does not fit: it ends the run and is written itself */
	call(0x100, 0x900, 70000);
	cr_assert_eq(nout, 3);
	cr_expect_eq(out[1].kind, 'R');
	cr_expect_eq(out[1].e.count, FUNC_REPEATS_MAX);
	cr_expect_eq(func_repeats_delta(&out[1].e), 70000 - FUNC_REPEATS_MAX);
	cr_expect_eq(out[2].kind, 'F');
	call(0x100, 0x900, 70001);
	call(0x200, 0x900, 70002);
	cr_assert_eq(nout, 5);
	cr_expect_eq(out[3].e.count, 1, "and counting starts again");
}

Test(func_repeats, the_delta_keeps_48_bits)
{
	u64 gap = 0x123456789abcull;

	call(0x100, 0x900, 10);
	call(0x100, 0x900, 20);
	call(0x200, 0x900, 20 + gap);
	cr_assert_eq(nout, 3);
	cr_expect_eq(out[1].e.top_delta_ts, 0x1234);
	cr_expect_eq(out[1].e.bottom_delta_ts, 0x56789abc);
	cr_expect_eq(func_repeats_delta(&out[1].e), gap);
	/* beyond 48 bits the top is cut, as Linux's u16 field cuts it */
	setup();
	call(0x100, 0x900, 0);
	call(0x100, 0x900, 0);
	call(0x200, 0x900, 0x1000000000005ull);
	cr_expect_eq(func_repeats_delta(&out[1].e), 5);
}
