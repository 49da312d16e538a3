#!/bin/sh
# bench/perf_guest.sh [BUILD_DIR]: instructions per tracepoint sample into a
# perf mmap ring against the same event into the ftrace ring buffer. The
# event is raw_syscalls:sys_enter of getpid, in ring 3 by user/syscall_bench
# (op getpid) under QEMU -icount shift=0,sleep=off -smp 1, three ways:
# plain, with the event enabled in tracefs, and under our perf record
# (per task, a sample of every hit: -c 1, sample_type IP|TID|TIME|CPU|
# PERIOD|RAW|IDENTIFIER, a 4 MiB ring so none is lost). The cost of one
# event is the getpid figure minus the plain one. The same for the
# per-syscall event syscalls:sys_enter_getpid (its perf probe on the raw
# tracepoint, the sample at the user registers).
#
# A cpu-clock sample: getpid under perf record -e cpu-clock -c 50000, a
# timer sample every 50,000 ns, which under -icount shift=0 are 50,000
# instructions: a batch of B instructions takes B/50000 samples, so one
# sample costs (clock - plain) * 50000 / clock instructions. Linux on the
# rig runs its hrtimers from the tick (4 ms: no high-resolution mode under
# this QEMU), so there the figure is not comparable and is left out.
#
# The same static binaries run on Linux 6.12 when the linux-ref rig is
# there (LINUX_REF, default ../shared/tools/linux-ref, mkkernel.sh's kernel:
# run.sh --kernel ue); the table then gets Linux columns and the ratio
# Spoor/Linux (above 1: Spoor runs more instructions). There perf record
# finds no /sys/kernel/debug/tracing_data and says so; its samples are the
# same. Without the rig the Linux columns are left out.
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
batches=${BATCHES:-9}

# Why sleep=off and -seed: bench/syscall_guest.sh.
bench_qemu_icount -icount shift=0,sleep=off -seed 1
# Runs in /sys/kernel/tracing on both kernels; each line: MODE median=X.
cat > "$tmp/bench.sh" <<SCRIPT
T=/sys/kernel/tracing
med() { sed -n 's/.* median=\([0-9]*\).*/\1/p'; }
echo "perf_guest plain \$(/bin/syscall_bench $batches getpid | med)"
echo 1 > \$T/events/raw_syscalls/sys_enter/enable
echo "perf_guest ftrace \$(/bin/syscall_bench $batches getpid | med)"
echo 0 > \$T/events/raw_syscalls/sys_enter/enable
echo "perf_guest perf \$(/bin/perf record -e raw_syscalls:sys_enter -c 1 -m 1024 -o /tmp/b.data -- /bin/syscall_bench $batches getpid 2>/dev/null | med)"
echo "perf_guest syscalls \$(/bin/perf record -e syscalls:sys_enter_getpid -c 1 -m 1024 -o /tmp/b.data -- /bin/syscall_bench $batches getpid 2>/dev/null | med)"
echo "perf_guest clock \$(/bin/perf record -e cpu-clock -c 50000 -m 1024 -o /tmp/b.data -- /bin/syscall_bench $batches getpid 2>/dev/null | med)"
SCRIPT

PATH="$tmp:$PATH" "$build/spoor" exec --smp 1 --timeout 300 "$tmp/bench.sh" < /dev/null \
	| grep '^perf_guest ' > "$tmp/spoor" || { echo "perf_guest: no result from Spoor" >&2; exit 1; }
: > "$tmp/linux"
if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
	PATH="$tmp:$PATH" "$ref/run.sh" --icount --smp 1 --kernel ue \
		--file "$build/user/syscall_bench:/bin/syscall_bench" --file "$build/user/perf:/bin/perf" \
		"$tmp/bench.sh" < /dev/null | grep '^perf_guest ' > "$tmp/linux" ||
		echo "perf_guest: no result from Linux; Spoor only" >&2
else
	echo "perf_guest: no linux-ref rig with --kernel ue ($ref, $rig); Spoor only" >&2
fi

awk '
	FNR == 1 { file++ }
	file == 1 { spoor[$2] = $3 }
	file == 2 { linux[$2] = $3; have = 1 }
	function row(name, mode,   s, l) {
		s = spoor[mode] - spoor["plain"]
		if (!have) { printf "%-36s %10d\n", name, s; return }
		l = linux[mode] - linux["plain"]
		printf "%-36s %10d %12d %7.2f\n", name, s, l, l ? s / l : 0
	}
	END {
		if (have) printf "%-36s %10s %12s %7s\n", "per raw_syscalls:sys_enter event", "Spoor", "Linux 6.12", "ratio"
		else printf "%-36s %10s\n", "per raw_syscalls:sys_enter event", "Spoor"
		row("into the ftrace ring buffer", "ftrace")
		row("as a perf sample into the mmap ring", "perf")
		row("syscalls:sys_enter_getpid, perf sample", "syscalls")
		if (spoor["clock"])
			printf "%-36s %10d\n", "a cpu-clock sample (timer interrupt)",
				(spoor["clock"] - spoor["plain"]) * 50000 / spoor["clock"]
		printf "(instructions: getpid with the event minus plain getpid, %d on Spoor", spoor["plain"]
		if (have) printf ", %d on Linux", linux["plain"]
		print "; medians of batches of 1000)"
	}' "$tmp/spoor" "$tmp/linux"
