/*
 * Unit tests of awk (kernel/cmds/awk/), run through the shell on the host:
 * the programs of Linux's ftracetest, then each part of the language.
 * Expected outputs are POSIX awk's (checked against mawk and busybox awk
 * where those agree with POSIX).
 */
#define _GNU_SOURCE
/* uses: kernel/cmds/ kernel/cmds/awk/ kernel/shell/regex.c kernel/shell/regex_longest.c kernel/shell/sh_arena.c kernel/shell/sh_arith.c kernel/shell/sh_buf.c kernel/shell/sh_builtin.c kernel/shell/sh_escape.c kernel/shell/sh_exec.c kernel/shell/sh_path.c kernel/shell/sh_expand.c kernel/shell/sh_interactive.c kernel/shell/sh_io.c kernel/shell/sh_lex.c kernel/shell/sh_line.c kernel/shell/sh_complete.c kernel/shell/sh_main.c kernel/shell/sh_match.c kernel/shell/sh_parse.c kernel/shell/sh_time.c kernel/shell/sh_trap.c kernel/shell/sh_util.c kernel/shell/sh_var.c kernel/shell/sh_table.c tests/host/sh_os_host.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <stdio.h>
#include <string.h>
#include <kernel/errno.h>
#include <criterion/criterion.h>
#include <kernel/shell/sh.h>
#include <kernel/cmds/cmds.h>
#include "tests/unit/sh_fixture.h"

TestSuite(awk, .init = sh_setup, .fini = sh_teardown);

#define TRACE \
	"# tracer: nop\n" \
	"  sh-12 [000] ..... 1.000100: sched_switch: prev_comm=sh\n" \
	"  sh-12 [000] ..... 1.000200: tracing_mark_write: hello world\n" \
	"  sh-12 [001] ..... 1.000300: sched_wakeup: comm=sh\n" \
	"  sh-12 [001] ..... 1.000400: sched_switch: prev_comm=sh\n" \
	"  sh-12 [001] ..... 1.000500: sched_waking: comm=sh\n" \
	"  sh-12 [001] ..... 1.000600: tracing_mark_write: second\n"

Test(awk, ftracetest_programs)
{
	/* 00basic/trace_marker.tc and ringbuffer_subbuf_size.tc */
	expect("awk ' /tracing_mark_write:/ { sub(/^.*tracing_mark_write: /,\"\");printf \"%s\", $0; exit}'",
	       TRACE, "hello world", "", 0);
	expect("awk ' /tracing_mark_write:/ { sub(/^.*tracing_mark_write: /,\"\");printf \"%s\", $0; }'",
	       TRACE, "hello worldsecond", "", 0);
	/* event/subsystem-enable.tc's check_unique */
	expect("grep -v '^#' | awk '\n"
	       "\tBEGIN { cnt = 0; }\n"
	       "\t{\n"
	       "\t    for (i = 0; i < cnt; i++) {\n"
	       "\t\tif (event[i] == $5) {\n"
	       "\t\t    break;\n"
	       "\t\t}\n"
	       "\t    }\n"
	       "\t    if (i == cnt) {\n"
	       "\t\tevent[cnt++] = $5;\n"
	       "\t\tif (cnt > 2) {\n"
	       "\t\t    exit;\n"
	       "\t\t}\n"
	       "\t    }\n"
	       "\t}\n"
	       "\tEND {\n"
	       "\t    printf \"%d\", cnt;\n"
	       "\t}'", TRACE, "3", "", 0);
	expect("awk '{ print $5 }' | sort -u | wc -l", TRACE, "5\n", "", 0);
	/* dynevent/add_remove_uprobe.tc, trigger-hist-expressions.tc */
	expect("awk '{printf \"p:myevent %s:0x%s\\n\", $6,$3 }'",
	       "55d0-55e0 r-xp 00001000 08:01 12 /bin/sh\n", "p:myevent /bin/sh:0x00001000\n", "", 0);
	expect("awk -F= '{ print $2 }'", "x=12\ny=\n", "12\n\n", "", 0);
}

