/* Unit tests of the shell interpreter on the host sh_os: scripts in, output and status out. */
/* uses: kernel/cmds/ kernel/cmds/awk/ kernel/shell/regex.c kernel/shell/regex_longest.c kernel/shell/sh_arena.c kernel/shell/sh_arith.c kernel/shell/sh_buf.c kernel/shell/sh_builtin.c kernel/shell/sh_escape.c kernel/shell/sh_exec.c kernel/shell/sh_path.c kernel/shell/sh_expand.c kernel/shell/sh_interactive.c kernel/shell/sh_io.c kernel/shell/sh_lex.c kernel/shell/sh_line.c kernel/shell/sh_complete.c kernel/shell/sh_main.c kernel/shell/sh_match.c kernel/shell/sh_parse.c kernel/shell/sh_time.c kernel/shell/sh_trap.c kernel/shell/sh_util.c kernel/shell/sh_var.c kernel/shell/sh_table.c tests/host/sh_os_host.c kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <kernel/shell/sh.h>
#include <kernel/cmds/cmds.h>
#include "tests/unit/sh_fixture.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(sh, .init = sh_setup, .fini = sh_teardown);

#define expect_out(script, want_out) expect(script, NULL, want_out, "", 0)

Test(sh, echo_and_quoting)
{
	expect_out("echo hello world", "hello world\n");
	expect_out("echo 'a  b'   \"c  d\"", "a  b c  d\n");
	expect_out("echo a\\ b \\$x '$x' \"\\$x\"", "a b $x $x $x\n");
	expect_out("echo \"a\\b\" 'a\\b'", "a\\b a\\b\n");
	expect_out("echo -n x; echo y", "xy\n");
	expect_out("echo -e 'a\\tb\\n'c", "a\tb\nc\n");
	expect_out("echo \"\" x ''", " x \n");
	expect_out("echo '#' a#b # comment", "# a#b\n");
	expect_out("echo a\\\nb", "ab\n");
}

Test(sh, variables_and_parameters)
{
	expect_out("x=1; y=\"$x 2\"; echo $x $y ${x}0", "1 1 2 10\n");
	expect_out("echo ${u:-def} ${u-d2} ${e:=set} $e", "def d2 set set\n");
	expect_out("x=abc.tar.gz; echo ${x%.*} ${x%%.*} ${x#*.} ${x##*.} ${#x}", "abc.tar abc tar.gz gz 10\n");
	expect_out("x=1; echo ${x:+alt} ${nope:+alt}.", "alt .\n");
	expect_out("set -- a 'b c' d; echo $# $1 $2; shift; echo $1", "3 a b c\nb c\n");
	expect_out("set -- 'x y' z; for a in \"$@\"; do echo \"[$a]\"; done", "[x y]\n[z]\n");
	expect_out("set -- 'x y' z; for a in $*; do echo \"[$a]\"; done", "[x]\n[y]\n[z]\n");
	expect_out("set --; for a in \"$@\"; do echo no; done; echo \"[$*]\"", "[]\n");
	expect_out("false; echo $?; true; echo $?", "1\n0\n");
	expect_out("x='a   b'; echo $x; echo \"$x\"", "a b\na   b\n");
	expect_out("IFS=:; x=a:b::c; for i in $x; do echo \"<$i>\"; done", "<a>\n<b>\n<>\n<c>\n");
	expect("echo ${x:?oops}", NULL, "", "sh: x: oops\n", 1);
	expect("echo ${x", NULL, "", "sh: syntax error: missing '}' (-c: line 1)\n", 2);
	expect("echo ${a-b-c} ${!}", NULL, "b-c\n", "", 0);
	expect("echo ${x/y}", NULL, "", "sh: ${x/y}: bad substitution\n", 1);
}

Test(sh, job_specs)
{
	/* Host tasks finish inside spawn: each job is there to be waited for. */
	expect_out("true & false & wait %1; echo $?; wait %%; echo $?", "0\n1\n");
	expect_out("false & true & wait %-; echo $?; wait %+; echo $?", "1\n0\n");
	expect_out("true & wait; false & wait %1; echo $?", "1\n");
	/* Their tasks are gone, so kill reports the pids the specs named. */
	expect_out("true & a=$!; true & kill -0 %1 %% 2> /tmp/e; echo $?; grep -c -e \"($a)\" -e \"($!)\" /tmp/e",
		   "1\n2\n");
	expect("wait %3; echo $?", NULL, "127\n", "sh: wait: %3: no such job\n", 0);
	/* A bad spec next to a good operand: the shell itself gets the SIGKILL. */
	expect("kill %1; echo $?; kill -s TERM %x; echo $?; kill -9 -- %2 $$; echo not reached", NULL, "1\n1\n",
	       "sh: kill: %1: no such job\nsh: kill: %x: no such job\nsh: kill: %2: no such job\n", 137);
	expect("wait abc; echo $?", NULL, "2\n", "sh: wait: abc: arguments must be process or job IDs\n", 0);
}

