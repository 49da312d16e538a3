# awk in the guest (kernel/cmds/awk/): the language's parts with the
# outputs POSIX awk gives, the programs Linux's ftracetest runs, on a live
# trace, and what only the kernel has: numbers without floating point,
# pipes to and from tasks, tracefs files as output, a 16 KiB stack that
# deep recursion must not overflow, and a kill that stops a loop.
. /spoor/lib/tap.sh
echo 1..27

cd /sys/kernel/tracing
printf 'a b c\nd e f g\n' > /tmp/in
is "fields, NF, NR, \$NF" "b 3 1 c|e 4 2 g|" "$(awk '{ printf "%s %d %d %s|", $2, NF, NR, $NF }' /tmp/in)"
is "field and NF assignment rebuild \$0 with OFS" "a-X-c|d-e|" \
	"$(awk 'BEGIN { OFS = "-" } NR == 1 { $2 = "X" } NR == 2 { NF = 2 } { printf "%s|", $0 }' /tmp/in)"
is "arithmetic without floating point" "3.5 0.333333 1024 -1 1.5 2432902008176640000 1.41421" \
	"$(awk 'function f(n) { return n <= 1 ? 1 : n * f(n - 1) }
		BEGIN { print 7/2, 1/3, 2^10, -7%3, 10.5%3, f(20), sqrt(2) }')"
is "exp, log, sin, cos, atan2 without floating point (mawk's digits)" "2.718282 2.302585 0.841471 0.540302 3.141593" \
	"$(awk 'BEGIN { printf "%.6f %.6f %.6f %.6f %.6f", exp(1), log(10), sin(1), cos(1), atan2(1, 1) * 4 }')"
is "printf's conversions" " 3.14|42   |00042|ff|1.234568e+04|0.0001234|Hi|   ab" \
	"$(awk 'BEGIN { printf "%5.2f|%-5d|%05d|%x|%e|%g|%c%c|%*s", 3.14159, 42, 42, 255, 12345.678, 0.0001234, 72, "i", 5, "ab" }')"
is "strnum comparisons" "1 0 0 1" "$(echo '10 9 abc' | awk '{ print ($1 > $2), ($3 < $2), ("10" > "9"), ($1 == 10.0) }')"
is "arrays: in, delete, SUBSEP, length" "b 2|yes|1 2|0" \
	"$(awk 'BEGIN { x["a"] = 1; x["b"] = 2; delete x["a"]; for (k in x) printf "%s %d|", k, x[k]
		if ("b" in x) printf "yes|"; y[1, 2] = 3; for (k in y) { split(k, p, SUBSEP); printf "%s %s|", p[1], p[2] }
		delete y; printf "%d", length(y) }')"
is "control flow" "1 3 5 4 012" \
	"$(awk 'BEGIN { while (i < 3) { i++; if (i == 2) continue; printf "%d ", i }
		do j++; while (j < 5); printf "%d ", j; for (;;) if (++k > 3) break; printf "%d ", k
		for (i = 0; i < 3; i++) s = s i; print s }')"
is "string functions" "4 ell 2 2 2 -a-b-c- he[l][l]o ABC Xd" \
	"$(awk 'BEGIN { s = "abc"; gsub(/x*/, "-", s); u = "hello"; gsub(/l/, "[&]", u); t = "abcd"; sub(/a|abc/, "X", t)
		print index("foobar", "bar"), substr("hello", 2, 3), match("foobar", /o+/), RSTART, RLENGTH, s, u, toupper("abc"), t }')"
out=$(seq 1 9 | awk 'NR == 2, NR == 3 { printf "%s ", $0; next } NR == 5 { exit 7 } END { print "end", NR }')
is "ranges, next, exit in a rule runs END, its status" "2 3 end 5|7" "$out|$?"
printf 'x y\nz\n' > /tmp/in2
is "getline forms" "x y|z|-1|hi|there 2" \
	"$(awk 'BEGIN { while ((getline l < "/tmp/in2") > 0) printf "%s|", l; printf "%d|", (getline < "/nonexistent")
		"echo hi; echo there" | getline v; printf "%s|", v; "echo hi; echo there" | getline; print $0, NR }')"
