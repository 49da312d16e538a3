#!/bin/sh
# bench/trace_guest.sh [KERNEL]: the tracing core's costs measured inside
# the guest (trace/trace_benchmark.c, through /sys/kernel/debug/trace_selftest):
#   tp_off   a tracepoint call site with no probe (the 5-byte NOP)
#   tp_on    trace_sched_switch() to a committed 64-byte record
#   rb       ring-buffer reserve + fill + commit of a 64-byte event
# Run twice: under -icount shift=0, where one guest ns is one instruction
# (repeatable instruction counts), and under plain TCG (events/s per CPU).
# The QEMU option needs `spoor boot` (spoor exec takes none); the script
# goes in as /spoor/exec/1.sh with spoor.exec=1, the exec protocol.
set -eu

kernel=${1:-${KERNEL:-build/spoor.elf}}
spoor=$(dirname "$kernel")/spoor
calls=${CALLS:-20000}
[ -f "$kernel" ] && [ -x "$spoor" ] || { echo "bench/trace_guest.sh: build $kernel and $spoor first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cat > "$tmp/bench.sh" <<SCRIPT
echo bench $calls > /sys/kernel/debug/trace_selftest
cat /sys/kernel/debug/trace_selftest
SCRIPT
"$spoor" mkinitrd -o "$tmp/initrd.cpio" "$tmp/bench.sh:/spoor/exec/1.sh"

run() { # run LABEL UNIT QEMU-ARGS...: one boot, the benchmark's figures in UNIT
	label=$1 unit=$2; shift 2
	line=$(timeout 120 "$spoor" boot --smp 1 --kernel "$kernel" --initrd "$tmp/initrd.cpio" \
		--append spoor.exec=1 -- "$@" < /dev/null 2>&1 | tr -d '\r' | grep '^bench: ' || true)
	[ -n "$line" ] || { echo "$label: no result" >&2; return 1; }
	set -- $line
	# bench: calls N tp_off X ns tp_on Y ns rb Z ns rb_events_per_sec R
	printf '%-16s %s calls: disabled tracepoint %s %s, enabled sched_switch-sized event %s %s, ring buffer write %s %s' \
		"$label" "$3" "$5" "$unit" "$8" "$unit" "${11}" "$unit"
	if [ "$unit" = ns ]; then printf ' (%s events/s/CPU)\n' "${14}"; else echo; fi
}

run "-icount shift=0" insns -icount shift=0
run "TCG" ns
