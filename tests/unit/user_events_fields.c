/*
 * user_events' field grammar (trace/user_events_fields.c): what Linux
 * 6.12 accepts and rejects, the packed layout, the format file's types
 * and print fmt, re-registration matching, the __data_loc/__rel_loc
 * checks of a written record, and the field-by-field `trace` text.
 */
/* uses: trace/user_events_fields.c trace/trace_output.c trace/trace_events.c trace/trace_filter.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <string.h>
#include <kernel/types.h>
#include <kernel/errno.h>
#include <trace/trace_output.h>
#include <trace/user_events_fields.h>

static int parse(const char *args)
{
	struct user_event_fields f;
	int ret = user_event_fields_parse(args, &f);

	if (!ret)
		user_event_fields_free(&f);
	return ret;
}

Test(user_events_fields, accepts_linux_types)
{
	static const char *const ok[] = {
		"u64 a", "u32 a", "u16 a", "u8 a", "s64 a", "s32 a", "s16 a", "s8 a", "char a",
		"unsigned char a", "int a", "unsigned int a", "short a", "unsigned short a",
		"char[20] a", "unsigned char[20] a", "char[0x14] a", "unsigned char[0x14] a",
		"__data_loc char[] a", "__data_loc unsigned char[] a", "__rel_loc char[] a",
		"__rel_loc unsigned char[] a", "struct custom a 20", "u32 a; u32 b", "u32 a;u32 b;",
		"char[1024] a", NULL,
	};

	for (int i = 0; ok[i]; i++)
		cr_expect_eq(parse(ok[i]), 0, "%s", ok[i]);
	cr_expect_eq(parse(NULL), 0);
}

Test(user_events_fields, rejects_what_linux_rejects)
{
	static const char *const bad[] = {
		"char[aa] a", "char[9999] a", "char[1025] a", "char[0x0000000000001] a",
		"struct custom a", "char a 20", "long a", "unsigned long a", "u32", "u32 a b",
		"u32  a", "u32 a ", "struct custom a x", "char[0] a", "float a", NULL,
	};

	for (int i = 0; bad[i]; i++)
		cr_expect_eq(parse(bad[i]), -EINVAL, "%s", bad[i]);
}

Test(user_events_fields, layout_format_and_print_fmt)
{
	struct user_event_fields f;

	cr_assert_eq(user_event_fields_parse("u32 a; s8 b; char c; u16 d; u64 e; char[4] s; "
					     "__data_loc char[] dl; __rel_loc char[] rl; "
					     "struct foo st 3", &f), 0);
	cr_assert_eq(f.count, 9);
	/* packed after the 8 bytes of common fields, as Linux lays them out */
	static const u32 offs[] = { 8, 12, 13, 14, 16, 24, 28, 32, 36 };
	for (unsigned int i = 0; i < f.count; i++)
		cr_expect_eq(f.field[i].offset, offs[i], "field %u", i);
	cr_expect_eq(f.size, 39);
	cr_expect_str_eq(f.event_fields[5].type, "char[]");	/* format: char s[] */
	cr_expect_eq(f.event_fields[5].size, 4);
	cr_expect_eq(f.event_fields[0].is_signed, 0);
	cr_expect_eq(f.event_fields[6].is_signed, 1);	/* Linux: not starting with 'u' */
	cr_expect_str_eq(f.print_fmt,
			 "\"a=%u b=%d c=%d d=%u e=%llu s=%s dl=%s rl=%s st=%llu\", REC->a, REC->b, "
			 "REC->c, REC->d, REC->e, REC->s, __get_str(dl), __get_rel_str(rl), REC->st");
	cr_expect_str_eq(f.text, "u32 a; s8 b; char c; u16 d; u64 e; char[4] s; "
				 "__data_loc char[] dl; __rel_loc char[] rl; struct foo st 3");
	user_event_fields_free(&f);
}

