#!/bin/sh
# bench/event_guest.sh [BUILD_DIR]: issue 14's three event rows, in
# instructions under QEMU -icount shift=0 -smp 1 (a trace timestamp's
# nanosecond is one retired instruction), Spoor and, when the linux-ref rig
# is there (LINUX_REF, run.sh --kernel ue), Linux 6.12 running the same
# script under busybox sh:
#   marker   one trace_marker event: a shell loop writing "x" to fd 3 on
#            trace_marker, less the same loop with fd 3 on /dev/null
#   hist     one hist hit: the trace_marker loop with hist:keys=common_pid on
#            ftrace/print, less the loop without it
#   switch   one sched_switch handed to a trigger that never fires
#            (`traceon if common_pid < 0`), less no trigger, per switch of
#            `pipepong ROUNDS` (user/pipepong: two processes passing a byte over
#            pipes), the switches counted by a hist's Hits
# Each loop runs ITERS and 3*ITERS times between markers: the difference of
# the two over 2*ITERS cancels the set-up around them. ITERS defaults to
# 2000, ROUNDS (pipepong round trips) to 2000.
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
ninja -f "$nf" "$build/user/pipepong" > /dev/null
iters=${ITERS:-2000}
rounds=${ROUNDS:-2000}

bench_qemu_icount -icount shift=0

cat > "$tmp/bench.sh" <<SCRIPT
cd /sys/kernel/tracing
echo 16384 > buffer_size_kb
# loops NAME: the two loops writing x to fd 3, between NAME markers a, b, c
loops() {
	echo > trace
	echo \${1}a > trace_marker
	i=0; while [ \$i -lt $iters ]; do echo x >&3; i=\$((i + 1)); done
	echo \${1}b > trace_marker
	i=0; while [ \$i -lt $((iters * 3)) ]; do echo x >&3; i=\$((i + 1)); done
	echo \${1}c > trace_marker
	grep -E "tracing_mark_write: \${1}[abc]"'\$' trace
}
pp=pipepong
[ -x /pipepong ] && pp=/pipepong	# Linux: put there by run.sh --file
# pp NAME: pipepong of $rounds and $((rounds * 3)) round trips between markers
pp() {
	echo > trace
	echo \${1}a > trace_marker
	\$pp $rounds
	echo \${1}b > trace_marker
	\$pp $((rounds * 3))
	echo \${1}c > trace_marker
	grep -E "tracing_mark_write: \${1}[abc]"'\$' trace
}
exec 3> /dev/null
loops null
exec 3> trace_marker
loops marker
echo 'hist:keys=common_pid' > events/ftrace/print/trigger
loops hist
echo '!hist:keys=common_pid' > events/ftrace/print/trigger
exec 3>&-
pp none
echo 'traceon if common_pid < 0' > events/sched/sched_switch/trigger
pp never
echo '!traceon if common_pid < 0' > events/sched/sched_switch/trigger
echo 'hist:keys=common_cpu' > events/sched/sched_switch/trigger
echo > trace
echo counta > trace_marker
\$pp $rounds
echo countb > trace_marker
\$pp $((rounds * 3))
echo countc > trace_marker
echo "switches \$(grep '^Totals:' -A1 events/sched/sched_switch/hist | sed -n 's/.*Hits: *//p')"
SCRIPT

# The markers' timestamps -> per-loop-iteration instructions of each phase,
# then the rows as differences.
rows() {
	awk -v n="$iters" -v r="$rounds" '
		/tracing_mark_write: [a-z]+[abc]$/ {
			for (i = 1; i < NF; i++)
				if ($(i + 1) == "tracing_mark_write:") {
					tag = $NF; ph = substr(tag, 1, length(tag) - 1)
					t[ph, substr(tag, length(tag))] = $i + 0
				}
		}
		/^switches / { sw = $2 }
		function per(ph, cnt) { return ((t[ph, "c"] - t[ph, "b"]) - (t[ph, "b"] - t[ph, "a"])) * 1e9 / (2 * cnt) }
		END {
			if (!t["hist", "c"] || !t["never", "c"] || !sw) exit 1
			printf "%d %d %d\n", per("marker", n) - per("null", n) + 0.5, \
				per("hist", n) - per("marker", n) + 0.5, \
				(per("never", 1) - per("none", 1)) * 4 / sw + 0.5
		}'
}

PATH="$tmp:$PATH" "$build/spoor" exec --smp 1 --timeout 600 "$tmp/bench.sh" < /dev/null |
	rows > "$tmp/spoor" || { echo "event_guest: no result from Spoor" >&2; exit 1; }
set -- $(cat "$tmp/spoor")
linux=
if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
	linux=$("$ref/run.sh" --icount --smp 1 --kernel ue --file "$PWD/$build/user/pipepong:/pipepong" "$tmp/bench.sh" < /dev/null | rows) ||
		{ echo "event_guest: no result from Linux; Spoor only" >&2; linux=; }
else
	echo "event_guest: no linux-ref rig with --kernel ue ($ref, $rig); Spoor only" >&2
fi
printf '%-40s %8s %11s\n' work Spoor "Linux 6.12"
i=1
for label in "trace_marker event (over /dev/null)" "hist hit, keys=common_pid on ftrace/print" "sched_switch, never-firing trigger"; do
	eval "s=\${$i}"
	l=$(echo "$linux" | cut -d' ' -f$i)
	printf '%-40s %8s %11s\n' "$label" "$s" "${l:--}"
	i=$((i + 1))
done
echo "(instructions per event)"