Test(awk, fields_and_records)
{
	expect("awk '{ print $2 }'", "  a b c\nd e\n", "b\ne\n", "", 0);
	expect("awk '{print $NF, NF, NR, $(NF-1)}'", "a b c\nd e\n", "c 3 1 b\ne 2 2 d\n", "", 0);
	expect("awk '{ $2 = \"X\"; print; print NF }'", "a b c\n", "a X c\n3\n", "", 0);
	expect("awk '{ $5 = \"e\"; print; print NF }'", "a b\n", "a b   e\n5\n", "", 0);
	expect("awk '{ NF = 2; print } END { print NR }'", "a b c d\n", "a b\n1\n", "", 0);
	expect("awk 'BEGIN { OFS = \"-\" } { $1 = $1; print }'", "a  b\tc\n", "a-b-c\n", "", 0);
	expect("awk 'BEGIN { $0 = \"x y z\"; print NF, $3 }'", "", "3 z\n", "", 0);
	expect("awk 'BEGIN { FS = \"\\t\" } { print $2 }'", "a b\tc d\te\n", "c d\n", "", 0);
	expect("awk -F '[0-9]+' '{ print $2, NF }'", "ab12cd345ef\n", "cd 3\n", "", 0);
	expect("awk -F, '{ print NF \":\" $3 }'", "a,,c,\n", "4:c\n", "", 0);
	expect("awk '{ print NF }'", "\n   \n", "0\n0\n", "", 0);
	/* A new FS applies from the next record on. */
	expect("awk '{ FS = \":\"; print $1 }'", "a:b c\nd:e f\n", "a:b\nd\n", "", 0);
	expect("awk 'BEGIN { RS = \"\" } { print NR \": \" $1 \"|\" $NF }'",
	       "\n\na b\nc\n\n\nd e\nf\n\n", "1: a|c\n2: d|f\n", "", 0);
	expect("awk 'BEGIN { RS = \";\" } { print }'", "a;b;c", "a\nb\nc\n", "", 0);
	expect("awk '{ print length }'", "hello\n", "5\n", "", 0);
	expect("awk 'END { print $0, NF }'", "a b\nc d e\n", "c d e 3\n", "", 0);
	expect("awk '{ print $-1 }'", "a\n", "", "awk: line 1: field $-1: a field number must not be negative\n", 2);
}

Test(awk, patterns)
{
	expect("awk '/^#/ { print } /x/ { print $9 }'", "# h\nx y\n", "# h\n\n", "", 0);
	expect("awk 'NR % 2'", "1\n2\n3\n", "1\n3\n", "", 0);
	expect("awk '!seen[$0]++'", "a\nb\na\nc\nb\n", "a\nb\nc\n", "", 0);
	expect("awk 'NR == 2, NR == 3 { print NR \": \" $0 }'", "1\n2\n3\n4\n", "2: 2\n3: 3\n", "", 0);
	expect("awk '/a/,/c/'", "x\na\nb\nc\nd\na\n", "a\nb\nc\na\n", "", 0);
	expect("awk '$1 ~ \"^a\" { print \"m\", $0 } $1 !~ /^a/ { print \"n\", $0 }'", "abc\nbcd\n",
	       "m abc\nn bcd\n", "", 0);
	expect("awk 'END { print \"e\" } BEGIN { print \"b\" } { print }'", "x\n", "b\nx\ne\n", "", 0);
	expect("awk 'BEGIN{x=1}{print x}'", "l\n", "1\n", "", 0);
}