Test(sh, substrings)
{
	expect_out("x=abcdef; echo \"${x:2}|${x:1:3}|${x: -2}|${x:(-3):2}|${x:1:-2}|${x:10}|\"",
		   "cdef|bcd|ef|de|bcd||\n");
	expect_out("x=abcdef; echo \"${x:i+1:i+2}|${x:-dflt}|${u:1}|${x:0:0}|${x:1:}|\"", "bc|abcdef||||\n");
	expect_out("x=abcdef; i=1; echo ${x:i:i+1} ${x:$((i * 2)):${#x}}", "bc cdef\n");
	expect_out("x='a  b  c'; echo ${x:1:4}.; echo \"${x:1:4}\".", "b .\n  b .\n");
	expect("x=abcdef; echo ${x:4:-3}", NULL, "", "sh: x: substring expression < 0\n", 1);
	expect("x=abc; echo ${x:1+}", NULL, "", "sh: arithmetic expression: missing operand: \"1+\"\n", 1);
	expect("echo ${x:}", NULL, "", "sh: ${x:}: bad substitution\n", 1);
	expect("set -- a b; echo ${@:1}", NULL, "", "sh: ${@:1}: bad substitution\n", 1);
	expect("set -u; echo ${nope:1}", NULL, "", "sh: nope: parameter not set\n", 1);
}

Test(sh, special_parameters)
{
	run("echo $$", NULL);
	cr_expect_str_eq(out, "1\n");
	run("sleep 0 & echo $!; wait $!; echo $?", NULL);
	cr_expect_str_eq(out, "2\n0\n");	/* the shell is pid 1, sleep the first task it starts */
	run("x=$(exit 3); echo $?", NULL);
	cr_expect_str_eq(out, "3\n");
}

Test(sh, command_substitution)
{
	expect_out("echo $(echo a b) `echo c`", "a b c\n");
	expect_out("x=$(printf 'l1\\nl2\\n\\n'); echo \"$x\"", "l1\nl2\n");
	expect_out("echo \"$(echo \"inner quote\")\"", "inner quote\n");
	expect_out("echo $(echo $(echo deep))", "deep\n");
	expect_out("n=$(echo a b c | wc -w); echo \"n=$n\"", "n=3\n");
	expect_out("echo `echo \\`echo nested\\``", "nested\n");
}

