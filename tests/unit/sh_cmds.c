/* Unit tests of the regex engine, the line editor and the text commands. */
#define _GNU_SOURCE
/* uses: kernel/cmds/ kernel/cmds/awk/ kernel/shell/regex.c kernel/shell/regex_longest.c kernel/shell/sh_arena.c kernel/shell/sh_arith.c kernel/shell/sh_buf.c kernel/shell/sh_builtin.c kernel/shell/sh_escape.c kernel/shell/sh_exec.c kernel/shell/sh_path.c kernel/shell/sh_expand.c kernel/shell/sh_interactive.c kernel/shell/sh_io.c kernel/shell/sh_lex.c kernel/shell/sh_line.c kernel/shell/sh_complete.c kernel/shell/sh_main.c kernel/shell/sh_match.c kernel/shell/sh_parse.c kernel/shell/sh_time.c kernel/shell/sh_trap.c kernel/shell/sh_util.c kernel/shell/sh_var.c kernel/shell/sh_table.c tests/host/sh_os_host.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/regex.h>
#include <kernel/shell/sh_line.h>
#include <kernel/cmds/cmds.h>
#include "tests/unit/sh_fixture.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where pattern first matches s ("start-end"), "none", or "ERR: msg". */
static char *re_find(const char *pattern, int flags, const char *s)
{
	struct regex *re;
	struct re_match m;
	char err[80], *r;

	if (regex_compile(&re, pattern, flags, err, sizeof(err))) {
		if (asprintf(&r, "ERR: %s", err) < 0)
			abort();
		return r;
	}
	if (regex_search(re, s, strlen(s), 0, &m)) {
		if (asprintf(&r, "%ld-%ld", m.start[0], m.end[0]) < 0)
			abort();
	} else {
		r = strdup("none");
	}
	regex_free(re);
	return r;
}

#define re_check(pat, flags, s, want) do {					\
	char *got_ = re_find(pat, flags, s);					\
	cr_expect_str_eq(got_, want, "/%s/ on \"%s\": %s", pat, s, got_);	\
	free(got_);								\
} while (0)

#define E RE_EXTENDED

Test(regex, basic_syntax)
{
	re_check("abc", 0, "xxabcxx", "2-5");
	re_check("a.c", 0, "abc", "0-3");
	re_check("^ab", 0, "ab ab", "0-2");
	re_check("^ab", 0, "xab", "none");
	re_check("b$", 0, "abb", "2-3");
	re_check("ab*c", 0, "ac abbbc", "0-2");
	re_check("ab*", 0, "abbbx", "0-4");
	re_check("a\\+", 0, "baaa", "1-4");
	re_check("a+", 0, "a+", "0-2");
	re_check("colou\\?r", 0, "color", "0-5");
	re_check("\\(ab\\)*c", 0, "ababc", "0-5");
	re_check("a\\{2,3\\}", 0, "aaaa", "0-3");
	re_check("a\\|b", 0, "xb", "1-2");
	re_check("*a", 0, "x*a", "1-3");
	re_check("a^b", 0, "a^b", "0-3");
	re_check("a$b", 0, "a$b", "0-3");
}

Test(regex, extended_syntax)
{
	re_check("a+b?", E, "caab", "1-4");
	re_check("(foo|bar)+", E, "xbarfoo", "1-7");
	re_check("x{2}", E, "xxx", "0-2");
	re_check("x{2,}", E, "xxxx", "0-4");
	re_check("^(a|b)*$", E, "abba", "0-4");
	re_check("^(a|b)*$", E, "abca", "none");
	re_check("sched_(switch|wakeup)", E, "events/sched/sched_wakeup/enable", "13-25");
	re_check("a|^b", E, "b", "0-1");
	re_check("\\(", E, "f(x)", "1-2");
}

Test(regex, brackets_and_classes)
{
	re_check("[abc]+", E, "xxbcay", "2-5");
	re_check("[^0-9]", 0, "123a", "3-4");
	re_check("[[:digit:]]\\+", 0, "pid 1234", "4-8");
	re_check("[[:space:]][[:alpha:]]", 0, "1 x", "1-3");
	re_check("[]a]", 0, "x]", "1-2");
	re_check("[a-]", 0, "-", "0-1");
	re_check("\\w+", E, "  hi_1 ", "2-6");
	re_check("\\bcat\\b", E, "concat cat", "7-10");
	re_check("\\<cat", 0, "concat cat", "7-10");
	re_check("HeLLo", RE_ICASE, "say hello", "4-9");
	re_check("[A-C]x", RE_ICASE, "bX", "0-2");
}

/* The search skips to characters a match can begin with: each way a match can begin. */
Test(regex, first_characters)
{
	re_check(":on[^:]*(", 0, "hist:keys=pid:onmatch(x)", "13-22");
	re_check("x*y", 0, "aaaxxy", "3-6");
	re_check("x*y", 0, "aaay", "3-4");
	re_check("(a|)b", E, "ccb", "2-3");
	re_check("a{0}b", E, "cab", "2-3");
	re_check("(c|d)e", E, "xxde", "2-4");
	re_check("\\bFoo", RE_ICASE, "a foo", "2-5");
	re_check("FOO", RE_ICASE, "xFoO", "1-4");
	re_check("[^a]", 0, "aaa\tb", "3-4");
	re_check(".", 0, "\n\nz", "2-3");
	re_check("x$", 0, "axbx", "3-4");
	re_check("$", 0, "ab", "2-2");
	re_check("^#", 0, " #", "none");
	re_check("^ *#", 0, "  #", "0-3");
	re_check("q", 0, "abc", "none");
}