Test(awk, numbers_and_comparisons)
{
	expect("awk 'BEGIN { print 7/2, 1/3, 2^10, -7%3, 10.5 % 3, 100/3, -3/2, int(-3.7), 2**3 }'", "",
	       "3.5 0.333333 1024 -1 1.5 33.3333 -1.5 -3 8\n", "", 0);
	expect("awk 'BEGIN { print 1e6, 123456789012, 0.1+0.2, 017, 1.5e3, .5, 5. }'", "",
	       "1000000 123456789012 0.3 17 1500 0.5 5\n", "", 0);
	expect("awk 'BEGIN { print -2^2, 2^3^2, 2^-1, 2^0.5, 7 - - 1 }'", "", "-4 512 0.5 1.41421 8\n", "", 0);
	expect("awk 'function f(n) { return n <= 1 ? 1 : n * f(n-1) } BEGIN { print f(20) }'", "",
	       "2432902008176640000\n", "", 0);
	/* Timestamps keep their microseconds. */
	expect("awk '{ sub(/:$/, \"\", $4); if (NR > 1) printf \"%.6f\\n\", $4 - t; t = $4 }'",
	       "a b c 1234.000100:\na b c 1234.000350:\n", "0.000250\n", "", 0);
	/* Strings that look numeric compare as numbers; constants as they are. */
	expect("awk '{ print ($1 > $2), ($1 == 3) }'", "10 9\nabc abd\n3.0 x\n", "1 0\n0 0\n0 1\n", "", 0);
	expect("awk 'BEGIN { x = \"10\"; y = 9; print (x > y), (\"10\" > \"9\"), (x+0 > y), (\"a\" < \"b\") }'", "",
	       "0 0 1 1\n", "", 0);
	expect("awk 'BEGIN { print x+0, x \"\", length(x); if (x == 0 && x == \"\") print \"both\" }'", "",
	       "0  0\nboth\n", "", 0);
	expect("awk 'BEGIN { CONVFMT = \"%.2f\"; a = 3.14159; b = a \"\"; print b; OFMT = \"%.1f\"; print a, 17 }'",
	       "", "3.14\n3.1 17\n", "", 0);
	expect("awk 'BEGIN { x = 5; x += 2; x -= 1; x *= 3; x /= 2; x %= 5; x ^= 2; print x; y++; ++y; print y--, y }'",
	       "", "16\n2 1\n", "", 0);
	expect("awk 'BEGIN { print 1/0 }'", "", "", "awk: line 1: division by zero\n", 2);
}

/* exp, log, sin, cos, atan2 in fixed point: mawk's digits (doubles) to nine places. */
Test(awk, math_functions)
{
	expect("awk 'BEGIN { printf \"%.6f %.6f %.6f %.6f %.6f %.6f\\n\", exp(1), log(10), sin(1), cos(1), atan2(1, 1) * 4, atan2(-1, -1) }'",
	       "", "2.718282 2.302585 0.841471 0.540302 3.141593 -2.356194\n", "", 0);
	expect("awk 'BEGIN { print exp(1), log(2), cos(0), atan2(1, 0), exp(-1), exp(20), log(0.001) }'", "",
	       "2.71828 0.693147 1 1.5708 0.367879 4.85165e+08 -6.90776\n", "", 0);
	/* exp, against mawk (doubles) */
	expect("awk 'BEGIN { n = split(\"-20 -5.5 -1 -0.001 0 0.5 1 2.302585093 10\", e, \" \"); for (i = 1; i <= n; i++) { printf \"%.9f\\n\", exp(e[i]) } }'", "",
	       "0.000000002\n0.004086771\n0.367879441\n0.999000500\n1.000000000\n1.648721271\n2.718281828\n10.000000000\n22026.465794807\n", "", 0);
	/* log, against mawk (doubles) */
	expect("awk 'BEGIN { n = split(\"0.000000001 0.001 0.5 1 2 2.718281828 10 1000000 123456789.123 100000000000000000000\", e, \" \"); for (i = 1; i <= n; i++) { printf \"%.9f\\n\", log(e[i]) } }'", "",
	       "-20.723265837\n-6.907755279\n-0.693147181\n0.000000000\n0.693147181\n1.000000000\n2.302585093\n13.815510558\n18.631401767\n46.051701860\n", "", 0);
	/* sin/cos, against mawk (doubles) */
	expect("awk 'BEGIN { n = split(\"-100 -3.5 -1 0 0.5 1.5707963 3 6.3 10 1000 123456.789\", e, \" \"); for (i = 1; i <= n; i++) { printf \"%.9f %.9f\\n\", sin(e[i]), cos(e[i]) } }'", "",
	       "0.506365641 0.862318872\n0.350783228 -0.936456687\n-0.841470985 0.540302306\n0.000000000 1.000000000\n0.479425539 0.877582562\n1.000000000 0.000000027\n0.141120008 -0.989992497\n0.016813900 0.999858636\n-0.544021111 -0.839071529\n0.826879541 0.562379076\n-0.998664082 0.051672533\n", "", 0);
	/* atan2, against mawk (doubles) */
	expect("awk 'BEGIN { n = split(\"1,1 1,-1 -1,-1 -1,1 0,-1 0,1 1,0 -1,0 3,4 1000000000,1 1,1000000000 0.000000001,1 -2.5,-0.75\", e, \" \"); for (i = 1; i <= n; i++) { split(e[i], p, \",\"); printf \"%.9f\\n\", atan2(p[1], p[2]) } }'", "",
	       "0.785398163\n2.356194490\n-2.356194490\n-0.785398163\n3.141592654\n0.000000000\n1.570796327\n-1.570796327\n0.643501109\n1.570796326\n0.000000001\n0.000000001\n-1.862253121\n", "", 0);
	/* Large results keep their leading digits; past awk's range exp saturates, far below it is 0. */
	expect("awk 'BEGIN { printf \"%.6e %.6e %.6e\\n\", exp(30), exp(45.5), exp(66); print (exp(68) > 1e29), exp(-68) }'",
	       "", "1.068647e+13 5.759688e+19 4.607187e+28\n1 0\n", "", 0);
	expect("awk 'BEGIN { print log(0) }'", "", "", "awk: line 1: log of a number not above zero\n", 2);
	expect("awk 'BEGIN { print log(-1) }'", "", "", "awk: line 1: log of a number not above zero\n", 2);
	expect("awk 'BEGIN { print atan2(0, 0), sin(0), exp(0), atan2(1) }'", "", "",
	       "awk: line 1, column 53: syntax error: wrong number of arguments to a built-in function\n"
	       "  BEGIN { print atan2(0, 0), sin(0), exp(0), atan2(1) }\n"
	       "                                                      ^\n", 2);
	expect("awk 'BEGIN { print atan2(0, 0), sin(0), exp(0), atan2(0, -1) }'", "", "0 0 1 3.14159\n", "", 0);
}