Test(sh, arithmetic)
{
	expect_out("echo $((1 + 2 * 3)) $(( (1+2)*3 )) $((7 / 2)) $((7 % 3)) $((-5 + 2))", "7 9 3 1 -3\n");
	expect_out("i=5; echo $((i * 2)) $(($i + 1)) $((i += 3)) $i", "10 6 8 8\n");
	expect_out("echo $((1 < 2)) $((2 <= 1)) $((3 == 3)) $((1 && 0)) $((0 || 2)) $((!0))", "1 0 1 0 1 1\n");
	expect_out("echo $((0x10 + 010)) $((1 << 4)) $((255 & 15 | 32)) $((5 ^ 1)) $((~0))", "24 16 47 4 -1\n");
	expect_out("echo $((1 ? 2 : 3)) $((0 ? 2 : 3)) $((x = 4)) $x", "2 3 4 4\n");
	expect_out("i=0; while [ $i -lt 3 ]; do i=$((i + 1)); done; echo $i", "3\n");
	expect_out("i=1; echo $((i++)) $i $((++i)) $((i--)) $i", "1 2 3 3 2\n");
	expect("echo $((1 / 0))", NULL, "", "sh: arithmetic expression: division by zero: \"1 / 0\"\n", 1);
	expect("echo $((2 +))", NULL, "", "sh: arithmetic expression: missing operand: \"2 +\"\n", 1);
	expect("x=abc; echo $((x + 1))", NULL, "", "sh: arithmetic expression: invalid number: \"x + 1\"\n", 1);
	/* A bad octal digit in a variable's value: an error, not a stray read. */
	expect("t=0359115; echo $((t - 1))", NULL, "", "sh: arithmetic expression: invalid number: \"t - 1\"\n", 1);
	expect("echo $((09))", NULL, "", "sh: arithmetic expression: invalid number: \"09\"\n", 1);
	expect_out("echo $((0 && 1 / 0)) $((1 || 1 / 0))", "0 1\n");
}

Test(sh, pipelines)
{
	expect_out("echo hello | cat", "hello\n");
	expect_out("printf 'b\\na\\nc\\n' | sort | head -n 2", "a\nb\n");
	expect_out("echo a | cat | cat | cat", "a\n");
	expect_out("{ echo x; echo y; } | wc -l", "2\n");
	expect_out("echo abc | (read v; echo \"got $v\")", "got abc\n");
	expect_out("true | false; echo $?; false | true; echo $?", "1\n0\n");
	expect_out("! true; echo $?; ! false; echo $?", "1\n0\n");
	expect_out("seq 1 100 | grep -c 5", "19\n");
}

Test(sh, and_or_lists)
{
	expect_out("true && echo a || echo b", "a\n");
	expect_out("false && echo a || echo b", "b\n");
	expect_out("false || false || echo c", "c\n");
	expect_out("true || echo no; echo yes", "yes\n");
}

Test(sh, redirections)
{
	expect_out("echo one > /tmp/f; echo two >> /tmp/f; cat < /tmp/f", "one\ntwo\n");
	expect_out("echo over > /tmp/f; echo new > /tmp/f; cat /tmp/f", "new\n");
	expect("echo err 1>&2", NULL, "", "err\n", 0);
	expect("cat /nope 2>&1", NULL, "cat: /nope: No such file or directory\n", "", 1);
	expect_out("cat /nope 2>/dev/null; echo $?", "1\n");
	expect_out("{ echo a; echo b >&2; } > /tmp/g 2>&1; cat /tmp/g", "a\nb\n");
	expect_out("echo x 3>/tmp/h >&3; cat /tmp/h", "x\n");
	expect_out("> /tmp/empty; wc -c < /tmp/empty", "0\n");
	expect_out("for i in 1 2; do echo $i; done > /tmp/l; cat /tmp/l", "1\n2\n");
	expect_out("while read a b; do echo \"$b-$a\"; done 2>/dev/null < /tmp/none; echo done", "done\n");
	expect("echo x > /no/dir/f", NULL, "", "sh: /no/dir/f: No such file or directory\n", 1);
	expect("echo x >&7", NULL, "", "sh: 7: Bad file descriptor\n", 1);
	expect_out("cat <<EOF\nhello $((1+1))\n  'q' \\$x\nEOF\n", "hello 2\n  'q' $x\n");
	expect_out("cat <<'EOF'\n$x `y`\nEOF\n", "$x `y`\n");
	expect_out("x=1 echo; echo \"[$x]\"", "\n[]\n");
}