/* A plain string is searched for without the matcher: the same answers. */
Test(regex, plain_strings)
{
	re_check("aab", 0, "aaab", "1-4");
	re_check("sched", 0, "  => sched_tick", "5-10");
	re_check("ab", 0, "xxab", "2-4");
	re_check("ab", 0, "xxa", "none");
	re_check("abc", 0, "ab", "none");
	re_check("{", 0, "f() {", "4-5");
	re_check("a.c", 0, "xa.c", "1-4");
	re_check("A", RE_ICASE, "xa", "1-2");
}

/* A match that needs more backtracking frames than the search keeps on its stack. */
Test(regex, deep_backtracking)
{
	char line[400];

	memset(line, 'a', sizeof(line) - 2);
	line[sizeof(line) - 2] = 'b';
	line[sizeof(line) - 1] = '\0';
	re_check("\\(a\\)*b", 0, line, "0-399");
}

Test(regex, errors)
{
	re_check("\\(a", 0, "", "ERR: unmatched ( or \\(");
	re_check("(a", E, "", "ERR: unmatched ( or \\(");
	re_check("a)", E, "", "ERR: unmatched ) or \\)");
	re_check("[abc", 0, "", "ERR: unmatched [, [^, [:, [., or [=");
	re_check("a\\", 0, "", "ERR: trailing backslash (\\)");
	re_check("a|*b", E, "", "ERR: invalid preceding regular expression");
	re_check("(+a)", E, "", "ERR: invalid preceding regular expression");
	re_check("*a", E, "x*a", "1-3");
	re_check("a{3,1}", E, "", "ERR: invalid content of \\{\\}");
	re_check("[[:nope:]]", 0, "", "ERR: invalid character class");
	re_check("\\1", 0, "", "ERR: back-references are not supported");
	re_check("[z-a]", 0, "", "ERR: invalid range end");
}

Test(regex, groups_and_pathological)
{
	struct regex *re;
	struct re_match m;
	char err[80];
	char *s = malloc(4001);

	cr_assert_eq(regex_compile(&re, "\\([a-z]*\\)=\\([0-9]*\\)", 0, err, sizeof(err)), 0);
	cr_assert(regex_search(re, "  key=42;", 9, 0, &m));
	cr_expect_eq(m.start[1], 2);
	cr_expect_eq(m.end[1], 5);
	cr_expect_eq(m.start[2], 6);
	cr_expect_eq(m.end[2], 8);
	regex_free(re);
	/* Exponential backtracking runs out of steps instead of hanging. */
	memset(s, 'a', 4000);
	s[4000] = '\0';
	cr_assert_eq(regex_compile(&re, "(a*)*b", E, err, sizeof(err)), 0);
	cr_expect(!regex_search(re, s, 4000, 0, &m));
	regex_free(re);
	cr_assert_eq(regex_compile(&re, "((((((((((x{255}){255}", E, err, sizeof(err)), -EINVAL);
	free(s);
}

/* Feed a string to the line editor; returns the last result, the echo in *echo. */
static int feed(struct sh_line *l, const char *s, char **echo)
{
	int r = SH_LINE_MORE;

	for (; *s && r == SH_LINE_MORE; s++)
		r = sh_line_feed(l, *s);
	*echo = strndup(l->echo.s ? l->echo.s : "", l->echo.len);
	l->echo.len = 0;
	return r;
}

Test(line_editor, editing_and_history)
{
	struct sh_line l;
	char *echo;

	sh_line_init(&l);
	cr_assert_eq(feed(&l, "ecx\x7fho hi\r", &echo), SH_LINE_DONE);
	cr_expect_str_eq(l.buf, "echo hi");
	cr_expect_str_eq(echo, "ecx\b \bho hi\r\n");
	free(echo);
	sh_line_add_history(&l, l.buf);
	sh_line_clear(&l);
	cr_assert_eq(feed(&l, "junk\x15ls\r", &echo), SH_LINE_DONE);
	cr_expect_str_eq(l.buf, "ls");
	free(echo);
	sh_line_add_history(&l, l.buf);
	sh_line_clear(&l);
	/* Up twice: the older line; down once: the newer one. */
	cr_assert_eq(feed(&l, "\x1b[A\x1b[A\x1b[B\r", &echo), SH_LINE_DONE);
	cr_expect_str_eq(l.buf, "ls");
	free(echo);
	sh_line_clear(&l);
	cr_assert_eq(feed(&l, "\x1b[A\x1b[A\r", &echo), SH_LINE_DONE);
	cr_expect_str_eq(l.buf, "echo hi");
	free(echo);
	sh_line_clear(&l);
	cr_assert_eq(feed(&l, "sleep 9\x03", &echo), SH_LINE_INTR);
	cr_expect_str_eq(echo, "sleep 9^C\r\n");
	cr_expect_eq(l.len, 0);
	free(echo);
	cr_assert_eq(feed(&l, "x\x04", &echo), SH_LINE_MORE);
	free(echo);
	sh_line_clear(&l);
	cr_assert_eq(feed(&l, "\x04", &echo), SH_LINE_EOF);
	free(echo);
	/* Control bytes are dropped; a full line takes no more. */
	sh_line_clear(&l);
	cr_assert_eq(feed(&l, "a\x12\x19" "b\r", &echo), SH_LINE_DONE);
	cr_expect_str_eq(l.buf, "ab");
	free(echo);
	sh_line_clear(&l);
	for (int i = 0; i < 2000; i++)
		sh_line_feed(&l, 'z');
	cr_expect_eq(l.len, SH_LINE_MAX - 1);
	sh_line_free(&l);
}

