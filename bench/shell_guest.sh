#!/bin/sh
# bench/shell_guest.sh [BUILD_DIR]: instructions per iteration of the shell
# loop `while [ $i -lt N ]; do echo x >&3; i=$((i + 1)); done` with fd 3 on
# /dev/null (issue 14), in the guest's own shell under QEMU -icount shift=0
# -smp 1, where a trace timestamp's nanosecond is one retired instruction.
#
# Two loops, of ITERS and 3*ITERS iterations, run between trace_marker
# writes; the difference of their durations over 2*ITERS is the cost of one
# iteration, with everything around the loops (marker writes, loop set-up)
# cancelled out. The same script then runs under busybox sh on Linux 6.12
# when the linux-ref rig is there (LINUX_REF, default
# ../shared/tools/linux-ref, with mkkernel.sh's kernel: run.sh --kernel ue),
# adding a Linux column and the ratio Spoor/Linux. ITERS defaults to 2000.
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
iters=${ITERS:-2000}

bench_qemu_icount -icount shift=0

cat > "$tmp/bench.sh" <<SCRIPT
cd /sys/kernel/tracing
echo > trace
exec 3> /dev/null
echo a > trace_marker
i=0; while [ \$i -lt $iters ]; do echo x >&3; i=\$((i + 1)); done
echo b > trace_marker
i=0; while [ \$i -lt $((iters * 3)) ]; do echo x >&3; i=\$((i + 1)); done
echo c > trace_marker
grep tracing_mark_write trace
SCRIPT

# Marker lines: ... TIMESTAMP: tracing_mark_write: a|b|c -> instructions per iteration.
per_iter() {
	awk -v n="$iters" '
		/tracing_mark_write: [abc]$/ {
			for (i = 1; i < NF; i++)
				if ($(i + 1) == "tracing_mark_write:") { t[$NF] = $i + 0; got++ }
		}
		END {
			if (got != 3) exit 1
			printf "%d\n", ((t["c"] - t["b"]) - (t["b"] - t["a"])) * 1e9 / (2 * n) + 0.5
		}'
}

PATH="$tmp:$PATH" "$build/spoor" exec --smp 1 --timeout 600 "$tmp/bench.sh" < /dev/null |
	per_iter > "$tmp/spoor" || { echo "shell_guest: no result from Spoor" >&2; exit 1; }
spoor=$(cat "$tmp/spoor")
if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
	if linux=$("$ref/run.sh" --icount --smp 1 --kernel ue "$tmp/bench.sh" < /dev/null | per_iter); then
		printf '%-28s %10s %10s %7s\n' "work" "Spoor" "Linux 6.12" "ratio"
		printf '%-28s %10d %10d %7s\n' "shell loop iteration" "$spoor" "$linux" \
			"$(awk -v s="$spoor" -v l="$linux" 'BEGIN { printf "%.2f", s / l }')"
		echo "(instructions per iteration; Linux: busybox sh, system calls included)"
		exit 0
	fi
	echo "shell_guest: no result from Linux; Spoor only" >&2
else
	echo "shell_guest: no linux-ref rig with --kernel ue ($ref, $rig); Spoor only" >&2
fi
printf '%-28s %10s\n' "work" "Spoor"
printf '%-28s %10d\n' "shell loop iteration" "$spoor"
echo "(instructions per iteration)"