Test(awk, printf)
{
	expect("awk 'BEGIN { printf \"%5.2f|%-5d|%05d|%x|%X|%o|%u|%i\\n\", 3.14159, 42, 42, 255, 255, 8, 7, 2.9 }'",
	       "", " 3.14|42   |00042|ff|FF|10|7|2\n", "", 0);
	expect("awk 'BEGIN { printf \"%e|%g|%G|%g|%g|%.3e|%#x\\n\", 12345.678, 0.0001234, 1e20, 100000, 1000000, 0, 255 }'",
	       "", "1.234568e+04|0.0001234|1E+20|100000|1e+06|0.000e+00|0xff\n", "", 0);
	expect("awk 'BEGIN { printf \"%c%c%c|%10s|%-10s|%.3s|%+d|% d\\n\", 72, \"i!\", 256+33, \"hi\", \"hi\", \"abcdef\", 5, 5 }'",
	       "", "Hi!|        hi|hi        |abc|+5| 5\n", "", 0);
	expect("awk 'BEGIN { printf \"%*d|%-*d|%.*f|%d%%\\n\", 5, 42, 4, 7, 2, 3.14159, 50 }'", "",
	       "   42|7   |3.14|50%\n", "", 0);
	expect("awk 'BEGIN { printf \"%d %d %.0f %.0f %.1f\\n\", \"3abc\", -2.9, 2.5, 3.5, 0.25 }'", "",
	       "3 -2 2 4 0.2\n", "", 0);
	expect("awk 'BEGIN { x = sprintf(\"%5s|%-5s|\", \"ab\", \"cd\"); print x; printf(\"%s-%s\\n\", \"a\", \"b\") }'",
	       "", "   ab|cd   |\na-b\n", "", 0);
}

Test(awk, arrays)
{
	expect("awk 'BEGIN { x[\"a\"] = 1; x[\"b\"] = 2; delete x[\"a\"]; for (k in x) print k, x[k]; "
	       "print length(x); if (\"b\" in x) print \"yes\"; if (!(\"a\" in x)) print \"no\" }'", "",
	       "b 2\n1\nyes\nno\n", "", 0);
	expect("awk 'BEGIN { a[1, 2] = 3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }; "
	       "if ((1, 2) in a) print \"in\"; delete a; print length(a) }'", "", "1 2\nin\n0\n", "", 0);
	expect("awk 'BEGIN { x[1]; if (1 in x) print \"made\"; a[1] = 1; a = 2 }'", "", "made\n",
	       "awk: line 1: an array used as a scalar\n", 2);
	expect("awk 'BEGIN { n = split(\"  a  b  \", x); print n, x[1] x[2]; n = split(\"a1b22c\", y, /[0-9]+/); "
	       "print n, y[3]; n = split(\"\", z); print n, length(z); n = split(\"a:b\", w, \":\"); print w[2] }'", "",
	       "2 ab\n3 c\n0 0\nb\n", "", 0);
	/* The loop sees the keys as they were; deleted ones are skipped. */
	expect("awk 'BEGIN { a[1]; a[2]; a[3]; for (k in a) { delete a[3]; a[4]; n++ } print n, length(a) }'", "",
	       "2 3\n", "", 0);
}

