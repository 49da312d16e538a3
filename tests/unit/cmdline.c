/* Unit tests of the kernel command-line parser. */
/* uses: kernel/cmdline.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <kernel/cmdline.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <stdlib.h>

static struct cmdline cl;

Test(cmdline, normal_line)
{
	unsigned long smp;
	int level;

	cr_assert_eq(cmdline_parse(&cl, "console=ttyS0 loglevel=4 quiet smp=2 init=/bin/sh\n"), 0);
	cr_assert_eq(cl.nr_params, 5);
	cr_assert_str_eq(cmdline_get(&cl, "console"), "ttyS0");
	cr_assert_str_eq(cmdline_get(&cl, "init"), "/bin/sh");
	cr_assert_eq(cmdline_get_int(&cl, "loglevel", &level), 0);
	cr_assert_eq(level, 4);
	cr_assert_eq(cmdline_get_ulong(&cl, "smp", &smp), 0);
	cr_assert_eq(smp, 2);
	cr_assert(cmdline_has(&cl, "quiet"));
	cr_assert_null(cmdline_get(&cl, "quiet"), "a bare word has no value");
	cr_assert_not(cmdline_has(&cl, "nosmp"));
	cr_assert_str_eq(cl.raw, "console=ttyS0 loglevel=4 quiet smp=2 init=/bin/sh\n");
}

Test(cmdline, empty_and_blank)
{
	cr_assert_eq(cmdline_parse(&cl, NULL), 0);
	cr_assert_eq(cl.nr_params, 0);
	cr_assert_eq(cmdline_parse(&cl, ""), 0);
	cr_assert_eq(cl.nr_params, 0);
	cr_assert_eq(cmdline_parse(&cl, " \t\n  "), 0);
	cr_assert_eq(cl.nr_params, 0);
	cr_assert_null(cmdline_find(&cl, ""));
}

Test(cmdline, repeated_keys_last_wins)
{
	unsigned long v;

	cr_assert_eq(cmdline_parse(&cl, "smp=1 loglevel=3 smp=4"), 0);
	cr_assert_eq(cmdline_get_ulong(&cl, "smp", &v), 0);
	cr_assert_eq(v, 4);
	/* A later bare word hides an earlier value too. */
	cr_assert_eq(cmdline_parse(&cl, "foo=1 foo"), 0);
	cr_assert_null(cmdline_get(&cl, "foo"));
	cr_assert_eq(cmdline_get_ulong(&cl, "foo", &v), -EINVAL);
}

Test(cmdline, dash_and_underscore_are_equal)
{
	cr_assert_eq(cmdline_parse(&cl, "spoor.exec=3 some-thing=x"), 0);
	cr_assert_str_eq(cmdline_get(&cl, "spoor.exec"), "3");
	cr_assert_str_eq(cmdline_get(&cl, "some_thing"), "x");
	cr_assert_null(cmdline_get(&cl, "spoor_exec"), "'.' is not '_'");
}

Test(cmdline, quoting)
{
	cr_assert_eq(cmdline_parse(&cl, "a=\"x y\" \"b=p q\" c=\"\" d=\"one two three\"tail e=plain"), 0);
	cr_assert_eq(cl.nr_params, 5);
	cr_assert_str_eq(cmdline_get(&cl, "a"), "x y");
	cr_assert_str_eq(cmdline_get(&cl, "b"), "p q");
	cr_assert_str_eq(cmdline_get(&cl, "c"), "");
	/* Only an opening quote and a quote at the very end are removed, as in Linux. */
	cr_assert_str_eq(cmdline_get(&cl, "d"), "one two three\"tail");
	cr_assert_str_eq(cmdline_get(&cl, "e"), "plain");
}

Test(cmdline, unterminated_quote_takes_the_rest)
{
	cr_assert_eq(cmdline_parse(&cl, "a=1 b=\"x y z"), 0);
	cr_assert_eq(cl.nr_params, 2);
	cr_assert_str_eq(cmdline_get(&cl, "b"), "x y z");
	cr_assert_eq(cmdline_parse(&cl, "\""), 0);
	cr_assert_eq(cl.nr_params, 1);
	cr_assert_str_eq(cl.params[0].key, "");
}