/* Feed s to a fresh editor holding nothing; the line after it. */
static char *edited(const char *s)
{
	struct sh_line l;
	char *echo, *line;

	sh_line_init(&l);
	feed(&l, s, &echo);
	free(echo);
	line = strndup(l.buf, l.len);
	sh_line_free(&l);
	return line;
}

#define expect_edit(keys, want) do {						\
	char *got_ = edited(keys);						\
	cr_expect_str_eq(got_, want, "keys %s", #keys);				\
	free(got_);								\
} while (0)

Test(line_editor, cursor_keys)
{
	struct sh_line l;
	char *echo;

	/* Left, Right, Home, End in their VT100 and xterm spellings. */
	expect_edit("ac\x1b[Db", "abc");
	expect_edit("ac\x1b[D\x1b[Cd", "acd");
	expect_edit("bc\x1b[Ha", "abc");
	expect_edit("bc\x1b[1~a", "abc");
	expect_edit("bc\x1bOHa\x1bOFd", "abcd");
	expect_edit("b\x1b[H" "a\x1b[4~c", "abc");
	expect_edit("ac\x02" "b\x06" "d", "abcd");		/* Ctrl-B, Ctrl-F */
	/* Delete and Ctrl-D remove the character under the cursor; Backspace the one before. */
	expect_edit("abxc\x1b[D\x1b[D\x1b[3~", "abc");
	expect_edit("abxc\x1b[D\x1b[D\x04", "abc");
	expect_edit("abxc\x1b[D\x7f", "abc");
	/* Ctrl-A, Ctrl-E; Ctrl-K to the end, Ctrl-U to the start, Ctrl-W one word. */
	expect_edit("bc\x01" "a\x05" "d", "abcd");
	expect_edit("echo hi there\x1b[D\x1b[D\x1b[D\x1b[D\x1b[D\x0b", "echo hi ");
	expect_edit("junk ls\x1b[D\x1b[D\x15", "ls");
	expect_edit("cat events/sched  \x17", "cat ");
	expect_edit("cat a b\x1b[D\x1b[D\x17", "cat  b");
	/* Unknown sequences vanish whole; Left at the start and Right at the end do nothing. */
	expect_edit("a\x1b[99Zb\x1b[D\x1b[D\x1b[D" "c\x1b[C\x1b[C\x1b[Cd", "cabd");
	/* The echo moves the terminal's cursor with backspaces and re-printed text. */
	sh_line_init(&l);
	cr_assert_eq(feed(&l, "ac\x1b[Db\r", &echo), SH_LINE_DONE);
	cr_expect_str_eq(l.buf, "abc");
	cr_expect_str_eq(echo, "ac\bbc\bc\r\n");
	free(echo);
	sh_line_free(&l);
	/* Ctrl-L clears the screen and redraws prompt and line, cursor in place. */
	sh_line_init(&l);
	strcpy(l.prompt, "/ # ");
	feed(&l, "ab\x1b[D\x0c", &echo);
	cr_expect_str_eq(echo, "ab\b\x1b[H\x1b[2J/ # ab\b");
	free(echo);
	sh_line_free(&l);
}

Test(cmds, ls_columns)
{
	run("mkdir /d && cd /d && for f in available_events buffer_size_kb current_tracer events"
	    " free_buffer instances kprobe_events options per_cpu set_event trace trace_clock"
	    " trace_marker trace_pipe tracing_on; do touch $f; done", NULL);
	cr_assert_eq(status, 0, "%s", err);
	/* Into a pipe or a file: one name per line, as POSIX ls. */
	expect("ls /d | head -n 2", NULL, "available_events\nbuffer_size_kb\n", "", 0);
	/* On a terminal: sorted down the columns, each as wide as its longest name plus two. */
	host_stdout_tty = true;
	expect("ls /d", NULL,
	       "available_events  events       kprobe_events  set_event    trace_marker\n"
	       "buffer_size_kb    free_buffer  options        trace        trace_pipe\n"
	       "current_tracer    instances    per_cpu        trace_clock  tracing_on\n", "", 0);
	expect("export COLUMNS=40; ls /d", NULL,
	       "available_events  per_cpu\n"
	       "buffer_size_kb    set_event\n"
	       "current_tracer    trace\n"
	       "events            trace_clock\n"
	       "free_buffer       trace_marker\n"
	       "instances         trace_pipe\n"
	       "kprobe_events     tracing_on\n"
	       "options\n", "", 0);
	expect("ls -1 /d | head -n 1", NULL, "available_events\n", "", 0);
	/* Operands: files first (in columns too), then each directory under a header. */
	expect("mkdir /e; touch /e/x; ls /e /d/trace /d/events", NULL, "/d/events  /d/trace\n\n/e:\nx\n", "", 0);
	host_stdout_tty = false;
	expect("ls -C /d | head -n 1", NULL,
	       "available_events  events       kprobe_events  set_event    trace_marker\n", "", 0);
	expect("clear", NULL, "\x1b[H\x1b[2J\x1b[3J", "", 0);
}