Test(awk, control_flow)
{
	expect("awk 'BEGIN { while (i < 3) { i++; if (i == 2) continue; print i }; do { j++ } while (j < 5); print j }'",
	       "", "1\n3\n5\n", "", 0);
	expect("awk 'BEGIN { for (;;) if (++j > 3) break; print j; for (i = 0; i < 3; i++) s = s i; print s }'", "",
	       "4\n012\n", "", 0);
	expect("awk 'BEGIN { if (1) print \"x\"; else print \"y\"; if (0) print \"x\"\nelse\nprint \"z\" }'", "",
	       "x\nz\n", "", 0);
	expect("awk 'NR == 2 { next } { print }'", "1\n2\n3\n", "1\n3\n", "", 0);
	expect("awk '{ exit } END { print \"end\", NR }'", "1\n2\n", "end 1\n", "", 0);
	expect("awk 'BEGIN { exit 3 } END { print \"end\" }'", "", "end\n", "", 3);
	expect("awk 'BEGIN { exit 1 } END { exit }'", "", "", "", 1);
	expect("awk 'function f() { exit 4 } { f(); print \"no\" }'", "x\n", "", "", 4);
	expect("awk 'function f() { next } { f(); print \"no\" } END { print NR }'", "x\ny\n", "2\n", "", 0);
	expect("awk 'function f() { next } BEGIN { f() } END { print \"no\" }'", "", "",
	       "awk: line 1: next or nextfile called from a BEGIN or END action\n", 2);
	expect("awk 'FNR == 2 { nextfile } { print FILENAME, $0 }' /tmp/f1 /tmp/f1", "", "", "awk: /tmp/f1: No such file or directory\nawk: /tmp/f1: No such file or directory\n", 2);
	host_put_file("/tmp/f1", "a\nb\n");
	expect("awk 'FNR == 2 { nextfile } { print FILENAME, FNR, NR, $0 }' /tmp/f1 /tmp/f1", "",
	       "/tmp/f1 1 1 a\n/tmp/f1 1 3 a\n", "", 0);
}

Test(awk, functions)
{
	expect("awk 'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) } BEGIN { print fact(10) }'", "",
	       "3628800\n", "", 0);
	expect("awk 'function g(arr, k) { arr[k] = 1 } BEGIN { g(z, \"q\"); for (k in z) print k }'", "", "q\n", "", 0);
	expect("awk 'function h(a,   i, s) { for (i = 1; i <= 3; i++) s = s a[i]; return s } "
	       "BEGIN { x[1] = \"a\"; x[2] = \"b\"; x[3] = \"c\"; print h(x), i \"|\" }'", "", "abc |\n", "", 0);
	expect("awk 'function f(x) { x = 5 } BEGIN { y = 1; f(y); print y }'", "", "1\n", "", 0);
	expect("awk 'BEGIN { f() } function f() { print \"defined later\" }'", "", "defined later\n", "", 0);
	expect("awk 'function f() { return } BEGIN { x = f(); print x \"|\" x + 0 }'", "", "|0\n", "", 0);
}