Test(user_events_fields, matching)
{
	struct user_event_fields f;

	cr_assert_eq(user_event_fields_parse("u32 a; u32 b", &f), 0);
	cr_expect(user_event_fields_match(&f, "u32 a; u32 b"));
	cr_expect(user_event_fields_match(&f, "u32 a;u32 b;"));
	cr_expect(user_event_fields_match(&f, " u32  a ;  u32 b"));
	cr_expect(!user_event_fields_match(&f, "u32 b; u32 a"));
	cr_expect(!user_event_fields_match(&f, "u32 a"));
	cr_expect(!user_event_fields_match(&f, NULL));
	user_event_fields_free(&f);
	cr_assert_eq(user_event_fields_parse("struct my_struct a 20", &f), 0);
	cr_expect(user_event_fields_match(&f, "struct my_struct a 20"));
	cr_expect(!user_event_fields_match(&f, "struct my_struct a 21"));
	user_event_fields_free(&f);
	cr_assert_eq(user_event_fields_parse(NULL, &f), 0);
	cr_expect(user_event_fields_match(&f, NULL));
	cr_expect(user_event_fields_match(&f, ""));
	user_event_fields_free(&f);
}

Test(user_events_fields, split)
{
	char cmd[] = "name:flag u32 a; u32 b";
	char *name, *flags, *args;

	user_event_split(cmd, &name, &flags, &args);
	cr_expect_str_eq(name, "name");
	cr_expect_str_eq(flags, "flag");
	cr_expect_str_eq(args, "u32 a; u32 b");
}

/* ftrace_test's write_validator cases, record = 8 common bytes + loc + "Test\0" */
Test(user_events_fields, validate_rel_loc)
{
	struct user_event_fields f;
	u8 rec[8 + 4 + 8];
	u32 len = 8 + 4 + 5, loc;

	cr_assert_eq(user_event_fields_parse("__rel_loc char[] data", &f), 0);
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 12, "Test", 5);
#define LOC(o, n) (loc = (u32)(n) << 16 | (o), memcpy(rec + 8, &loc, 4))
	LOC(0, 5);
	cr_expect_eq(user_event_validate(&f, rec, len), 0);
	LOC(1024, 5);
	cr_expect_eq(user_event_validate(&f, rec, len), -EFAULT);
	LOC(1, 5);
	cr_expect_eq(user_event_validate(&f, rec, len), -EFAULT);
	LOC(0, 5 + 1024);
	cr_expect_eq(user_event_validate(&f, rec, len), -EFAULT);
	LOC(0, 6);
	cr_expect_eq(user_event_validate(&f, rec, len), -EFAULT);
	LOC(0, 5);
	memset(rec + 12, 'A', 5);
	cr_expect_eq(user_event_validate(&f, rec, len), -EFAULT);
	user_event_fields_free(&f);
}

Test(user_events_fields, validate_data_loc_counts_from_record_start)
{
	struct user_event_fields f;
	u8 rec[32] = { 0 };
	u32 loc = 3u << 16 | 12;

	cr_assert_eq(user_event_fields_parse("__data_loc char[] s", &f), 0);
	memcpy(rec + 8, &loc, 4);
	memcpy(rec + 12, "hi", 3);
	cr_expect_eq(user_event_validate(&f, rec, 15), 0);
	cr_expect_eq(user_event_validate(&f, rec, 14), -EFAULT);
	user_event_fields_free(&f);
}

/* Linux 6.12's text for the same record (read on the linux-ref rig) */
Test(user_events_fields, trace_text)
{
	struct user_event_fields f;
	struct trace_seq s;
	u8 rec[64] = { 0 };
	u32 a = 4242, dl = 3u << 16 | 39, rl = 4u << 16 | 6;
	u16 d = 7;
	u64 e = 1ull << 40;

	cr_assert_eq(user_event_fields_parse("u32 a; s8 b; char c; u16 d; u64 e; char[4] s; "
					     "__data_loc char[] dl; __rel_loc char[] rl; "
					     "struct foo st 3", &f), 0);
	memcpy(rec + 8, &a, 4);
	rec[12] = 0xfd;
	rec[13] = 'x';
	memcpy(rec + 14, &d, 2);
	memcpy(rec + 16, &e, 8);
	memcpy(rec + 24, "abc", 4);
	memcpy(rec + 28, &dl, 4);
	memcpy(rec + 32, &rl, 4);
	memcpy(rec + 36, "xyz", 3);
	memcpy(rec + 39, "hi", 3);
	memcpy(rec + 42, "rel", 4);
	trace_seq_init(&s);
	cr_assert_eq(user_event_print_fields(&s, &f, rec, 46), 0);
	cr_expect_str_eq(s.buffer, "a=0x1092 (4242) b='\xfd'(253) c='x'(120) d=0x7 (7) "
				   "e=0x10000000000 (1099511627776) s=abc dl=hi rl=rel "
				   "st=<INVALID-SIZE>");
	user_event_fields_free(&f);
}