awk 'BEGIN { print "one" > "/tmp/awk.out"; print "two" > "/tmp/awk.out"; close("/tmp/awk.out"); print "three" >> "/tmp/awk.out" }'
is "print > and >> files" "one two three " "$(cat /tmp/awk.out | tr '\n' ' ')"
is "print | a command; close waits for it" "a b after " \
	"$(awk 'BEGIN { print "b" | "sort"; print "a" | "sort"; close("sort"); print "after" }' | tr '\n' ' ')"
is "system() and its status" "sys 3 " "$(awk 'BEGIN { system("echo sys"); r = system("exit 3"); print r }' | tr '\n' ' ')"
is "-v, -F, operands, ARGV, ENVIRON" "2 c 1 v=1 :|- exported" \
	"$(echo a:b:c | X=exported awk -v n=1 -F: '{ print n + 1, $3, v, ARGV[1], FS "|" ARGV[2], ENVIRON["X"] }' v=1 -)"
cat > /tmp/prog.awk <<'EOF'
# a program in a file
{ n[$1]++ }
END { for (k in n) s += n[k]; print s, length(n) }
EOF
is "-f PROGFILE" "4 2" "$(printf 'a\nb\na\nb\n' | awk -f /tmp/prog.awk)"

# A trace, read as ftracetest's programs read it.
echo > trace
echo 1 > events/sched/enable
echo 'hello from awk' > trace_marker
sleep 0.05
echo 0 > events/sched/enable
is "trace_marker.tc's program" "hello from awk" \
	"$(awk ' /tracing_mark_write:/ { sub(/^.*tracing_mark_write: /,"");printf "%s", $0; exit}' trace)"
n=$(cat trace | grep -v '^#' | awk '
	BEGIN { cnt = 0; }
	{
	    for (i = 0; i < cnt; i++) {
		if (event[i] == $5) {
		    break;
		}
	    }
	    if (i == cnt) {
		event[cnt++] = $5;
		if (cnt > 2) {
		    exit;
		}
	    }
	}
	END {
	    printf "%d", cnt;
	}')
is "subsystem-enable.tc's program finds 3 events" 3 "$n"
awk 'BEGIN { printf "written by awk" > "trace_marker" }'
is "print > trace_marker is one event" 1 "$(grep -c 'tracing_mark_write: written by awk$' trace)"
is "timestamps subtract exactly" "ok" \
	"$(grep -v '^#' trace | awk '{ t = $4; sub(/:$/, "", t); if (NR > 1 && t - prev < 0) bad = 1; prev = t } END { print bad ? "bad" : "ok" }')"

# Limits: errors, never a crash or a hang.
is "a syntax error names line and column, exits 2" \
	"awk: line 2, column 9: syntax error: unexpected '}'|2" \
	"$(awk 'BEGIN {
	x = 1 +}' 2>&1 | head -n 1)|$(awk 'BEGIN {' 2>/dev/null; echo $?)"
is "deep recursion stops with an error" \
	"awk: line 1: expression or function calls nested too deeply|2" \
	"$(awk 'function r(n) { return n ? 1 + r(n - 1) : 0 } BEGIN { print r(100000) }' 2>&1)|$?"
# A simple recursion goes about 35 deep on the 16 KiB stack (docs/awk.md).
is "recursion 20 deep works" 20 "$(awk 'function r(n) { return n ? 1 + r(n - 1) : 0 } BEGIN { print r(20) }')"
deep=$(awk 'BEGIN { for (i = 0; i < 200; i++) { l = l "("; r = r ")" } print l 1 r }')
is "200 nested parentheses are a syntax error" "awk: line 1, column 9: syntax error: nested too deeply|2" \
	"$(awk "BEGIN { print $deep }" 2>&1 | head -n 1 | sed 's/column [0-9]*/column 9/')|$(awk "BEGIN { print $deep }" 2>/dev/null; echo $?)"
sum=$(awk 'BEGIN { for (i = 0; i < 300; i++) s = s (i ? "+" : "") 1; print s }')
is "a 300-term sum needs no recursion per term" 300 "$(awk "BEGIN { print $sum }")"
is "a reader going away ends an endless print quietly" "y|" \
	"$(awk 'BEGIN { while (1) print "y" }' 2>/tmp/awk.err | head -n 1)|$(cat /tmp/awk.err)"
awk 'BEGIN { while (1) x++ }' &
pid=$!
sleep 0.2
kill $pid
wait $pid
is "kill stops an endless loop" 143 $?