Test(sh, write_errors_are_reported)
{
	host_put_file("/tmp/picky", "");
	host_set_write_error("/tmp/picky", -EINVAL);
	expect("echo bad > /tmp/picky", NULL, "", "echo: write error: Invalid argument\n", 1);
	expect("printf x > /tmp/picky; echo $?", NULL, "1\n", "printf: write error: Invalid argument\n", 0);
}

Test(sh, control_flow)
{
	expect_out("if true; then echo t; else echo f; fi", "t\n");
	expect_out("if false; then echo t; elif true; then echo e; else echo f; fi", "e\n");
	expect_out("if false; then echo t; fi; echo $?", "0\n");
	expect_out("for i in a b c; do echo $i; done", "a\nb\nc\n");
	expect_out("i=0; until [ $i = 2 ]; do i=$((i+1)); echo $i; done", "1\n2\n");
	expect_out("for i in 1 2 3 4; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done", "1\n3\n");
	expect_out("for i in 1 2; do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; done", "1a\n2a\n");
	expect_out("for i in 1 2; do for j in a b; do break 2; done; done; echo out $i$j", "out 1a\n");
	expect_out("case abc in a*) echo A;; *) echo other;; esac", "A\n");
	expect_out("case x.c in *.h|*.c) echo src;; esac", "src\n");
	expect_out("x='*'; case a in \"$x\") echo lit;; $x) echo glob;; esac", "glob\n");
	expect_out("case '[' in \\[) echo br;; esac", "br\n");
	expect_out("case z in [a-y]) echo in;; [!a-y]) echo out;; esac", "out\n");
	expect_out("case '' in '') echo empty;; esac", "empty\n");
}

Test(sh, functions)
{
	expect_out("f() { echo \"f:$1:$#\"; }; f a b", "f:a:2\n");
	expect_out("f() { return 3; }; f; echo $?", "3\n");
	expect_out("f() { local x=in; echo $x; }; x=out; f; echo $x", "in\nout\n");
	/* Declaration utilities take NAME=$v as one field, as an assignment does. */
	expect_out("f() { local w=$1 v; echo \"[$w]\"; }; f 'a  b'", "[a  b]\n");
	expect_out("v='x y'; export e=$v; sh -c 'echo \"[$e]\"'", "[x y]\n");
	expect_out("f() { x=changed; }; x=orig; f; echo $x", "changed\n");
	expect_out("fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(($1 - 1))) )); fi; }; fact 5", "120\n");
	expect_out("f() { echo $1; shift; echo $1; }; set -- outer; f a b; echo $1", "a\nb\nouter\n");
	expect("f() { f; }; f", NULL, "", "sh: f: function nesting too deep\n", 2);
	expect_out("f() { echo redefining; f() { echo new; }; }; f; f", "redefining\nnew\n");
	expect_out("g() { echo \"[$X]\"; }; X=1 g; g", "[1]\n[]\n");
}

Test(sh, errexit_and_xtrace)
{
	expect("set -e; echo a; false; echo b", NULL, "a\n", "", 1);
	expect_out("set -e; if false; then :; fi; false || true; ! true; echo ok", "ok\n");
	/* As in sh, a function run as a condition has set -e off throughout. */
	expect_out("set -e; f() { false; echo no; }; f || echo handled", "no\n");
	expect("set -e; x=$(false); echo no", NULL, "", "", 1);
	expect("set -x; echo hi", NULL, "hi\n", "+ echo hi\n", 0);
	expect("set -u; echo $nope", NULL, "", "sh: nope: parameter not set\n", 1);
}

