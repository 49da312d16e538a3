#!/bin/sh
# bench/syscall_guest.sh [BUILD_DIR]: instructions per operation of basic
# kernel paths (getpid, a 1-byte /dev/null write, fork+exit+wait,
# fork+execve(/bin/hello)+wait, an anonymous page fault), measured in ring 3
# by user/syscall_bench under QEMU -icount shift=0,sleep=off -smp 1, where the guest TSC
# counts retired instructions (repeatable to the instruction).
#
# The same static binaries then run on Linux 6.12 when the linux-ref rig is
# there (LINUX_REF, default ../shared/tools/linux-ref, with mkkernel.sh's
# kernel: run.sh --kernel ue), and the table gets a Linux column and the
# ratio Spoor/Linux (above 1: Spoor runs more instructions). Without the rig
# the Linux columns are left out. BATCHES (9) batches per operation, median.
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
batches=${BATCHES:-9}

# sleep=off: idle time jumps to the next timer instead of following the
# host clock, so where ticks land, and with them every count, is the same on
# every run (with plain shift=0, fork+exit+wait on Spoor moved by 30% from
# one boot to the next). -seed: RDRAND, which both kernels mix into stack
# and mmap randomization, gives the same numbers on every run, so do the
# address-space layouts.
bench_qemu_icount -icount shift=0,sleep=off -seed 1
echo "/bin/syscall_bench $batches" > "$tmp/bench.sh"

PATH="$tmp:$PATH" "$build/spoor" exec --smp 1 --timeout 300 "$tmp/bench.sh" < /dev/null \
	| grep '^syscall_bench op=' > "$tmp/spoor" || { echo "syscall_guest: no result from Spoor" >&2; exit 1; }
: > "$tmp/linux"
if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
	PATH="$tmp:$PATH" "$ref/run.sh" --icount --smp 1 --kernel ue \
		--file "$build/user/syscall_bench:/bin/syscall_bench" --file "$build/user/hello:/bin/hello" \
		"$tmp/bench.sh" < /dev/null | grep '^syscall_bench op=' > "$tmp/linux" ||
		echo "syscall_guest: no result from Linux; Spoor only" >&2
else
	echo "syscall_guest: no linux-ref rig with --kernel ue ($ref, $rig); Spoor only" >&2
fi

# Lines: syscall_bench op=NAME iters=N batches=B median=X min=Y max=Z
awk '
	function field(k,   i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2) }
	FNR == 1 { file++ }
	{ op = field("op"); v = field("median") }
	file == 1 { order[++n] = op; spoor[op] = v }
	file == 2 { linux[op] = v; have = 1 }
	END {
		if (have) printf "%-18s %12s %12s %7s\n", "operation", "Spoor", "Linux 6.12", "ratio"
		else printf "%-18s %12s\n", "operation", "Spoor"
		for (i = 1; i <= n; i++) {
			op = order[i]
			if (!have) { printf "%-18s %12d\n", op, spoor[op]; continue }
			ratio = linux[op] ? sprintf("%.2f", spoor[op] / linux[op]) : "-"
			printf "%-18s %12d %12s %7s\n", op, spoor[op], linux[op] ? linux[op] : "-", ratio
		}
		print "(instructions per operation, median of batches; loop = 2 checks that the TSC counts instructions)"
	}' "$tmp/spoor" "$tmp/linux"