TestSuite(complete, .init = sh_setup, .fini = sh_teardown);

/* Type keys into an editor whose prompt is "$ "; the line and the echo. */
static char *complete_echo;
static char *completed(const char *keys)
{
	struct sh_line l;
	char *line;

	sh_line_init(&l);
	strcpy(l.prompt, "$ ");
	free(complete_echo);
	feed(&l, keys, &complete_echo);
	line = strndup(l.buf, l.len);
	sh_line_free(&l);
	return line;
}

#define expect_completion(keys, want) do {					\
	char *got_ = completed(keys);						\
	cr_expect_str_eq(got_, want, "keys %s, echo [%s]", #keys, complete_echo);	\
	free(got_);								\
} while (0)

Test(complete, file_names)
{
	run("mkdir -p /t/events/sched/sched_switch /t/events/sched/sched_wakeup /t/.hid /t/one\\ word"
	    " && echo > /t/tracing_on && echo > /t/tracing_cpumask && echo > /t/set_event", NULL);
	cr_assert_eq(status, 0, "%s", err);
	/* One candidate: completed whole, "/" after a directory, a space after a file. */
	expect_completion("cat /t/ev\t", "cat /t/events/");
	expect_completion("cat /t/ev\ts\tsched_s\t", "cat /t/events/sched/sched_switch/");
	expect_completion("cat /t/se\t", "cat /t/set_event ");
	/* Several: their common prefix, then a second Tab lists them and redraws the line. */
	expect_completion("echo 1 > /t/trac\t", "echo 1 > /t/tracing_");
	expect_completion("echo 1 > /t/trac\t\t", "echo 1 > /t/tracing_");
	cr_expect(strstr(complete_echo, "\r\ntracing_cpumask  tracing_on\r\n$ echo 1 > /t/tracing_"),
		  "echo [%s]", complete_echo);
	/* Relative to the cwd; in the middle of a line; dot files only when asked. */
	expect_completion("cd /t; ls /t/events/sched/sched_w\t", "cd /t; ls /t/events/sched/sched_wakeup/");
	expect_completion("ls /t/.h\t", "ls /t/.hid/");
	expect_completion("ls /t/o\t", "ls /t/one\\ word/");
	expect_completion("ls /t/x/t\tz", "ls /t/x/tz");
	/* Tab never inserts itself, with or without a match; no match rings the bell. */
	expect_completion("\t", "");
	expect_completion("ls /t/nothing\t", "ls /t/nothing");
	cr_expect(strchr(complete_echo, '\a'));
	free(complete_echo);
	complete_echo = NULL;
}

TestSuite(cmds, .init = sh_setup, .fini = sh_teardown);

Test(cmds, grep)
{
	const char *in = "sched_switch\nsched_wakeup\nirq_handler_entry\nSched_x\n";

	expect("grep wake", in, "sched_wakeup\n", "", 0);
	expect("grep -c sched", in, "2\n", "", 0);
	expect("grep -v sched", in, "irq_handler_entry\nSched_x\n", "", 0);
	expect("grep -i '^sched'", in, "sched_switch\nsched_wakeup\nSched_x\n", "", 0);
	expect("grep -E 'switch|entry'", in, "sched_switch\nirq_handler_entry\n", "", 0);
	expect("grep -o '_[a-z]*$'", in, "_switch\n_wakeup\n_entry\n_x\n", "", 0);
	expect("grep -q nothing; echo $?", in, "1\n", "", 0);
	expect("grep -q irq && echo yes", in, "yes\n", "", 0);
	expect("grep -w sched", "sched x\nsched_y\n", "sched x\n", "", 0);
	expect("grep -n b", "a\nb\n", "2:b\n", "", 0);
	expect("grep -F 'a.b'", "a.b\naxb\n", "a.b\n", "", 0);
	expect("grep '('", "f(x)\n", "f(x)\n", "", 0);
	expect("grep -E '('", "", "", "grep: unmatched ( or \\(\n", 2);
	expect("grep x /none", "", "", "grep: /none: No such file or directory\n", 2);
}

Test(cmds, grep_fixed)
{
	const char *in = "f(x)\nfx\na.b\naxb\n1+2\n12\nx|y\nx\\y\n[a]*\na\n^$\n";

	expect("grep -F 'f(x)'", in, "f(x)\n", "", 0);
	expect("grep -F -e a.b -e + -e '|'", in, "a.b\n1+2\nx|y\n", "", 0);
	expect("grep -F '[a]*'", in, "[a]*\n", "", 0);
	expect("grep -F '\\'", in, "x\\y\n", "", 0);
	expect("grep -cF '^$'", in, "1\n", "", 0);
	expect("grep -oF '(x)'", in, "(x)\n", "", 0);
	expect("grep -F -E 'a|b'", in, "", "", 1);
	expect("grep -xF a", in, "", "grep: invalid option -- 'x'\n", 2);
}

