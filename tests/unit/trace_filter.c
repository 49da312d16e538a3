/*
 * Event filters: every operator on every kind of field, precedence, the
 * specials (cpu, comm), Linux's error texts and caret positions, and
 * hostile input (huge, deep, random) that must fail cleanly.
 */
/* uses: trace/trace_filter.c trace/trace_events.c trace/trace_output.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <trace/trace_filter.h>
#include <host_kallsyms.h>

const char *tracing_task_comm(void) { return "bash"; }

/* A record with one field of each kind. */
struct rec {
	struct trace_entry ent;
	s32 sval;		/* 8 */
	u32 uval;		/* 12 */
	s64 big;		/* 16 */
	u8 small;		/* 24 */
	char name[16];		/* 25 */
	u32 __data_loc_dyn;	/* 44 */
	char dyn[32];		/* 48: the dynamic string's data */
	unsigned long site;	/* 80: an address, for .function */
};

static struct trace_event_field fields[] = {
	{ .type = "int", .name = "sval", .offset = 8, .size = 4, .is_signed = 1 },
	{ .type = "unsigned int", .name = "uval", .offset = 12, .size = 4 },
	{ .type = "s64", .name = "big", .offset = 16, .size = 8, .is_signed = 1 },
	{ .type = "u8", .name = "small", .offset = 24, .size = 1 },
	{ .type = "char[16]", .name = "name", .offset = 25, .size = 16,
	  .filter_type = FILTER_STATIC_STRING },
	{ .type = "__data_loc char[]", .name = "dyn", .offset = 44, .size = 4,
	  .filter_type = FILTER_DYN_STRING },
	{ .type = "unsigned long[6]", .name = "arr", .offset = 48, .size = 48 },
	{ .type = "unsigned long", .name = "call_site", .offset = 80, .size = 8 },
	{ 0 }
};

static struct trace_event_call call = { .system = "test", .name = "t", .fields = fields };

static struct rec r;

static void set_rec(int sval, unsigned int uval, long long big, u8 small, const char *name,
		    const char *dyn)
{
	memset(&r, 0, sizeof(r));
	r.ent.type = 40;
	r.ent.pid = 1234;
	r.sval = sval;
	r.uval = uval;
	r.big = big;
	r.small = small;
	strncpy(r.name, name, sizeof(r.name));
	strcpy(r.dyn, dyn);
	r.__data_loc_dyn = (u32)(strlen(dyn) + 1) << 16 | offsetof(struct rec, dyn);
}

/* Does the filter text accept the current record? */
static bool match(const char *text)
{
	struct event_filter *f;
	struct filter_error err;
	int ret = filter_parse(&call, text, &f, &err);
	bool m;

	cr_assert_eq(ret, 0, "'%s' refused: %s at %d", text, err.msg, err.pos);
	cr_assert_not_null(f, "'%s' gave no filter", text);
	m = filter_match(f, &r);
	filter_free(f);
	return m;
}

/* The error a filter text gives. */
static struct filter_error refuse(const char *text)
{
	struct event_filter *f = (void *)1;
	struct filter_error err;

	cr_assert_eq(filter_parse(&call, text, &f, &err), -EINVAL, "'%s' accepted", text);
	cr_assert_null(f);
	cr_assert_not_null(err.msg);
	cr_assert_geq(err.pos, 0);
	cr_assert_leq(err.pos, (int)strlen(text) + 1, "'%s': pos %d", text, err.pos);
	return err;
}

/* A refused filter: Linux's message and caret position (error_log's). */
struct refusal {
	const char *text, *msg;
	int pos;
};

static void expect_refusals(const struct refusal *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct filter_error e = refuse(cases[i].text);

		cr_expect_str_eq(e.msg, cases[i].msg, "'%s'", cases[i].text);
		cr_expect_eq(e.pos, cases[i].pos, "'%s': pos %d", cases[i].text, e.pos);
	}
}

Test(filter, numbers)
{
	set_rec(-5, 0xf0, -(1LL << 40), 200, "bash", "kworker/0:1");
	cr_assert(match("sval == -5"));
	cr_assert(match("sval < 0 && sval >= -5 && sval > -6 && sval <= -5"));
	cr_assert_not(match("sval != -5"));
	cr_assert(match("uval == 0xf0"));
	cr_assert(match("uval == 240"));
	cr_assert(match("uval & 0x10"));
	cr_assert_not(match("uval & 0x0f"));
	cr_assert(match("uval > 17"));
	cr_assert(match("big < -1099511627775"));
	cr_assert(match("big == -1099511627776"));
	cr_assert(match("small == 200"));	/* u8 read unsigned */
	cr_assert(match("small > 100"));
	cr_assert(match("common_pid == 1234"));
	cr_assert(match("common_type == 40"));
	cr_assert(match("sval==-5"));		/* no blanks needed */
}

