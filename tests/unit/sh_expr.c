/* Unit tests of expr, as the ftrace selftests use it. */
#define _GNU_SOURCE
/* uses: kernel/cmds/ kernel/cmds/awk/ kernel/shell/regex.c kernel/shell/regex_longest.c kernel/shell/sh_arena.c kernel/shell/sh_arith.c kernel/shell/sh_buf.c kernel/shell/sh_builtin.c kernel/shell/sh_escape.c kernel/shell/sh_exec.c kernel/shell/sh_path.c kernel/shell/sh_expand.c kernel/shell/sh_interactive.c kernel/shell/sh_io.c kernel/shell/sh_lex.c kernel/shell/sh_line.c kernel/shell/sh_complete.c kernel/shell/sh_main.c kernel/shell/sh_match.c kernel/shell/sh_parse.c kernel/shell/sh_time.c kernel/shell/sh_trap.c kernel/shell/sh_util.c kernel/shell/sh_var.c kernel/shell/sh_table.c tests/host/sh_os_host.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include <kernel/shell/sh.h>
#include <kernel/cmds/cmds.h>
#include "tests/unit/sh_fixture.h"

TestSuite(cmds_expr, .init = sh_setup, .fini = sh_teardown);

Test(cmds_expr, expr_arithmetic_and_compare)
{
	expect("expr 13 + 5", "", "18\n", "", 0);
	expect("expr 2 + 3 \\* 4", "", "14\n", "", 0);
	expect("expr \\( 2 + 3 \\) \\* 4", "", "20\n", "", 0);
	expect("expr 16 - 8 - 4", "", "4\n", "", 0);
	expect("expr 7 / 2 % 2", "", "1\n", "", 0);
	expect("expr 3 - 3", "", "0\n", "", 1);
	expect("expr 10 \\< 9", "", "0\n", "", 1);
	expect("expr abc \\< abd", "", "1\n", "", 0);
	expect("expr 5 = 5 \\& 0", "", "0\n", "", 1);
	expect("expr '' \\| fallback", "", "fallback\n", "", 0);
	expect("x=$(expr -4 + 1); echo $x", "", "-3\n", "", 0);
}

Test(cmds_expr, expr_match_and_errors)
{
	expect("expr abcdef : 'abc'", "", "3\n", "", 0);
	expect("expr abcdef : 'b'", "", "0\n", "", 1);
	expect("expr key=value : '.*=\\(.*\\)'", "", "value\n", "", 0);
	expect("expr 1 / 0", "", "", "expr: division by zero\n", 2);
	expect("expr a + 1", "", "", "expr: non-integer argument\n", 2);
	expect("expr 1 +", "", "", "expr: syntax error: missing argument\n", 2);
	expect("expr \\( 1", "", "", "expr: syntax error: expecting ')'\n", 2);
	expect("expr 1 2", "", "", "expr: syntax error: unexpected argument\n", 2);
}