Test(cmdline, equals_in_value_and_empty_key)
{
	cr_assert_eq(cmdline_parse(&cl, "root=UUID=abc =v k="), 0);
	cr_assert_str_eq(cmdline_get(&cl, "root"), "UUID=abc");
	cr_assert_str_eq(cmdline_get(&cl, ""), "v");
	cr_assert_str_eq(cmdline_get(&cl, "k"), "");
}

Test(cmdline, init_args_after_dashes)
{
	cr_assert_eq(cmdline_parse(&cl, "quiet -- single x=1 --"), 0);
	cr_assert_eq(cl.nr_params, 1);
	cr_assert_eq(cl.nr_init_args, 3);
	cr_assert_str_eq(cl.params[1].key, "single");
	cr_assert_str_eq(cl.params[2].key, "x");
	cr_assert_str_eq(cl.params[3].key, "--");
	cr_assert_not(cmdline_has(&cl, "single"), "init's words are not kernel parameters");
}

Test(cmdline, typed_getters_reject_garbage)
{
	unsigned long u = 77;
	int i = 77;
	bool b = false;

	cr_assert_eq(cmdline_parse(&cl, "n=12x h=0x1f neg=-5 big=99999999999 huge=999999999999999999999 "
				    "t=on f=N bad=maybe bare"), 0);
	cr_assert_eq(cmdline_get_ulong(&cl, "n", &u), -EINVAL);
	cr_assert_eq(cmdline_get_ulong(&cl, "missing", &u), -ENOENT);
	cr_assert_eq(cmdline_get_ulong(&cl, "huge", &u), -ERANGE);
	cr_assert_eq(cmdline_get_ulong(&cl, "neg", &u), -EINVAL);
	cr_assert_eq(u, 77, "untouched on error");
	cr_assert_eq(cmdline_get_ulong(&cl, "h", &u), 0);
	cr_assert_eq(u, 31);
	cr_assert_eq(cmdline_get_int(&cl, "big", &i), -ERANGE);
	cr_assert_eq(cmdline_get_int(&cl, "bare", &i), -EINVAL);
	cr_assert_eq(i, 77);
	cr_assert_eq(cmdline_get_int(&cl, "neg", &i), 0);
	cr_assert_eq(i, -5);
	cr_assert_eq(cmdline_get_bool(&cl, "t", &b), 0);
	cr_assert(b);
	cr_assert_eq(cmdline_get_bool(&cl, "f", &b), 0);
	cr_assert_not(b);
	cr_assert_eq(cmdline_get_bool(&cl, "bare", &b), 0);
	cr_assert(b);
	cr_assert_eq(cmdline_get_bool(&cl, "bad", &b), -EINVAL);
	cr_assert_eq(cmdline_get_bool(&cl, "missing", &b), -ENOENT);
}

Test(cmdline, control_bytes_and_separators)
{
	cr_assert_eq(cmdline_parse(&cl, "a=\x01\x7f\t\tb=\xff\r\nc"), 0);
	cr_assert_eq(cl.nr_params, 3);
	cr_assert_str_eq(cmdline_get(&cl, "a"), "\x01\x7f");
	cr_assert_str_eq(cmdline_get(&cl, "b"), "\xff");
	cr_assert(cmdline_has(&cl, "c"));
}

Test(cmdline, very_long_line_is_truncated)
{
	size_t n = 3 * COMMAND_LINE_SIZE;
	char *line = malloc(n + 1);

	memset(line, 'x', n);
	memcpy(line, "k=", 2);
	line[n] = '\0';
	cr_assert_eq(cmdline_parse(&cl, line), -E2BIG);
	cr_assert_eq(strlen(cmdline_get(&cl, "k")), COMMAND_LINE_SIZE - 1 - 2);
	cr_assert_eq(strlen(cl.raw), COMMAND_LINE_SIZE - 1);
	free(line);
}

Test(cmdline, too_many_words)
{
	char line[COMMAND_LINE_SIZE];
	size_t len = 0;

	for (int i = 0; i < CMDLINE_MAX_PARAMS + 10; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "w%d=%d ", i, i);
	cr_assert_eq(cmdline_parse(&cl, line), -E2BIG);
	cr_assert_eq(cl.nr_params, CMDLINE_MAX_PARAMS);
	cr_assert_str_eq(cmdline_get(&cl, "w127"), "127");
	cr_assert_null(cmdline_find(&cl, "w128"));
}
