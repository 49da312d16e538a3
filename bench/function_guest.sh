#!/bin/sh
# bench/function_guest.sh [KERNEL]: the function tracer's costs measured in
# the guest (trace/ftrace_benchmark.c, /sys/kernel/debug/trace_selftest
# "ftrace N"): a traced call with its site off (the NOP) and on (trampoline,
# dispatch, callback, committed ftrace:function record), and the time to
# patch every site on and off. Under -icount shift=0 one guest ns is one
# instruction; under plain TCG the patch times are closer to wall time.
set -eu

kernel=${1:-${KERNEL:-build/spoor.elf}}
spoor=$(dirname "$kernel")/spoor
calls=${CALLS:-20000}
[ -f "$kernel" ] && [ -x "$spoor" ] || { echo "bench/function_guest.sh: build $kernel and $spoor first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cat > "$tmp/bench.sh" <<SCRIPT
echo ftrace $calls > /sys/kernel/debug/trace_selftest
cat /sys/kernel/debug/trace_selftest
SCRIPT
"$spoor" mkinitrd -o "$tmp/initrd.cpio" "$tmp/bench.sh:/spoor/exec/1.sh"

run() { # run LABEL UNIT SMP QEMU-ARGS...: one boot, the benchmark's line in UNIT
	label=$1 unit=$2 smp=$3; shift 3
	line=$(timeout 120 "$spoor" boot --smp "$smp" --kernel "$kernel" --initrd "$tmp/initrd.cpio" \
		--append spoor.exec=1 -- "$@" < /dev/null 2>&1 | tr -d '\r' | grep '^ftrace: ' || true)
	[ -n "$line" ] || { echo "$label: no result" >&2; return 1; }
	set -- $line
	# ftrace: calls N off X ns on Y ns sites S patch_on P us patch_off Q us
	printf '%-22s %s calls: site off %s %s, traced call %s %s; %s sites patched on in %s us, off in %s us\n' \
		"$label" "$3" "$5" "$unit" "$8" "$unit" "${11}" "${13}" "${16}"
}

run "-icount shift=0 smp 1" insns 1 -icount shift=0
run "TCG smp 4" ns 4