Test(cmds, grep_context)
{
	const char *in = "a1\nb\nc\nd\na2\ne\nf\ng\nh\na3\na4\ni\n";

	expect("grep -A1 a", in, "a1\nb\n--\na2\ne\n--\na3\na4\ni\n", "", 0);
	expect("grep -B2 a", in, "a1\n--\nc\nd\na2\n--\ng\nh\na3\na4\n", "", 0);
	expect("grep -nC1 a", in, "1:a1\n2-b\n--\n4-d\n5:a2\n6-e\n--\n9-h\n10:a3\n11:a4\n12-i\n", "", 0);
	expect("grep -C 9 a", in, in, "", 0);
	expect("grep -A 0 a", in, "a1\n--\na2\n--\na3\na4\n", "", 0);
	expect("grep -B1 -v '[a-h]'", in, "a4\ni\n", "", 0);
	expect("grep -c -A1 a", in, "4\n", "", 0);
	expect("grep -q -A1 a && echo yes", in, "yes\n", "", 0);
	expect("grep -o -A1 '[0-9]'", in, "1\n2\n3\n4\n", "", 0);
	expect("printf 'x\\nm\\n' > /tmp/g2; grep -A1 -e a -e m - /tmp/g2", in,
	       "(standard input):a1\n(standard input)-b\n--\n(standard input):a2\n(standard input)-e\n"
	       "--\n(standard input):a3\n(standard input):a4\n(standard input)-i\n--\n/tmp/g2:m\n", "", 0);
	expect("grep -A x a", in, "", "grep: x: invalid context length argument\n", 2);
	expect("grep -C -1 a", in, "", "grep: -1: invalid context length argument\n", 2);
	/* -m N: N selected lines (and the last one's -A context), outputs as GNU grep's */
	expect("grep -m1 a", in, "a1\n", "", 0);
	expect("grep -m2 -A1 a", in, "a1\nb\n--\na2\ne\n", "", 0);
	expect("grep -c -m3 a", in, "3\n", "", 0);
	expect("grep -m0 a", in, "", "", 1);
	expect("grep -m 2 -v a", in, "b\nc\n", "", 0);
	expect("grep -m x a", in, "", "grep: invalid max count\n", 2);
}

Test(cmds, sed)
{
	expect("sed 's/a/b/'", "aaa\n", "baa\n", "", 0);
	expect("sed 's/a/b/g'", "aaa\n", "bbb\n", "", 0);
	expect("sed -n 's/x/y/p'", "a\nx\n", "y\n", "", 0);
	expect("sed -e 's/\\(.*\\)=\\(.*\\)/\\2=\\1/'", "k=v\n", "v=k\n", "", 0);
	expect("sed 's|/|_|g'", "a/b/c\n", "a_b_c\n", "", 0);
	expect("sed 's/[0-9]\\+/<&>/g'", "a12b3\n", "a<12>b<3>\n", "", 0);
	expect("sed -E 's/(a|b)+/X/'", "caabd\n", "cXd\n", "", 0);
	expect("sed 's/x*/-/g'", "abc\n", "-a-b-c-\n", "", 0);
	expect("sed '2d'", "1\n2\n3\n", "1\n3\n", "", 0);
	expect("sed '/^#/d; s/^/> /'", "# c\nx\n", "> x\n", "", 0);
	expect("sed -n '$p'", "1\n2\n", "2\n", "", 0);
	expect("sed 2q", "1\n2\n3\n", "1\n2\n", "", 0);
	expect("sed 's/a/b/2'", "aaa\n", "aba\n", "", 0);
	expect("sed 's/a/b'", "", "", "sed: -e expression: unterminated 's' command\n", 1);
	expect("sed 'k'", "", "", "sed: -e expression: unknown command: 'k'\n", 1);
	/* chmod: octal, symbolic clauses, errors */
	expect("touch /c; chmod 750 /c; ls -l /c | cut -c1-10", NULL, "-rwxr-x---\n", "", 0);
	expect("chmod go+r,u-w /c; ls -l /c | cut -c1-10", NULL, "-r-xr-xr--\n", "", 0);
	expect("chmod a=rw /c; ls -l /c | cut -c1-10; chmod +x /c; ls -l /c | cut -c1-10", NULL,
	       "-rw-rw-rw-\n-rwxrwxrwx\n", "", 0);
	expect("chmod 9 /c", NULL, "", "chmod: invalid mode: '9'\n", 1);
	expect("chmod u*x /c", NULL, "", "chmod: invalid mode: 'u*x'\n", 1);
	expect("chmod +x /nope", NULL, "", "chmod: /nope: No such file or directory\n", 1);
	/* ranges (outputs as GNU sed's) and ! */
	expect("sed -n '/^not ok/,/^ok/p'", "a\nnot ok 1\nb\nok 2\nc\nnot ok 3\nd\n",
	       "not ok 1\nb\nok 2\nnot ok 3\nd\n", "", 0);
	expect("sed -n '2,4p'", "1\n2\n3\n4\n5\n", "2\n3\n4\n", "", 0);
	expect("sed '3,1d'", "1\n2\n3\n4\n", "1\n2\n4\n", "", 0);
	expect("sed -n '/2/,$p'", "1\n2\n3\n", "2\n3\n", "", 0);
	expect("sed '2,3!d'", "1\n2\n3\n4\n", "2\n3\n", "", 0);
	expect("sed -n '/a/,/a/p'", "a\na\nb\na\n", "a\na\na\n", "", 0);
	expect("sed '1,d'", "", "", "sed: -e expression: unexpected ','\n", 1);
}