/* Comparisons at the ends of each type's range, signed and unsigned, every operator. */
Test(filter, numbers_at_the_edges)
{
	set_rec(-2147483647 - 1, 0xffffffffu, 0x7fffffffffffffffLL, 0, "bash", "x");
	cr_assert(match("sval == -2147483648"));
	cr_assert(match("sval < 0"));
	cr_assert(match("sval <= -2147483648"));
	cr_assert_not(match("sval < -2147483648"));
	cr_assert(match("sval >= -2147483648"));
	cr_assert_not(match("sval > -2147483648"));
	cr_assert(match("sval != 5"));
	cr_assert(match("sval & 0x80000000"));	/* the sign-extended bits */
	cr_assert(match("uval == 4294967295"));
	cr_assert(match("uval > 0"));
	cr_assert_not(match("uval > 4294967295"));
	cr_assert_not(match("uval < 0"));	/* nothing is below 0 */
	cr_assert(match("uval >= 0"));
	cr_assert(match("big == 9223372036854775807"));
	cr_assert_not(match("big > 9223372036854775807"));	/* nothing above the maximum */
	cr_assert(match("big >= 9223372036854775807"));
	cr_assert(match("big > -9223372036854775808"));
	cr_assert(match("small <= 0 && small >= 0 && small == 0"));
	cr_assert_not(match("small < 0"));
	cr_assert_not(match("small != 0"));
	set_rec(-1, 0, -9223372036854775807LL - 1, 255, "bash", "x");
	cr_assert(match("big == -9223372036854775808"));
	cr_assert_not(match("big < -9223372036854775808"));
	cr_assert(match("big <= -9223372036854775808"));
	cr_assert(match("sval > -2 && sval < 0"));
	cr_assert(match("small > 254 && small >= 255"));
	cr_assert_not(match("small > 255"));
}

Test(filter, strings_and_globs)
{
	set_rec(1, 2, 3, 4, "migration/0", "kworker/0:1");
	cr_assert(match("name == \"migration/0\""));
	cr_assert(match("name == 'migration/0'"));
	cr_assert(match("name == migration/0"));
	cr_assert_not(match("name == migration"));
	cr_assert(match("name != migration"));
	cr_assert(match("name ~ \"migr*\""));
	cr_assert(match("name ~ \"*/0\""));
	cr_assert(match("name ~ \"*ratio*\""));
	cr_assert(match("name ~ \"m?gration/[0-3]\""));
	cr_assert_not(match("name ~ \"m?gration/[!0]\""));
	cr_assert_not(match("name ~ \"*x*\""));
	cr_assert(match("dyn == \"kworker/0:1\""));
	cr_assert(match("dyn ~ \"kworker/*\""));
	cr_assert(match("dyn ~ \"*\""));
	cr_assert_not(match("dyn == kworker"));
	set_rec(1, 2, 3, 4, "exactly16chars!!", "");	/* no NUL inside the field */
	cr_assert(match("name == \"exactly16chars!!\""));
	cr_assert(match("dyn == \"\""));
}

Test(filter, logic_and_precedence)
{
	set_rec(1, 2, 3, 4, "bash", "x");
	cr_assert(match("sval == 1 || sval == 2 && uval == 99"));	/* && binds tighter */
	cr_assert_not(match("(sval == 1 || sval == 2) && uval == 99"));
	cr_assert(match("!(sval == 2)"));
	cr_assert(match("!sval == 2"));
	cr_assert_not(match("!!(sval == 2)"));
	cr_assert(match("((sval >= 1 && sval < 3) || sval == 17) && name != zsh"));
	cr_assert(match("sval == 9 || sval == 8 || sval == 1"));
	cr_assert_not(match("sval == 1 && uval == 2 && small == 5"));
	cr_assert(match("!(sval == 1 && uval == 3) && !(small == 5 || big == 4)"));
}

Test(filter, cpu_and_comm)
{
	set_rec(1, 2, 3, 4, "zsh", "x");
	host_cpu_id = 3;
	cr_assert(match("cpu == 3"));
	cr_assert(match("common_cpu >= 2"));
	cr_assert(match("comm == bash"));		/* the running task, not the record */
	cr_assert(match("common_comm ~ \"ba*\""));
	host_cpu_id = 0;
	cr_assert_not(match("cpu == 3"));
}

