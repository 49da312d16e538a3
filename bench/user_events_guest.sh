#!/bin/sh
# bench/user_events_guest.sh [BUILD_DIR]: instructions of user_events paths,
# measured in ring 3 by user/ue_bench under QEMU -icount shift=0,sleep=off -smp 1
# (the guest TSC counts retired instructions): the program's check of a disabled
# event, a writev of a 3-field event when enabled (syscall included), and the
# same with a hist trigger on the event. With the linux-ref rig (--kernel ue)
# present the same binary runs on Linux 6.12 and the table gets its column.
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"

# As bench/syscall_guest.sh: every count is the same on every run.
bench_qemu_icount -icount shift=0,sleep=off -seed 1
cat > "$tmp/bench.sh" <<'GUEST'
cd /sys/kernel/tracing
E=events/user_events/ue_bench
/bin/ue_bench check 100000
( while [ ! -e $E/enable ]; do sleep 0.01; done; echo 1 > $E/enable ) &
/bin/ue_bench write 2000
echo 'hist:keys=a:vals=b' > $E/trigger
/bin/ue_bench write 2000 | sed 's/op=write/op=write+hist/'
GUEST

PATH="$tmp:$PATH" "$build/spoor" exec --smp 1 --timeout 300 "$tmp/bench.sh" < /dev/null \
	| grep '^ue_bench op=' > "$tmp/spoor" || { echo "user_events_guest: no result from Spoor" >&2; exit 1; }
: > "$tmp/linux"
if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
	PATH="$tmp:$PATH" "$ref/run.sh" --icount --smp 1 --kernel ue \
		--file "$build/user/ue_bench:/bin/ue_bench" "$tmp/bench.sh" < /dev/null |
		grep '^ue_bench op=' > "$tmp/linux" || echo "user_events_guest: no result from Linux" >&2
else
	echo "user_events_guest: no linux-ref rig with --kernel ue; Spoor only" >&2
fi
printf '%-12s %10s %10s %8s\n' operation spoor linux ratio
while read -r _ op insns _; do
	op=${op#op=}
	s=${insns#insns=}
	l=$(sed -n "s/^ue_bench op=$op insns=\([0-9]*\).*/\1/p" "$tmp/linux")
	if [ -n "$l" ] && [ "$l" -gt 0 ]; then
		printf '%-12s %10s %10s %8s\n' "$op" "$s" "$l" "$(awk "BEGIN { printf \"%.2f\", $s / $l }")"
	else
		printf '%-12s %10s %10s %8s\n' "$op" "$s" - -
	fi
done < "$tmp/spoor"