Test(cmds, sort_uniq_cut_tr)
{
	expect("sort", "b\na\nc\n", "a\nb\nc\n", "", 0);
	expect("sort -r", "b\na\nc\n", "c\nb\na\n", "", 0);
	expect("sort -n", "10\n9\n-1\n", "-1\n9\n10\n", "", 0);
	expect("sort -u", "b\na\nb\n", "a\nb\n", "", 0);
	expect("sort -k 2 -n", "x 3\ny 1\nz 2\n", "y 1\nz 2\nx 3\n", "", 0);
	expect("sort -t: -k2", "a:z\nb:y\n", "b:y\na:z\n", "", 0);
	expect("uniq", "a\na\nb\na\n", "a\nb\na\n", "", 0);
	expect("uniq -c", "a\na\nb\n", "      2 a\n      1 b\n", "", 0);
	expect("cut -d: -f2", "a:b:c\nnone\n", "b\nnone\n", "", 0);
	expect("cut -d' ' -f1,3", "1 2 3 4\n", "1 3\n", "", 0);
	expect("cut -d, -f2-", "a,b,c\n", "b,c\n", "", 0);
	expect("cut -c2-3", "abcd\n", "bc\n", "", 0);
	expect("cut", "", "", "cut: you must specify a list of fields or characters\n", 2);
	expect("tr a-z A-Z", "hello\n", "HELLO\n", "", 0);
	expect("tr -d ' '", "a b c\n", "abc\n", "", 0);
	expect("tr -s ' '", "a   b\n", "a b\n", "", 0);
	expect("tr '\\n' ,", "a\nb\n", "a,b,", "", 0);
	expect("tr -dc 0-9", "Hello, World 42!\n", "42", "", 0);
	expect("tr -dc '[:alpha:]\\n'", "Hello, World 42!\n", "HelloWorld\n", "", 0);
	expect("tr -cs a-z '\\n'", "one  two,,three\n", "one\ntwo\nthree\n", "", 0);
	expect("tr -s a-c", "aabbccdd\n", "abcdd\n", "", 0);
	expect("tr -s ab xy", "aabbccdd\n", "xyccdd\n", "", 0);
	expect("tr -ds - .", "a--b..c\n", "ab.c\n", "", 0);
	expect("tr -c a X", "abc\n", "aXXX", "", 0);
	expect("tr -C 'ab\\n' _", "abc\n", "ab_\n", "", 0);
	expect("tr '\\011' ' '", "a\tb\n", "a b\n", "", 0);
	expect("tr '[:punct:]' '#'", "a;b\n", "a#b\n", "", 0);
	expect("tr '[:lower:]0-9' '[:upper:]X'", "cafe9\n", "CAFEX\n", "", 0);
	expect("tr '[:lower:][:xdigit:]' '[:upper:]X'", "cafe9\n", "XXXXX\n", "", 0);
	expect("tr a ''", "x\n", "", "tr: when not truncating set1, string2 must be non-empty\n", 1);
	expect("tr -d a b", "x\n", "", "tr: extra operand\ntr: usage: tr [-cds] SET1 [SET2]\n", 1);
	expect("tr a", "x\n", "", "tr: missing operand\ntr: usage: tr [-cds] SET1 [SET2]\n", 1);
}

Test(cmds, wc_head_tail_seq)
{
	expect("wc -l", "a\nb\n", "2\n", "", 0);
	expect("wc -w", "one two  three\n", "3\n", "", 0);
	expect("wc -c", "abc", "3\n", "", 0);
	expect("wc", "a b\n", "      1       2       4\n", "", 0);
	expect("seq 3 | head -n 2", NULL, "1\n2\n", "", 0);
	expect("seq 5 | tail -n 2", NULL, "4\n5\n", "", 0);
	expect("seq 5 | head -2", NULL, "1\n2\n", "", 0);
	expect("seq 2 2 7", NULL, "2\n4\n6\n", "", 0);
	expect("seq 3 -1 1", NULL, "3\n2\n1\n", "", 0);
	expect("seq 0 | wc -l", NULL, "0\n", "", 0);
	expect("seq x", NULL, "", "seq: invalid number: 'x'\n", 2);
	expect("tail -n 0", "a\n", "", "", 0);
	expect("tail -c 8", "ffffffff80148cd0\n", "0148cd0\n", "", 0);
	expect("tail -c 3", "ab", "ab", "", 0);
}

