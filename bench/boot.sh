#!/bin/sh
# bench/boot.sh [KERNEL]: how fast Spoor boots under QEMU TCG.
#
# Boots the kernel RUNS times (default 5) in each configuration, stops
# QEMU as soon as the kernel prints "Spoor ready in N us" (N: guest TSC
# time since the machine started, firmware included), and prints the
# median guest figure and the median host wall-clock time from QEMU's
# start to that line. -icount shift=0 makes the guest figure repeatable
# (one instruction = 1 ns of guest time) at the cost of a slower host run.
set -eu

kernel=${1:-${KERNEL:-build/spoor.elf}}
runs=${RUNS:-5}
timeout_s=${TIMEOUT:-20}
[ -f "$kernel" ] || { echo "bench/boot.sh: no kernel at $kernel (build it first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

now_us() { echo $(( $(date +%s%N) / 1000 )); }

median() { # the middle value of the numbers on stdin
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}

# one_boot SMP EXTRA...: prints "GUEST_US HOST_US", or "fail" if no ready line came.
one_boot() {
	smp=$1; shift
	fifo=$tmp/serial
	rm -f "$fifo"; mkfifo "$fifo"
	start=$(now_us)
	timeout "$timeout_s" qemu-system-x86_64 -kernel "$kernel" -display none -no-reboot -m 256 \
		-smp "$smp" -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial stdio "$@" \
		</dev/null >"$fifo" 2>/dev/null &
	qemu=$!
	result=fail
	while IFS= read -r line; do
		case $line in
		*"Spoor ready in "*)
			result="$(echo "$line" | sed 's/.*Spoor ready in \([0-9]*\) us.*/\1/') $(( $(now_us) - start ))"
			break ;;
		esac
	done < "$fifo"
	kill "$qemu" 2>/dev/null || true
	wait "$qemu" 2>/dev/null || true
	echo "$result"
}

bench() { # bench NAME SMP EXTRA...
	name=$1; shift
	: > "$tmp/g"; : > "$tmp/h"; fails=0
	i=0
	while [ $i -lt "$runs" ]; do
		r=$(one_boot "$@")
		if [ "$r" = fail ]; then
			fails=$((fails + 1))
		else
			echo "${r% *}" >> "$tmp/g"
			echo "${r#* }" >> "$tmp/h"
		fi
		i=$((i + 1))
	done
	g=$(median < "$tmp/g"); h=$(median < "$tmp/h")
	printf '%-22s guest ready %8s us   host wall %8s us   (%d runs, %d failed)\n' \
		"$name" "$g" "$h" "$runs" "$fails"
}

bench "-smp 1" 1
bench "-smp 4" 4
bench "-smp 4 -icount 0" 4 -icount shift=0