Test(sh, exit_and_subshells)
{
	expect("echo a; exit 7; echo b", NULL, "a\n", "", 7);
	expect_out("(exit 4); echo $?", "4\n");
	expect_out("x=1; (x=2; echo $x); echo $x", "2\n1\n");
	expect_out("(cd /tmp; pwd); pwd", "/tmp\n/\n");
	expect_out("cd /tmp && pwd && cd .. && pwd", "/tmp\n/\n");
	expect("cd /nope", NULL, "", "sh: cd: /nope: No such file or directory\n", 1);
}

Test(sh, errors)
{
	expect("nosuchcmd arg", NULL, "", "sh: nosuchcmd: not found\n", 127);
	/* the message comes after the command's redirections, as POSIX has it */
	expect("nosuchcmd 2>&1 | cat", NULL, "sh: nosuchcmd: not found\n", "", 0);
	expect("x=$(nosuchcmd 2>&1); echo \"[$x]\"", NULL, "[sh: nosuchcmd: not found]\n", "", 0);
	expect("nosuchcmd 2>/dev/null; echo $?", NULL, "127\n", "", 0);
	expect("fi", NULL, "", "sh: syntax error: unexpected 'fi' (-c: line 1)\n", 2);
	expect("echo before\nif; echo after", NULL, "before\n", "sh: syntax error: unexpected ';' (-c: line 2)\n", 2);
	expect("echo 'open", NULL, "", "sh: syntax error: unterminated quoted string (-c: line 1)\n", 2);
	expect("exit abc", NULL, "", "sh: exit: abc: numeric argument required\n", 2);
	expect("return", NULL, "", "sh: return: not in a function\n", 1);
}

Test(sh, builtins)
{
	expect_out("echo 'a b' | { read x y; echo \"$y,$x\"; }", "b,a\n");
	expect_out("printf 'one two three\\n' | { read a rest; echo \"$rest\"; }", "two three\n");
	expect_out("printf 'l1\\nl2\\n' | while read l; do echo \"<$l>\"; done", "<l1>\n<l2>\n");
	expect_out("printf 'x\\\\y\\n' | { read -r v; echo \"$v\"; }", "x\\y\n");
	expect_out("read v < /dev/null; echo $?", "1\n");
	expect_out("eval 'x=5; echo $x'", "5\n");
	expect_out("export A=1; sh -c 'echo [$A]'; B=2; sh -c 'echo [$B]'", "[1]\n[]\n");
	expect_out("C=3 sh -c 'echo [$C]'", "[3]\n");
	expect_out("unset x; x=1; unset x; echo \"[$x]\"", "[]\n");
	expect_out("command -v echo cd nosuch; echo $?", "echo\ncd\n1\n");
	expect_out("set -- a b; set -- \"$@\" c; echo $#", "3\n");
	host_put_file("/tmp/lib.sh", "libvar=loaded\nlibf() { echo \"libf $1\"; }\n");
	expect_out(". /tmp/lib.sh; echo $libvar; libf x", "loaded\nlibf x\n");
	host_put_file("/tmp/s.sh", "echo \"script $0 $1 $#\"\nexit 5\n");
	expect_out("sh /tmp/s.sh arg; echo $?", "script /tmp/s.sh arg 1\n5\n");
	expect("sh /tmp/none.sh", NULL, "", "sh: /tmp/none.sh: No such file or directory\n", 127);
}

Test(sh, tasks_for_commands)
{
	run("cat /dev/null", NULL);
	cr_expect_eq(host_spawn_count, 1);	/* the sh -c itself runs in the test, cat in a task */
	run(":; cd /; x=1; f() { :; }; f", NULL);
	cr_expect_eq(host_spawn_count, 1);	/* builtins and functions spawn nothing */
	run("echo a; printf b; [ 1 ]; test 1; true; false; pwd", NULL);
	cr_expect_eq(host_spawn_count, 1);	/* nor do echo, printf, test, true, false, pwd */
	run("echo a | cat | cat", NULL);
	cr_expect_eq(host_spawn_count, 4);	/* ... except as pipeline stages */
	run("echo a & wait", NULL);
	cr_expect_eq(host_spawn_count, 5);	/* ... or background jobs */
	run("( cat /dev/null )", NULL);
	cr_expect_eq(host_spawn_count, 7);	/* a subshell, and its command */
	run("nice -n 5 true; cpuhog 1 2", NULL);
	cr_expect_str_eq(out, "workload cpuhog with 2 args\n");
}