Test(cmds, printf_echo_test)
{
	expect("printf '%s-%d|%5s|%-3d|%x\\n' a 42 r 7 255", NULL, "a-42|    r|7  |ff\n", "", 0);
	expect("printf '%s\\n' a b c", NULL, "a\nb\nc\n", "", 0);
	expect("printf '%03d %c %%\\n' 5 xyz", NULL, "005 x %\n", "", 0);
	expect("printf '%b' 'x\\ty\\n'", NULL, "x\ty\n", "", 0);
	expect("printf '\\101\\n'", NULL, "A\n", "", 0);
	expect("printf '%d\\n' abc", NULL, "0\n", "printf: 'abc': expected a numeric value\n", 1);
	expect("printf '[%*d][%-*s][%.*s][%*s][%5c][%-3c][%.*d][%*d]\\n' 5 3 4 ab 2 xyz -4 l q r -1 7 '' 9",
	       NULL, "[    3][ab  ][xy][l   ][    q][r  ][7][9]\n", "", 0);
	expect("printf '%*d|' 3 1 4 2", NULL, "  1|   2|", "", 0);
	/* trace_marker.tc writes `printf -- 'X%.0s' $(seq N)`. */
	expect("printf -- 'X%.0s' 1 2 3; printf -- '--\\n'", NULL, "XXX--\n", "", 0);
	expect("printf '%0*x|%-+*d|' 4 255 5 7", NULL, "00ff|+7   |", "", 0);
	expect("printf '%*d' x 1", NULL, "1", "printf: 'x': expected a numeric value\n", 1);
	expect("printf '%*d|' 1000000 1", NULL, "1|",
	       "printf: 1000000: field width or precision out of range\n", 1);
	expect("printf '%.9999999s|' abc", NULL, "|",
	       "printf: 9999999: field width or precision out of range\n", 1);
	expect("echo -e 'a\\cb'", NULL, "a", "", 0);
	expect("echo -x", NULL, "-x\n", "", 0);
	expect("[ 1 -lt 2 ] && [ a = a ] && [ -n x ] && [ -z '' ] && echo ok", NULL, "ok\n", "", 0);
	expect("[ 2 -lt 1 ] || [ a != a ] || echo no", NULL, "no\n", "", 0);
	expect("test ! -e /nope -a -d /tmp && echo ok", NULL, "ok\n", "", 0);
	expect("[ \\( 1 -eq 2 \\) -o 1 -eq 1 ]; echo $?", NULL, "0\n", "", 0);
	expect("[ x -eq 1 ]", NULL, "", "test: x: integer expression expected\n", 2);
	expect("[ 1 = 1", NULL, "", "[: missing ']'\n", 2);
	expect("test; echo $?", NULL, "1\n", "", 0);
	expect("[ -f /tmp ] || [ -d /tmp ] && echo dir", NULL, "dir\n", "", 0);
	/* -t FD: is it a terminal (the fixture's stdout only when it says so) */
	expect("[ -t 1 ]; echo $?; [ -t 1 -a 0 -ge 8 ]; echo $?", NULL, "1\n1\n", "", 0);
	host_stdout_tty = true;
	expect("[ -t 1 ]; echo $?; [ -t 0 ]; echo $?", NULL, "0\n1\n", "", 0);
	host_stdout_tty = false;
	expect("[ -t x ]", NULL, "", "test: x: integer expression expected\n", 2);
}

Test(cmds, date)
{
	/* The host's clock reads 1 s after boot, and sleep moves it. */
	expect("date", NULL, "Thu Jan  1 00:00:01 UTC 1970\n", "", 0);
	expect("date -u '+%F %T.%N|%s|%j|%D|%c|%I %p|%u %w|%y %C|%Q|%%'", NULL,
	       "1970-01-01 00:00:01.000000000|1|001|01/01/70|Thu Jan  1 00:00:01 1970|12 AM|4 4|70 19|%Q|%\n",
	       "", 0);
	expect("sleep 5097599.5; date '+%F %T.%N %a %A %b %B %e %k %l %R %z %Z'", NULL,
	       "1970-03-01 00:00:00.500000000 Sun Sunday Mar March  1  0 12 00:00 +0000 UTC\n", "", 0);
	/* The clock keeps its time between the scripts of one test: 39657600.5 s, then a leap day. */
	expect("sleep 34560000; date '+%F %j %a %H'", NULL, "1971-04-05 095 Mon 00\n", "", 0);
	expect("sleep 28555199.5; date '+%F %j %a %T'; sleep 86400; date '+%F %j'", NULL,
	       "1972-02-29 060 Tue 12:00:00\n1972-03-01 061\n", "", 0);
	expect("date x", NULL, "", "date: extra operand 'x'\n", 1);
	expect("date -s 1", NULL, "", "date: invalid option -- 's'\n", 1);
}

Test(cmds, stat)
{
	expect("printf hello > /tmp/f; mkdir /tmp/d; stat -c '%n|%s|%b|%B|%o|%a|%04a|%A|%f|%F|%h|%U|%g|%W|%w|%Q|%%|%-6s|%5h|' /tmp/f /tmp/d",
	       NULL, "/tmp/f|5|1|512|4096|644|0644|-rw-r--r--|81a4|regular file|1|root|0|0|-|?|%|5     |    1|\n"
	       "/tmp/d|0|0|512|4096|755|0755|drwxr-xr-x|41ed|directory|1|root|0|0|-|?|%|0     |    1|\n", "", 0);
	expect("stat -c '%F %A' /dev/null", NULL, "character special file crw-r--r--\n", "", 0);
	expect("stat /nope", NULL, "", "stat: cannot stat '/nope': No such file or directory\n", 1);
	expect("stat", NULL, "", "stat: missing operand\nstat: usage: stat [-c FORMAT] FILE...\n", 1);
}