Test(filter, empty_and_zero_clear)
{
	struct event_filter *f = (void *)1;
	struct filter_error err;

	cr_assert_eq(filter_parse(&call, "", &f, &err), 0);
	cr_assert_null(f);
	cr_assert_eq(filter_parse(&call, " 0\n", &f, &err), 0);
	cr_assert_null(f);
	cr_assert(filter_match(NULL, &r));
	cr_assert_eq(filter_parse(&call, "sval == 1\n", &f, &err), 0);
	cr_assert_str_eq(filter_string(f), "sval == 1");
	filter_free(f);
}

Test(filter, errors_linux_texts_and_positions)
{
	static const struct refusal cases[] = {
		{ "bad", "Field not found", 4 },
		{ "sval == 1 && bogus == 2", "Field not found", 19 },
		{ "sval = 3", "Invalid operator", 6 },
		{ "sval >< 3", "Invalid value (did you forget quotes)?", 7 },
		{ "sval", "Invalid operator", 5 },
		{ "name < \"x\"", "Illegal operation for field type", 8 },
		{ "sval ~ 3", "Illegal operation for field type", 8 },
		{ "sval == \"x\"", "Expecting numeric field", 9 },
		{ "arr == 3", "Expecting string field", 8 },
		{ "sval == abc", "Invalid value (did you forget quotes)?", 9 },
		{ "name == ", "Invalid value (did you forget quotes)?", 8 },
		{ "uval == -1", "Illegal integer value", 9 },
		{ "sval == 12z", "Illegal integer value", 9 },
		{ "sval == 99999999999999999999", "Illegal integer value", 9 },
		{ "sval == 0x1234567890123456789012", "Operand too long", 33 },
		{ "name == \"abc", "Missing matching quote", 13 },
		{ "(sval == 1", "Too many '('", 1 },
		{ "((sval == 1)", "Too many '('", 1 },
		{ "(sval == 1 || (uval == 2)", "Too many '('", 1 },
		{ "(sval == 1))", "Too few '('", 12 },
		{ "(sval == 1 uval == 2)", "Meaningless filter expression", 12 },
		{ "!)", "Meaningless filter expression", 2 },
		{ "(!)", "Meaningless filter expression", 3 },
		{ "sval == 1)", "Too few '('", 10 },
		{ ")", "Too few '('", 1 },
		{ "sval == 1 uval == 2", "Meaningless filter expression", 11 },
		{ "sval == 1 &&", "Meaningless filter expression", 13 },
		{ "&& sval == 1", "Meaningless filter expression", 1 },
		{ "()", "Meaningless filter expression", 2 },
		{ "sval == 1 & uval == 2", "Meaningless filter expression", 11 },
	};

	expect_refusals(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Three functions back to back, and a gap before the last. */
static const struct host_symbol symbols[] = {
	{ "vfs_read", 0xffffffff81000100UL, 0x80 },
	{ "vfs_write", 0xffffffff81000180UL, 0x40 },
	{ "do_exit", 0xffffffff81001000UL, 0x200 },
	{ NULL, 0, 0 }
};

/* FIELD.function: any address inside the function, by name or by an address in it. */
Test(filter, function_modifier)
{
	host_symbols = symbols;
	set_rec(1, 2, 3, 4, "bash", "x");
	r.site = 0xffffffff81000100UL + 0x37;
	cr_assert(match("call_site.function == vfs_read"));
	cr_assert(match("call_site.function == 0xffffffff81000100"));
	cr_assert(match("call_site.function == 0xFFFFFFFF8100017F"));	/* the last byte: same function */
	cr_assert(match("call_site.function==vfs_read"));
	cr_assert(match("( call_site.function == vfs_read )"));
	cr_assert_not(match("call_site.function != vfs_read"));
	cr_assert_not(match("call_site.function == vfs_write"));
	cr_assert(match("call_site.function != vfs_write"));
	cr_assert(match("call_site.function == vfs_write || call_site.function == vfs_read"));
	cr_assert(match("!call_site.function == do_exit && sval == 1"));
	r.site = 0xffffffff81000180UL;				/* vfs_write's first byte */
	cr_assert_not(match("call_site.function == vfs_read"));
	cr_assert(match("call_site.function == vfs_write"));
	cr_assert(match("call_site.function == 18446744071578845573"));	/* decimal, inside vfs_write */
	r.site = 0xffffffff810001c0UL;				/* in no function */
	cr_assert_not(match("call_site.function == vfs_write"));
	cr_assert(match("call_site.function != vfs_write"));
	r.site = 0;
	cr_assert_not(match("call_site.function == do_exit"));
	host_symbols = NULL;
}

/* The uses Linux 6.12 refuses, with its texts and carets (error_log's), as on the rig. */
Test(filter, function_modifier_errors)
{
	static const struct refusal cases[] = {
		{ "call_site.function == nosuchsym_xyz", "Function not found", 36 },
		{ "call_site.function == 0x12", "Function not found", 27 },
		{ "call_site.function == 0", "Function not found", 24 },
		{ "call_site.function == -1", "Function not found", 25 },
		{ "call_site.function == \"vfs_read\"", "Function not found", 33 },
		{ "call_site.function == vfs_read+0x10", "Function not found", 36 },
		{ "(call_site.function == vfs_read)", "Function not found", 33 },
		{ "call_site.function == vfs_read&&sval != 0", "Function not found", 37 },
		{ "call_site.function ==", "Function not found", 22 },
		{ "call_site.function == 0xzz", "Invalid value (did you forget quotes)?", 27 },
		{ "call_site.function == 1a", "Invalid value (did you forget quotes)?", 25 },
		{ "call_site.function > vfs_read", "Invalid operator", 22 },
		{ "call_site.function >= vfs_read", "Invalid operator", 23 },
		{ "call_site.function ~ \"vfs*\"", "Invalid operator", 22 },
		{ "call_site.function & 1", "Invalid operator", 22 },
		{ "call_site.function", "Invalid operator", 19 },
		{ "call_site.func == vfs_read", "Invalid operator", 10 },
		{ "call_site.functions == vfs_read", "Invalid operator", 19 },
		{ "call_site.FUNCTION == vfs_read", "Invalid operator", 10 },
		{ "call_site .function == vfs_read", "Invalid operator", 11 },
		{ "name.function == vfs_read", "Illegal operation for field type", 18 },
		{ "dyn.function == vfs_read", "Illegal operation for field type", 17 },
		{ "common_pid.function == vfs_read", "Illegal operation for field type", 24 },
		{ "sval.function == vfs_read", "Illegal operation for field type", 18 },
		{ "cpu.function == vfs_read", "Illegal operation for field type", 17 },
		{ "nosuch.function == vfs_read", "Field not found", 7 },
	};

	host_symbols = symbols;
	expect_refusals(cases, sizeof(cases) / sizeof(cases[0]));
	host_symbols = NULL;
}

Test(filter, error_log_entry_is_linux_layout)
{
	char buf[256];
	struct filter_error e = refuse("bad");
	FILE *f = fopen("tests/unit/trace_ref/linux-6.18-error-log-sample.txt", "r");
	char want[256] = "";

	cr_assert_not_null(f);
	cr_assert_gt(fread(want, 1, sizeof(want) - 1, f), 0);
	fclose(f);
	cr_assert_lt(filter_format_error(buf, sizeof(buf), 1299534780123ull, "bad", &e), (int)sizeof(buf));
	cr_assert_str_eq(buf, want);
}

Test(filter, hostile_sizes)
{
	static char text[8192];
	struct event_filter *f;
	struct filter_error err;
	size_t n = 0;

	/* 4 kB of valid terms parse and match. */
	set_rec(7, 0, 0, 0, "a", "b");
	while (n < 4000)
		n += (size_t)sprintf(text + n, "sval == %zu || ", n % 1000 + 10);
	strcpy(text + n, "sval == 7");
	cr_assert_eq(filter_parse(&call, text, &f, &err), 0, "%s at %d", err.msg, err.pos);
	cr_assert(filter_match(f, &r));
	filter_free(f);

	/* More terms than FILTER_MAX_PREDS. */
	n = 0;
	for (int i = 0; i <= FILTER_MAX_PREDS; i++)
		n += (size_t)sprintf(text + n, "%ssval==1", i ? "||" : "");
	cr_assert_str_eq(refuse(text).msg, "Too many terms in predicate expression");

	/*
	 * Nesting as deep as a 4 KiB write holds, as Linux takes it: 1,000
	 * parentheses (the rig's case), and 2,000 levels of "(!" whose NOTs
	 * cancel in pairs.
	 */
	for (int depth = 1000; depth <= 2000; depth += 1000) {
		n = 0;
		for (int i = 0; i < depth; i++)
			text[n++] = depth == 1000 || i % 2 ? '(' : '!';
		n += (size_t)sprintf(text + n, "sval == 7");
		for (int i = 0; i < depth; i++)
			if (depth == 1000 || i % 2)
				text[n++] = ')';
		text[n] = '\0';
		cr_assert_eq(filter_parse(&call, text, &f, &err), 0, "%d: %s at %d", depth, err.msg, err.pos);
		cr_assert(filter_match(f, &r) == (depth == 1000 || (depth / 2) % 2 == 0));
		cr_assert_str_eq(filter_string(f), text);
		filter_free(f);
		/* One ')' short: the outermost '(' is reported; one too many: that ')'. */
		text[n - 1] = '\0';
		cr_assert_str_eq(refuse(text).msg, "Too many '('");
		cr_assert_eq(refuse(text).pos, depth == 1000 ? 1 : 2);
		strcpy(text + n - 1, "))");
		cr_assert_str_eq(refuse(text).msg, "Too few '('");
		cr_assert_eq(refuse(text).pos, (int)n + 1);
	}
	/* Past what the program's offsets hold: refused before parsing. */
	{
		static char huge[40000];

		memset(huge, '(', sizeof(huge) - 1);
		cr_assert_eq(filter_parse(&call, huge, &f, &err), -E2BIG);
	}

	/* A string operand longer than the limit. */
	memset(text, 'a', 600);
	memcpy(text, "name == \"", 9);
	strcpy(text + 600, "\"");
	cr_assert_str_eq(refuse(text).msg, "Operand too long");
}

/*
 * A random expression of &&, ||, ! and parentheses over "sval == N"
 * (true when N is 1) into text, nested depth deep: its value, computed
 * here by C's own operators.
 */
static bool random_expr(char *text, size_t *n, unsigned int *seed, int depth)
{
	int kind = depth ? 1 + rand_r(seed) % 4 : 0;
	bool a, b;

	switch (kind) {
	case 0: {
		int v = rand_r(seed) % 2;

		*n += (size_t)sprintf(text + *n, "sval == %d", v);
		return v == 1;
	}
	case 1:
		text[(*n)++] = '!';
		text[(*n)++] = '(';
		a = random_expr(text, n, seed, depth - 1);
		text[(*n)++] = ')';
		return !a;
	case 2:
		text[(*n)++] = '(';
		a = random_expr(text, n, seed, depth - 1);
		text[(*n)++] = ')';
		return a;
	default:
		/* Both sides grouped: a bare "x || y" on the left would bind to the right. */
		text[(*n)++] = '(';
		a = random_expr(text, n, seed, depth - 1);
		text[(*n)++] = ')';
		*n += (size_t)sprintf(text + *n, kind == 3 ? " && " : " || ");
		/* Short: the right side stays a leaf or a group, keeping the text small. */
		text[(*n)++] = '(';
		b = random_expr(text, n, seed, depth > 3 ? 2 : depth - 1);
		text[(*n)++] = ')';
		return kind == 3 ? a && b : a || b;
	}
}

/* The explicit-stack parser agrees with C on deep random expressions. */
Test(filter, deep_random_expressions_match_c)
{
	static char text[8192];
	unsigned int seed = 4242;
	int tested = 0, deepest = 0;

	set_rec(1, 2, 3, 4, "bash", "x");
	for (int iter = 0; iter < 300; iter++) {
		size_t n = 0;
		bool want = random_expr(text, &n, &seed, 1 + iter % 60);
		int open = 0;

		text[n] = '\0';
		if (n >= 4000)
			continue;
		cr_assert_eq(match(text), want, "'%s'", text);
		tested++;
		for (size_t i = 0; i < n; i++) {
			open += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
			deepest = open > deepest ? open : deepest;
		}
	}
	cr_assert_geq(tested, 250);
	cr_assert_geq(deepest, 40, "nested deeper than the old limit of 32");
}

Test(filter, random_input_never_crashes)
{
	static const char alphabet[] = "sval uname dyn ()!&|=<>~\"'*?[]-0x1f 9 cpu comm \n\t";
	char text[96];
	unsigned int seed = 12345;
	int accepted = 0;

	set_rec(1, 2, 3, 4, "bash", "x");
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = (size_t)(rand_r(&seed) % (sizeof(text) - 1));
		struct event_filter *f;
		struct filter_error err;

		for (size_t i = 0; i < len; i++)
			text[i] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		text[len] = '\0';
		if (filter_parse(&call, text, &f, &err) == 0) {
			filter_match(f, &r);
			filter_free(f);
			accepted++;
		} else {
			cr_assert_not_null(err.msg);
			cr_assert_leq(err.pos, (int)len + 1);
		}
	}
	cr_assert_gt(accepted, 0);
}
