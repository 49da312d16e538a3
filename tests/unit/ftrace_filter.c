/*
 * set_ftrace_filter's language on a made-up site table (trace/ftrace_set.c):
 * globs add, '!' removes, an index picks one site of
 * available_filter_functions (from 1), :mod: matches nothing (no modules),
 * and a token that matches nothing is EINVAL, as Linux answers.
 */
/* uses: trace/ftrace_set.c trace/trace_glob.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <kernel/types.h>
#include <kernel/errno.h>
#include <trace/ftrace_set.h>

static const char *const names[] = {
	"schedule", "schedule_timeout", "do_fork", "kmalloc", "kmalloc_slab", "kfree",
	"vfs_read", "vfs_write", "__schedule", NULL /* a site without a name */,
};
#define N ((unsigned int)ARRAY_SIZE(names))

static const char *name_of(unsigned int i, void *arg)
{
	return names[i];
}

static struct ftrace_set set;

static void setup(void)
{
	cr_assert_eq(ftrace_set_alloc(&set, N), 0);
}

static void teardown(void)
{
	ftrace_set_free(&set);
}

TestSuite(ftrace_filter, .init = setup, .fini = teardown);

/* The set as a string of 0/1, site order. */
static const char *bits(void)
{
	static char s[N + 1];

	for (unsigned int i = 0; i < N; i++)
		s[i] = ftrace_set_test(&set, i) ? '1' : '0';
	s[N] = '\0';
	return s;
}

static int apply(const char *token)
{
	return ftrace_set_apply(&set, N, name_of, NULL, token);
}

Test(ftrace_filter, exact_names_and_globs)
{
	cr_expect_eq(apply("schedule"), 1);
	cr_expect_str_eq(bits(), "1000000000");
	cr_expect_eq(apply("kmalloc*"), 2);
	cr_expect_eq(apply("*_write"), 1);
	cr_expect_eq(apply("*sched*"), 3);
	cr_expect_str_eq(bits(), "1101100110");
	cr_expect_eq(set.count, 6u);
	cr_expect_eq(apply("vfs_[rw]*"), 2);
	cr_expect_eq(apply("k?ree"), 1);
	cr_expect_str_eq(bits(), "1101111110");
}

Test(ftrace_filter, bang_removes)
{
	cr_expect_eq(apply("*"), 9, "every named site");
	cr_expect_eq(apply("!k*"), 3);
	cr_expect_str_eq(bits(), "1110001110");
	cr_expect_eq(set.count, 6u);
	cr_expect_eq(apply("!*sched*"), 3);
	cr_expect_str_eq(bits(), "0010001100");
}

Test(ftrace_filter, index_from_one)
{
	cr_expect_eq(apply("3"), 1);
	cr_expect_str_eq(bits(), "0010000000");
	cr_expect_eq(apply("!3"), 1);
	cr_expect_eq(set.count, 0u);
	cr_expect_eq(apply("0"), -EINVAL);
	cr_expect_eq(apply("11"), -EINVAL);
}

Test(ftrace_filter, no_match_is_einval)
{
	cr_expect_eq(apply("no_such_function"), -EINVAL);
	cr_expect_eq(apply("!no_such*"), -EINVAL);
	cr_expect_eq(set.count, 0u);
}

Test(ftrace_filter, mod_matches_nothing)
{
	cr_expect_eq(apply("*:mod:ext4"), 0);
	cr_expect_eq(apply(":mod:ext4"), 0);
	cr_expect_eq(set.count, 0u);
}

Test(ftrace_filter, clear_and_assign_keep_count)
{
	apply("*");
	ftrace_set_assign(&set, 0, true);	/* already in: no change */
	cr_expect_eq(set.count, 9u);
	ftrace_set_clear(&set, N);
	cr_expect_eq(set.count, 0u);
	cr_expect_str_eq(bits(), "0000000000");
}