Test(cmds, ln_readlink)
{
	/* The tree lives for the whole test: made once, read by each script. */
	expect("mkdir -p /tmp/d/e; echo x > /tmp/d/f; ln -s /tmp/d /tmp/abs; ln -s d/e /tmp/rel; "
	       "ln -s ../f /tmp/d/e/up; ln -s loop1 /tmp/loop2; ln -s loop2 /tmp/loop1", NULL, "", "", 0);
	expect("readlink /tmp/abs /tmp/rel /tmp/d/e/up", NULL, "/tmp/d\nd/e\n../f\n", "", 0);
	expect("readlink /tmp/d; echo $?", NULL, "1\n", "", 0);
	expect("readlink -n /tmp/abs", NULL, "/tmp/d", "", 0);
	/* .. after a link leaves the link's target, not the link's directory. */
	expect("readlink -f /tmp/abs /tmp/rel/up /tmp//rel/./../../abs/e/new /tmp/rel/../e", NULL,
	       "/tmp/d\n/tmp/d/f\n/tmp/d/e/new\n/tmp/d/e\n", "", 0);
	expect("readlink -f /tmp/rel/../abs", NULL, "/tmp/d/abs\n", "", 0);
	expect("readlink -e /tmp/rel/../abs; echo $?; readlink -vq /tmp/d", NULL, "1\n", "", 1);
	expect("cd /tmp/d/e; readlink -f up ../../rel", NULL, "/tmp/d/f\n/tmp/d/e\n", "", 0);
	expect("readlink -vf /tmp/nodir/x", NULL, "", "readlink: /tmp/nodir/x: No such file or directory\n", 1);
	expect("readlink -v -e /tmp/abs/new", NULL, "", "readlink: /tmp/abs/new: No such file or directory\n", 1);
	expect("readlink -fv /tmp/d/f/x", NULL, "", "readlink: /tmp/d/f/x: Not a directory\n", 1);
	expect("readlink -vf /tmp/loop1", NULL, "", "readlink: /tmp/loop1: Too many levels of symbolic links\n", 1);
	expect("ln -s /x /tmp/d", NULL, "", "", 0);
	expect("readlink /tmp/d/x", NULL, "/x\n", "", 0);
	expect("ln -s /x /tmp/rel; echo $?; ln -sf /x /tmp/rel; readlink /tmp/rel", NULL, "1\n/x\n",
	       "ln: /tmp/rel: File exists\n", 0);
	expect("ln /tmp/d/f /tmp/h", NULL, "", "ln: hard links are not supported: use ln -s\n", 1);
	expect("[ -L /tmp/abs ] && [ -h /tmp/rel ] && ! [ -L /tmp/d ] && ! [ -L /tmp/none ] && echo yes", NULL,
	       "yes\n", "", 0);
	expect("ls -l /tmp/abs; ls -l /tmp | grep rel", NULL,
	       "lrwxrwxrwx  1 root root        6 /tmp/abs -> /tmp/d\nlrwxrwxrwx  1 root root        2 rel -> /x\n", "", 0);
	expect("find /tmp -name 'loop*' | sort; find /tmp/abs", NULL, "/tmp/loop1\n/tmp/loop2\n/tmp/abs\n", "", 0);
	/* rm takes the link away, never what it points to. */
	expect("rm /tmp/abs; rm -r /tmp/rel; ls /tmp/d", NULL, "e\nf\nx\n", "", 0);
	expect("readlink", NULL, "", "readlink: missing operand\n", 1);
}

Test(cmds, files)
{
	expect("mkdir -p /tmp/a/b/c && ls /tmp/a/b", NULL, "c\n", "", 0);
	expect("mkdir /tmp/a", NULL, "", "mkdir: /tmp/a: File exists\n", 1);
	expect("echo hi > /tmp/a/f; cp /tmp/a/f /tmp/a/g; cat /tmp/a/g", NULL, "hi\n", "", 0);
	expect("cp /tmp/a/f /tmp/a/b; cat /tmp/a/b/f", NULL, "hi\n", "", 0);
	expect("rmdir /tmp/a/b", NULL, "", "rmdir: /tmp/a/b: Directory not empty\n", 1);
	expect("rm /tmp/a", NULL, "", "rm: /tmp/a: Is a directory\n", 1);
	expect("rm -r /tmp/a && ls /tmp", NULL, "", "", 0);
	expect("rm -f /tmp/nope; echo $?", NULL, "0\n", "", 0);
	expect("ls -l /dev", NULL, "crw-r--r--  1 root root        0 null\n", "", 0);
	expect("ls -a /tmp", NULL, ".\n..\n", "", 0);
	expect("ls /nope", NULL, "", "ls: /nope: No such file or directory\n", 1);
	host_put_file("/tmp/x", "1\n2\n3\n");
	host_put_file("/tmp/y", "1\n3\n4\n");
	expect("diff /tmp/x /tmp/x", NULL, "", "", 0);
	expect("diff /tmp/x /tmp/y", NULL, "2d1\n< 2\n3a3\n> 4\n", "", 1);
	expect("echo t | tee /tmp/t1 /tmp/t2; cat /tmp/t2; echo u | tee -a /tmp/t2 >/dev/null; cat /tmp/t2",
	       NULL, "t\nt\nt\nu\n", "", 0);
}

Test(cmds, system)
{
	expect("nproc", NULL, "4\n", "", 0);
	expect("sleep 1.5; uptime", NULL, "up 0:00:02.50\n", "", 0);
	expect("sleep x", NULL, "", "sleep: invalid time interval 'x'\n", 2);
	expect("dmesg | head -n 1", NULL, "[    0.000000] Spoor booting\n", "", 0);
	expect("kill 999", NULL, "", "kill: (999) - No such process\n", 1);
	expect("poweroff", NULL, "", "poweroff: Operation not permitted\n", 1);
	cr_expect(host_poweroff_called);
	run("ps", NULL);
	cr_expect(strstr(out, "PID  PPID") != NULL);
	cr_expect(strstr(out, " ps\n") != NULL);
	run("help", NULL);
	cr_expect(strstr(out, "grep [-qcvEwoinlhF]") != NULL);
}