Test(awk, string_functions)
{
	expect("awk 'BEGIN { print index(\"foobar\", \"bar\"), substr(\"hello\", 2, 3), substr(\"hello\", 0), "
	       "substr(\"hello\", -1, 3), substr(\"hello\", 2) \"|\" substr(\"hello\", 2, -1) \"|\" }'", "",
	       "4 ell hello h ello||\n", "", 0);
	expect("awk 'BEGIN { print toupper(\"abc\"), tolower(\"ABC\"), length(\"abc\"), length() }'", "", "ABC abc 3 0\n", "", 0);
	expect("awk 'BEGIN { print match(\"foobar\", /o+/), RSTART, RLENGTH; print match(\"aaa\", /b/), RSTART, RLENGTH; "
	       "print match(\"xabcabc\", \"(abc)+\"), RLENGTH }'", "", "2 2 2\n0 0 -1\n2 6\n", "", 0);
	expect("awk 'BEGIN { s = \"hello world\"; print gsub(/o/, \"0\", s), s; u = \"hello\"; gsub(/l/, \"[&]\", u); print u; "
	       "v = \"a.b\"; sub(/\\./, \"\\\\&\", v); print v }'", "", "2 hell0 w0rld\nhe[l][l]o\na&b\n", "", 0);
	/* Empty matches: at each place but right after a match. */
	expect("awk 'BEGIN { s = \"abc\"; print gsub(/x*/, \"-\", s), s; t = \"abc\"; gsub(/b*/, \"-\", t); print t }'", "",
	       "4 -a-b-c-\n-a-c-\n", "", 0);
	expect("awk 'BEGIN { s = \"aaa\"; sub(\"a\", \"b\", s); sub(/$/, \"!\", s); sub(/^/, \">\", s); print s }'", "",
	       ">baa!\n", "", 0);
	/* POSIX's leftmost-longest match, alternation included. */
	expect("awk 'BEGIN { s = \"abcd\"; sub(/a|ab|abc/, \"X\", s); print s; t = \"xabcd\"; sub(/bc|abcd/, \"Y\", t); print t }'",
	       "", "Xd\nxY\n", "", 0);
	expect("awk '{ gsub(/[A-Z]/, \"(&)\"); print; print NF }'", "The Quick fox\n", "(T)he (Q)uick fox\n3\n", "", 0);
	expect("awk 'BEGIN { r = \"b+\"; s = \"abbbc\"; if (s ~ r) print \"ok\"; gsub(r, \"X\", s); print s }'", "",
	       "ok\naXc\n", "", 0);
	expect("awk 'BEGIN { print \"a\\tb\\\\c\\\"d\\/e\\101\" }'", "", "a\tb\\c\"d/eA\n", "", 0);
}

Test(awk, getline_and_redirection)
{
	expect("awk '{ getline; print }'", "1\n2\n3\n4\n5\n", "2\n4\n5\n", "", 0);
	expect("awk 'BEGIN { while ((getline line) > 0) n++; print n, NR, line }'", "1\n2\n3\n", "3 3 3\n", "", 0);
	host_put_file("/tmp/in", "x y\nz\n");
	expect("awk 'BEGIN { while ((getline l < \"/tmp/in\") > 0) print \"got\", l; print (getline < \"/tmp/none\"); "
	       "getline < \"/tmp/in\"; close(\"/tmp/in\"); getline < \"/tmp/in\"; print $2, NR }'", "",
	       "got x y\ngot z\n-1\ny 0\n", "", 0);
	expect("awk 'BEGIN { \"echo hi; echo there\" | getline x; print x; \"echo hi; echo there\" | getline; "
	       "print $0, NR; print close(\"echo hi; echo there\") }'", "", "hi\nthere 2\n0\n", "", 0);
	expect("awk 'BEGIN { print \"a\" > \"/tmp/o\"; print \"b\" > \"/tmp/o\"; close(\"/tmp/o\"); "
	       "print \"c\" >> \"/tmp/o\"; printf \"%s\\n\", \"e\" > \"/dev/stderr\" }'; cat /tmp/o", "",
	       "a\nb\nc\n", "e\n", 0);
	expect("awk 'BEGIN { print (1 > 2), (2 > 1) }'", "", "0 1\n", "", 0);
	expect("awk 'BEGIN { print 1, 2 > \"/tmp/p\" }'; cat /tmp/p", "", "1 2\n", "", 0);
	expect("awk 'BEGIN { system(\"echo sys\"); r = system(\"exit 3\"); print r }'", "", "sys\n3\n", "", 0);
	host_put_file("/tmp/picky", "");
	host_set_write_error("/tmp/picky", -EINVAL);
	expect("awk 'BEGIN { print \"bad\" > \"/tmp/picky\"; print \"after\" }'", "", "after\n",
	       "awk: /tmp/picky: write error: Invalid argument\n", 2);
	expect("awk 'BEGIN { print \"x\" > \"/tmp/picky\"; print close(\"/tmp/picky\") }'", "", "-1\n",
	       "awk: /tmp/picky: write error: Invalid argument\n", 2);
}

