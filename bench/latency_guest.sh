#!/bin/sh
# bench/latency_guest.sh [KERNEL]: what the preemptirq hooks cost
# (trace/trace_preemptirq.c), measured in the guest under -icount shift=0
# (one guest ns is one instruction), smp 1: a local_irq_save/restore pair
# and a preempt_disable/enable pair (trace_selftest "preemptirq N") with
# the hooks off (each site a 5-byte NOP), with the irqsoff /
# preemptirqsoff tracer on (no section long enough to be a new max after
# the first) and with the four preemptirq events on; and ring 3's getpid
# (user/syscall_bench, median) in the same states, to compare with a kernel
# built without the hooks (run this on both).
set -eu

kernel=${1:-${KERNEL:-build/spoor.elf}}
spoor=$(dirname "$kernel")/spoor
pairs=${PAIRS:-20000}
[ -f "$kernel" ] && [ -x "$spoor" ] || { echo "bench/latency_guest.sh: build $kernel and $spoor first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cat > "$tmp/bench.sh" <<SCRIPT
cd /sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
state() { # state NAME: one line of each benchmark in the current state
	if echo preemptirq $pairs > \$S 2>/dev/null; then echo "\$1 \$(cat \$S)"; fi
	echo "state \$1"
	/bin/syscall_bench 9 getpid
}
state off
if grep -q irqsoff available_tracers; then
	echo irqsoff > current_tracer; state irqsoff; echo nop > current_tracer
	echo preemptirqsoff > current_tracer; state preemptirqsoff; echo nop > current_tracer
	echo 1 > events/preemptirq/enable; state events; echo 0 > events/preemptirq/enable
fi
SCRIPT
. "$(dirname "$0")/lib.sh"
bench_qemu_icount -icount shift=0,sleep=off
PATH="$tmp:$PATH" timeout 300 "$spoor" exec --quiet --smp 1 --timeout 280 "$tmp/bench.sh" 2>&1 |
	awk '$2 == "preemptirq:" { printf "%-15s irq pair %5d insns, preempt pair %5d insns\n", $1, $6, $9 }
	     $1 == "state" { state = $2 }
	     $1 == "syscall_bench" { m = $0; sub(/.*median=/, "", m); sub(/ .*/, "", m)
				     printf "%-15s getpid %5d insns\n", state, m }'
