#!/bin/sh
# bench/hist_guest.sh [BUILD_DIR]: instructions per event of a hist update
# in the guest, under QEMU -icount shift=0 (one instruction = 1 ns of guest
# time, so guest time differences are instruction counts).
#
# A ping-pong workload runs between two trace_marker writes with, in turn,
# a one-key hitcount histogram on sched_switch, a two-key histogram with
# two sums on sched_switch, and the wakeup-latency pair (sched_waking saves
# a timestamp, sched_switch computes the latency and generates a synthetic
# event). The baseline is the same run with a trigger that never fires
# (`traceon if common_pid < 0`) on the same events, so the events are
# built and handed to triggers the same way; the difference divided by
# the histogram's Hits is the cost of the hist update. Best of RUNS (3).
set -eu

build=${1:-build}
runs=${RUNS:-3}
rounds=${ROUNDS:-20000}
[ -x "$build/spoor" ] || { echo "bench/hist_guest.sh: build $build/spoor first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# spoor exec runs QEMU_BIN from $PATH: put one first that adds -icount.
real=$(command -v qemu-system-x86_64)
cat > "$tmp/qemu-system-x86_64" <<EOF
#!/bin/sh
exec "$real" "\$@" -icount shift=0
EOF
chmod +x "$tmp/qemu-system-x86_64"

cat > "$tmp/bench.sh" <<EOF
cd /sys/kernel/tracing
S=events/sched/sched_switch
W=events/sched/sched_waking
# timed RUNS: the guest microseconds of each run (= thousands of instructions)
timed() {
	i=0
	while [ \$i -lt $runs ]; do
		echo > trace
		echo start > trace_marker
		pingpong 1 $rounds
		echo end > trace_marker
		grep tracing_mark_write trace | sed 's/.* \([0-9]*\)\.\([0-9]*\): .*/\1\2/' | tr '\n' ' '
		echo
		i=\$((i + 1))
	done
}
hits() { grep '^    Hits: ' \$1 | sed 's/[^0-9]//g' | head -n 1; }

echo 'traceon if common_pid < 0' > \$S/trigger
echo 'traceon if common_pid < 0' > \$W/trigger
echo "base"; timed
echo 'hist:keys=next_pid' >> \$S/trigger
echo "one-key"; timed; echo "hits \$(hits \$S/hist)"
echo '!hist:keys=next_pid' >> \$S/trigger
echo 'hist:keys=next_pid,prev_pid:vals=prev_prio,next_prio' >> \$S/trigger
echo "two-keys"; timed; echo "hits \$(hits \$S/hist)"
echo '!hist:keys=next_pid,prev_pid:vals=prev_prio,next_prio' >> \$S/trigger
echo 'wakeup_latency u64 lat; pid_t pid' >> synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> \$W/trigger
echo 'hist:keys=next_pid:lat=common_timestamp.usecs-\$ts0:onmatch(sched.sched_waking).wakeup_latency(\$lat,next_pid)' >> \$S/trigger
echo "pair"; timed; echo "hits \$((\$(hits \$W/hist) + \$(hits \$S/hist)))"
EOF

PATH="$tmp:$PATH" "$build/spoor" exec --smp 1 --timeout 600 "$tmp/bench.sh" > "$tmp/out"

# best run of each shape: end - start in guest us
awk -v runs="$runs" '
	/^(base|one-key|two-keys|pair)$/ { shape = $1; best[shape] = -1; next }
	/^hits / { hits[shape] = $2; next }
	NF == 2 && $2 > $1 { t = $2 - $1; if (best[shape] < 0 || t < best[shape]) best[shape] = t }
	END {
		printf "baseline (never-firing trigger): %d us of guest time per run\n", best["base"]
		n = split("one-key two-keys pair", s, " ")
		for (i = 1; i <= n; i++) {
			d = (best[s[i]] - best["base"]) * 1000
			printf "%-10s %8d hist updates per run  %7.0f instructions per update\n", \
				s[i], hits[s[i]] / runs, hits[s[i]] ? d / (hits[s[i]] / runs) : 0
		}
	}' "$tmp/out"