Test(awk, options_and_operands)
{
	expect("awk -v x=1 -v 'y=a\\tb' 'BEGIN { print x + 1, y }'", "", "2 a\tb\n", "", 0);
	expect("awk '{ print v, $0 }' v=1 - v=2 -", "line\n", "1 line\n", "", 0);
	host_put_file("/tmp/f2", "f2\n");
	expect("awk '{ print v, $0 }' v=1 /tmp/f2 v=2 /tmp/f2", "", "1 f2\n2 f2\n", "", 0);
	expect("awk -- 'BEGIN { for (i = 0; i < ARGC; i++) print i, ARGV[i] }' a -- b", "", "0 awk\n1 a\n2 --\n3 b\n", "", 0);
	expect("awk -- 'BEGIN { print \"dashdash\" }'", "", "dashdash\n", "", 0);
	expect("X=exported awk 'BEGIN { print ENVIRON[\"X\"] }'", "", "exported\n", "", 0);
	host_put_file("/tmp/prog.awk", "# a program file\n{ print NR \": \" $0 }\n");
	expect("awk -f /tmp/prog.awk", "a\nb\n", "1: a\n2: b\n", "", 0);
	expect("awk", "", "", "awk: usage: awk [-F FS] [-v VAR=VALUE]... ['PROGRAM' | -f FILE] [ARGUMENT]...\n", 2);
}

Test(awk, syntax_errors)
{
	expect("awk '{ print $1 '", "", "",
	       "awk: line 1, column 12: syntax error: missing '}'\n  { print $1 \n             ^\n", 2);
	expect("awk 'BEGIN {\n  x = 1 +\n}'", "", "",
	       "awk: line 2, column 10: syntax error: unexpected newline\n    x = 1 +\n           ^\n", 2);
	expect("awk '{ print , $1 }'", "", "",
	       "awk: line 1, column 9: syntax error: unexpected ','\n  { print , $1 }\n          ^\n", 2);
	expect("awk 'BEGIN { f(1) }'", "", "",
	       "awk: line 1, column 9: syntax error: function f is not defined\n  BEGIN { f(1) }\n          ^\n", 2);
	expect("awk 'BEGIN { return }' >/dev/null 2>&1; echo $?", "", "2\n", "", 0);
	expect("awk 'BEGIN { break }' >/dev/null 2>&1; echo $?", "", "2\n", "", 0);
	expect("awk 'BEGIN { next }' >/dev/null 2>&1; echo $?", "", "2\n", "", 0);
	expect("awk '/[/' >/dev/null 2>&1; echo $?", "", "2\n", "", 0);
	run("awk 'BEGIN { print $$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$0 }'", "");
	cr_expect(strstr(err, "syntax error: nested too deeply") && status == 2, "%d %s", status, err);
	expect("awk 'BEGIN { x = \"(\"; if (\"a\" ~ x) print }'", "", "",
	       "awk: line 1: regular expression /(/: unmatched ( or \\(\n", 2);
}

/* Malformed programs: every prefix of a real one fails cleanly or runs. */
Test(awk, truncated_programs)
{
	static const char prog[] = "function f(a, b) { return a[b] } BEGIN { x[\"k\"] = 1; "
				   "for (k in x) { if (k ~ /k/) printf(\"%s %d\\n\", k, f(x, k)); else print k > \"/tmp/z\" } "
				   "while ((getline l < \"/tmp/in\") > 0) { n = split(l, p, /[ ]/); gsub(\"y\", \"&&\", l) } }";
	char script[sizeof(prog) + 16];

	for (size_t len = 0; len <= sizeof(prog) - 1; len++) {
		snprintf(script, sizeof(script), "awk '%.*s'", (int)len, prog);
		run(script, "");
		cr_expect(status == 0 || status == 2, "status %d of: %s", status, script);
	}
}

Test(awk, interrupted)
{
	host_interrupt = true;
	run("awk 'BEGIN { while (1) x++ }'", "");
	cr_expect_eq(status, 130, "status %d", status);
}
