# Errors look like a real shell's, carry the usual exit statuses, and
# leave the shell (and the kernel) running.
. /spoor/lib/tap.sh
# the text of deep(), to run it in a shell of its own
type_deep() {
	echo 'deep() { if [ $1 -lt 60 ]; then while :; do for x in a; do case a in a) deep $(($1 + 1)); break ;; esac; done; break; done; else echo bottom; fi; }'
}
# run CMD: its stderr and exit status as "MESSAGE|STATUS"
run() {
	local err
	err=$(sh -c "$1" 2>&1 >/dev/null)
	echo "$err|$?"
}
echo 1..20

is "unknown command" "sh: foo: not found|127" "$(run 'foo')"
is "unexpected keyword" "sh: syntax error: unexpected 'fi'|2" "$(run 'if true; then :; fi fi' | sed 's/ (-c: line 1)//')"
is "unterminated quote" "2" "$(run 'echo "abc' | sed 's/.*|//')"
printf 'echo before\ndone\necho after\n' > /tmp/syntax.sh
r=$(sh /tmp/syntax.sh 2>/dev/null); st=$?
is "a script ends at a syntax error" "before 2" "$r $st"
cd /sys/kernel/tracing
is "a pseudo file rejecting a write: errno text, status 1" \
	"echo: write error: Invalid argument|1" "$(run 'echo bogus > tracing_on')"
is "the rejected value left the file alone" "1" "$(cat tracing_on)"
is "a missing file" "cat: /nonexistent: No such file or directory|1" "$(run 'cat /nonexistent')"
is "cd to a missing directory" "sh: cd: /nonexistent: No such file or directory|1" "$(run 'cd /nonexistent')"
is "redirection into a missing directory" "sh: /nodir/x: No such file or directory|1" "$(run 'echo x > /nodir/x')"
is "\$(unknown) is 127 and empty" "sh: nope: not found|127" "$(run 'x=$(nope); exit $?')"
is "division by zero" "1" "$(run 'echo $((1 / 0))' | sed 's/.*|//')"
is "runaway recursion is refused, not a crash" "sh: f: function nesting too deep|2" "$(run 'f() { f; }; f')"
deep() { if [ $1 -lt 60 ]; then while :; do for x in a; do case a in a) deep $(($1 + 1)); break ;; esac; done; break; done; else echo bottom; fi; }
is "deep nesting fails cleanly before the kernel stack runs out" "sh: nesting too deep|2" "$(run "$(type_deep)"'; deep 0')"
is "a subshell that recursed too deep ends with 2; its parent goes on" "2 alive" "$( (deep 0) >/dev/null 2>&1; echo "$? alive")"
is "kill of a pid that does not exist" "kill: (99999) - No such process|1" "$(run 'kill 99999')"
is "rmdir of a non-empty directory" "1" "$(mkdir -p /tmp/e/f; rmdir /tmp/e 2>/dev/null; echo $?)"
is "rm of a directory without -r" "rm: /tmp/e: Is a directory|1" "$(run 'rm /tmp/e')"
is "sleep with a bad interval" "sleep: invalid time interval 'abc'|2" "$(run 'sleep abc')"
is "exit N takes N modulo 256" "44" "$(sh -c 'exit 300'; echo $?)"
long=$(printf '%02000d' 0)
is "a 10 kB command line" "10001" "$(echo "$long$long$long$long$long" | wc -c | tr -d ' ')"