Test(sh, globbing)
{
	host_os_exit();
	host_os_init();
	sh_os->mkdir("/g", 0755);
	host_put_file("/g/a.txt", "");
	host_put_file("/g/b.txt", "");
	host_put_file("/g/c.log", "");
	host_put_file("/g/.hidden", "");
	expect_out("echo /g/*.txt", "/g/a.txt /g/b.txt\n");
	expect_out("cd /g; echo *", "a.txt b.txt c.log\n");
	expect_out("echo /g/?.log /g/[ab].txt", "/g/c.log /g/a.txt /g/b.txt\n");
	expect_out("echo /g/*.none", "/g/*.none\n");
	expect_out("echo '/g/*' \"/g/*\" /g/\\*", "/g/* /g/* /g/*\n");
	expect_out("x='/g/*.log'; echo $x \"$x\"", "/g/c.log /g/*.log\n");
	expect_out("set -f; echo /g/*", "/g/*\n");
	expect_out("echo /g/.*", "/g/. /g/.. /g/.hidden\n");
	expect_out("echo /*/c.log", "/g/c.log\n");
	/* A '[' with no ']' is no pattern: it stands for itself, as test's name does. */
	expect_out("cd /g; echo [ a[ [x", "[ a[ [x\n");
	expect_out("cd /g; [ a = a ] && echo yes", "yes\n");
}

/* The hashed tables: many names, unset, local frames, copies into subshells. */
Test(sh, many_variables_and_functions)
{
	expect_out("i=0; while [ $i -lt 300 ]; do eval v$i=$i; i=$((i + 1)); done; "
		   "echo $v0 $v150 $v299; unset v150; echo ${v150-gone} $v151; (echo $v299)",
		   "0 150 299\ngone 151\n299\n");
	expect_out("a=1; b=2; c=3; unset b; set | grep '^[abc]='", "c='3'\na='1'\n");
	expect_out("x=12345; x=1; x=$x$x$x; echo $x", "111\n");
	expect("f() { echo f1; }; g() { echo g; }; f() { echo f2; }; f; unset -f f; f; g", NULL,
	       "f2\ng\n", "sh: f: not found\n", 0);
	expect("f() { local x=in; echo $x; }; x=out; f; echo $x; unset -f f; f", NULL,
	       "in\nout\n", "sh: f: not found\n", 127);
	expect_out("x=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; "
		   "y=$x$x$x; echo ${#y} \"$y\" | cut -c1-5", "216 a\n");
}

Test(sh, interrupt_unwinds_loops)
{
	host_interrupt = true;
	run("while true; do :; done; echo never", NULL);
	cr_expect_eq(status, 130);
	cr_expect_str_eq(out, "");
}

Test(sh, hostile_scripts)
{
	char *big = malloc(20000);
	size_t n = 0;

	/* Deep but legal nesting runs; too deep is refused, not a crash. */
	for (int i = 0; i < 30; i++)
		n += (size_t)sprintf(big + n, "if true; then ");
	n += (size_t)sprintf(big + n, "echo deep");
	for (int i = 0; i < 30; i++)
		n += (size_t)sprintf(big + n, "; fi");
	expect_out(big, "deep\n");
	n = 0;
	for (int i = 0; i < 100; i++)
		n += (size_t)sprintf(big + n, "$(echo ");
	n += (size_t)sprintf(big + n, "x");
	for (int i = 0; i < 100; i++)
		big[n++] = ')';
	big[n] = '\0';
	run(big, NULL);
	cr_expect_eq(status, 2);
	free(big);
	run("f() { eval f; }; f", NULL);
	cr_expect_neq(status, 0);
}
