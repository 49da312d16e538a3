# The shell language as scripts use it: quoting, expansion, control flow,
# functions, redirections, traps. Each check compares what a construct
# printed with what a POSIX shell prints.
. /spoor/lib/tap.sh
echo 1..45

is "single quotes keep everything" 'a $x \n "b"' "$(echo 'a $x \n "b"')"
x=val
is "double quotes expand \$ and keep blanks" "val  \$x \\ \"" "$(echo "$x  \$x \\ \"")"
is "backslash escapes outside quotes" 'a b$c"d' "$(echo a\ b\$c\"d)"
is "echo -e escapes" "$(printf 'a\tb\nc')" "$(echo -e 'a\tb\nc')"
is "echo -n" "ab" "$(echo -n a; echo -n b)"
is "line continuation" "one two" "$(echo one \
two)"
is "comments" "kept" "$(echo kept # dropped
# a whole line dropped
)"
is "; runs both" "a b" "$(echo -n 'a '; echo b)"
is "&& and ||" "yes" "$(false && echo no || echo yes)"
is "! inverts" "0 1" "$(! false; echo -n "$? "; ! true; echo $?)"
is "pipes" "3" "$(printf 'a\nb\nc\n' | grep -v x | wc -l)"
is "pipeline status is the last stage's" "1 0" "$(true | false; echo -n "$? "; false | true; echo $?)"
echo first > /tmp/syn.out
echo second >> /tmp/syn.out
is "> truncates and >> appends" "first second" "$(cat /tmp/syn.out | tr '\n' ' ' | sed 's/ $//')"
echo third > /tmp/syn.out
is "> truncates an existing file" "third" "$(cat /tmp/syn.out)"
is "< reads a file" "third" "$(read l < /tmp/syn.out; echo $l)"
is "2>&1 joins stderr to stdout" "1" "$(ls /nonexistent 2>&1 | grep -c 'No such file')"
is "2>/dev/null discards stderr" "" "$(ls /nonexistent 2>/dev/null)"
is "here-document with expansion" "x=val" "$(cat <<EOF
x=$x
EOF
)"
is "quoted here-document delimiter" 'x=$x' "$(cat <<'EOF'
x=$x
EOF
)"
set -- a "b c" d
is "\$# and \$1..." "3 b c" "$# $2"
is "\"\$@\" keeps words" "[a][b c][d]" "$(for w in "$@"; do echo -n "[$w]"; done)"
is "\$? of a failure" "1" "$(false; echo $?)"
is "\$\$ is the shell's pid in a subshell too" "$$" "$(echo $$)"
sleep 0 &
is "\$! is the last background job" "yes" "$([ "$!" -gt "$$" ] && echo yes)"
wait
is "nested \$(...)" "a b c" "$(echo a $(echo b $(echo c)))"
is "backquotes" "2" "`echo a b | wc -w`"
is "arithmetic" "7 3 16 1 2 8" "$((1 + 2 * 3)) $((7 / 2)) $((1 << 4)) $((3 > 2)) $((y = 1, y + 1)) $((2 ** 3))"
is "parameter expansion" "def 3 b.tar.gz b.tar" "${unset:-def} ${#x} ${f:=b.tar.gz} ${f%.gz}"
p=a/b/c
is "# and % patterns" "b/c c a/b a" "${p#*/} ${p##*/} ${p%/*} ${p%%/*}"
r=$(if false; then echo 1; elif true; then echo 2; else echo 3; fi)
is "if/elif/else" "2" "$r"
i=0; s=
while [ $i -lt 5 ]; do i=$((i + 1)); [ $i = 2 ] && continue; [ $i = 4 ] && break; s="$s$i"; done
is "while, continue, break" "13" "$s"
s=; until [ ${#s} -ge 3 ]; do s="${s}u"; done
is "until" "uuu" "$s"
s=; for w in one two three; do s="$s${w%e}"; done
is "for ... in" "ontwothre" "$s"
classify() {
	case "$1" in
	sched_*|irq_*) echo event ;;
	[0-9]*) echo number ;;
	'') echo empty ;;
	*) echo other ;;
	esac
}
is "case with patterns" "event number empty other" "$(classify sched_switch) $(classify 42) $(classify '') $(classify x)"
add() { local sum=0; for v in "$@"; do sum=$((sum + v)); done; echo $sum; return 3; }
r=$(add 1 2 3); st=$?
is "functions, local, return" "6 3" "$r $st"
sum=outer; add 1 >/dev/null
is "local does not leak" "outer" "$sum"
is "exit in a subshell" "5" "$( (exit 5); echo $?)"
r=$(sh -c 'set -e; echo before; false; echo after'); st=$?
is "set -e stops a script" "before 1" "$r $st"
is "set -e spares conditions" "ok" "$(sh -c 'set -e; if false; then :; fi; false || true; ! true; echo ok')"
is "set -x traces commands" "+ echo traced" "$(sh -c 'set -x; echo traced' 2>&1 >/dev/null)"
echo 'echo "script $1 $#"; exit 4' > /tmp/syn_script.sh
r=$(sh /tmp/syn_script.sh arg); st=$?
is "sh FILE ARGS" "script arg 1 4" "$r $st"
is "trap on EXIT" "body exit" "$(sh -c 'trap "echo exit" EXIT; echo body' | tr '\n' ' ' | sed 's/ $//')"
is "trap on a signal sent to \$\$" "caught 0" "$(sh -c 'trap "echo -n caught" USR1; kill -USR1 $$; echo " $?"')"
exec 3> /tmp/syn_fd3
echo via3 >&3
exec 3>&-
is "exec 3> FILE keeps the fd open" "via3" "$(cat /tmp/syn_fd3)"
is "{ ...; } groups with one redirection" "2" "$({ echo a; echo b; } | wc -l)"
