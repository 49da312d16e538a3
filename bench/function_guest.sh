#!/bin/sh
# bench/function_guest.sh [KERNEL]: the function tracer's costs measured in
# the guest (trace/ftrace_benchmark.c, /sys/kernel/debug/trace_selftest
# "ftrace N"): a traced call with its site off (the NOP), on (trampoline,
# dispatch, callback, committed ftrace:function record) and under
# function_graph (the same with the return hooked, both records), and the
# time to patch every site on and off. Under -icount shift=0 one guest ns is one
# instruction; under plain TCG the patch times are closer to wall time.
set -eu

kernel=${1:-${KERNEL:-build/spoor.elf}}
spoor=$(dirname "$kernel")/spoor
calls=${CALLS:-20000}
[ -f "$kernel" ] && [ -x "$spoor" ] || { echo "bench/function_guest.sh: build $kernel and $spoor first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# FUNC_OPTIONS="func-no-repeats ...": options/NAME turned on before each
# measurement, on Spoor and on Linux (the function tracer reads its own as
# it goes; the in-kernel loop calls one function from one place, so with
# func-no-repeats every traced call after the first is only counted).
opts=""
for o in ${FUNC_OPTIONS:-}; do
	opts="$opts echo 1 > /sys/kernel/tracing/options/$o;"
done
[ -z "$opts" ] || echo "options on:${FUNC_OPTIONS:+ $FUNC_OPTIONS}"

cat > "$tmp/bench.sh" <<SCRIPT
$opts
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
	# ftrace: calls N off X ns on Y ns graph G ns sites S patch_on P us patch_off Q us
	printf '%-22s %s calls: site off %s %s, traced call %s %s, graph call (entry+exit) %s %s; %s sites patched on in %s us, off in %s us\n' \
		"$label" "$3" "$5" "$unit" "$8" "$unit" "${11}" "$unit" "${14}" "${16}" "${19}"
}

run "-icount shift=0 smp 1" insns 1 -icount shift=0
run "TCG smp 4" ns 4

# The same paths seen from ring 3, on Spoor and on Linux 6.12 (the linux-ref
# rig, when there): user/syscall_bench's getpid with its handler alone traced
# (Linux's is __do_sys_getpid, Spoor's __x64_sys_getpid), by function and by function_graph; the extra instructions over an
# untraced getpid are one traced call (-icount shift=0,sleep=off, smp 1). Then a
# kprobe event on the handler's entry (Linux 6.12 puts an entry probe on the
# function's ftrace site, Spoor an int3 just past it).
. "$(dirname "$0")/lib.sh"
ref=${LINUX_REF:-../shared/tools/linux-ref}
rig=${RIG:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-ref}
build=$(dirname "$kernel")
bench_qemu_icount -icount shift=0,sleep=off -seed 1
echo "$opts" > "$tmp/getpid.sh"
cat >> "$tmp/getpid.sh" <<'SCRIPT'
cd /sys/kernel/tracing
# kprobes through int3 (the optprobe row below has the jump-optimized ones)
echo 0 > /proc/sys/debug/kprobes-optimization
f=$(grep -E '^(__do_sys_getpid|__x64_sys_getpid)$' available_filter_functions | head -1)
echo $f > set_ftrace_filter
for t in nop function function_graph; do
	echo $t > current_tracer
	echo "tracer=$t $(/bin/syscall_bench 9 getpid)"
	echo nop > current_tracer
done
echo > set_ftrace_filter
echo "p:kp $f" > kprobe_events
echo 1 > events/kprobes/kp/enable
echo "tracer=kprobe $(/bin/syscall_bench 9 getpid)"
echo 0 > events/kprobes/kp/enable
echo > kprobe_events
SCRIPT
getpid_costs() { # getpid_costs LABEL < lines: the traced tracers' extra instructions
	awk -v label="$1" '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } m[v["tracer"]] = v["median"] }
		END { if (!("nop" in m)) exit 1
		      printf "%-22s getpid %d insns; traced: function +%d, function_graph +%d, kprobe event +%d\n", label,
			m["nop"], m["function"] - m["nop"], m["function_graph"] - m["nop"], m["kprobe"] - m["nop"] }'
}
# spoor_and_linux SCRIPT KEY COSTS WHAT: SCRIPT's KEY= lines on Spoor, and on
# Linux 6.12 when the rig is there, summed up by COSTS LABEL.
spoor_and_linux() {
	PATH="$tmp:$PATH" "$spoor" exec --smp 1 --kernel "$kernel" --timeout 120 "$tmp/$1" < /dev/null |
		grep "^$2=" | $3 "Spoor $4" || echo "function_guest: no $4 result from Spoor" >&2
	if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
		PATH="$tmp:$PATH" "$ref/run.sh" --icount --smp 1 --kernel ue \
			--file "$build/user/syscall_bench:/bin/syscall_bench" "$tmp/$1" < /dev/null |
			grep "^$2=" | $3 "Linux 6.12 $4" || echo "function_guest: no $4 result from Linux" >&2
	fi
}
spoor_and_linux getpid.sh tracer getpid_costs getpid

# Probe events on the same handler: a kprobe (int3), an fprobe (the function
# tracer's callback) and a %return fprobe (the shadow-stack hook), each with
# one argument and its record committed; the extra instructions over an
# untraced getpid are one hit. Linux's ue kernel has no fprobe events: there
# only the kprobe and kretprobe are measured.
cat > "$tmp/probes.sh" <<'SCRIPT'
cd /sys/kernel/tracing
echo 0 > /proc/sys/debug/kprobes-optimization
f=$(grep -E '^(__do_sys_getpid|__x64_sys_getpid)$' available_filter_functions | head -1)
echo "probe=nop $(/bin/syscall_bench 9 getpid)"
for p in "p:kprobes/pk $f \$arg1" "r:kprobes/pr $f \$retval" "f:fprobes/pf $f \$arg1" "f:fprobes/px $f%return \$retval"; do
	echo "$p" > dynamic_events 2>/dev/null || continue
	event=${p#*:}
	event=${event%% *}
	echo 1 > events/$event/enable
	echo "probe=${event#*/} $(/bin/syscall_bench 9 getpid)"
	echo 0 > events/$event/enable
	echo > dynamic_events
done
SCRIPT
probe_costs() { # probe_costs LABEL < lines: each probe's extra instructions
	awk -v label="$1" '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } m[v["probe"]] = v["median"] }
		END { if (!("nop" in m)) exit 1
		      printf "%-22s probe hit on the getpid handler: kprobe +%d, kretprobe +%d", label, m["pk"] - m["nop"], m["pr"] - m["nop"]
		      if ("pf" in m) printf ", fprobe +%d, fprobe %%return +%d", m["pf"] - m["nop"], m["px"] - m["nop"]
		      printf "\n" }'
}
spoor_and_linux probes.sh probe probe_costs probes

# A kprobe without arguments in the getpid handler, jump-optimized and
# through int3: the first offset whose probe the listing shows OPTIMIZED
# (Linux 6.12 puts one at +0 on the ftrace site, so its first is further
# in), measured, then /proc/sys/debug/kprobes-optimization 0 and measured
# again. The extra instructions over an untraced getpid are one hit.
cat > "$tmp/optprobe.sh" <<'SCRIPT'
cd /sys/kernel/tracing
f=$(grep -E '^(__do_sys_getpid|__x64_sys_getpid)$' available_filter_functions | head -1)
echo "opt=nop $(/bin/syscall_bench 9 getpid)"
for off in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	echo "p:kprobes/pk $f+$off" > kprobe_events 2>/dev/null || continue
	echo 1 > events/kprobes/pk/enable
	i=0
	while ! grep -q OPTIMIZED /sys/kernel/debug/kprobes/list && [ $i -lt 25 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	grep -q OPTIMIZED /sys/kernel/debug/kprobes/list && break
	echo 0 > events/kprobes/pk/enable
	echo > kprobe_events
done
grep -q OPTIMIZED /sys/kernel/debug/kprobes/list && echo "opt=jmp $(/bin/syscall_bench 9 getpid)"
echo 0 > /proc/sys/debug/kprobes-optimization
grep -q OPTIMIZED /sys/kernel/debug/kprobes/list || echo "opt=int3 $(/bin/syscall_bench 9 getpid)"
echo 1 > /proc/sys/debug/kprobes-optimization
echo 0 > events/kprobes/pk/enable
echo > kprobe_events
SCRIPT
optprobe_costs() { # optprobe_costs LABEL < lines: the probe's extra instructions each way
	awk -v label="$1" '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } m[v["opt"]] = v["median"] }
		END { if (!("nop" in m) || !("jmp" in m) || !("int3" in m)) exit 1
		      printf "%-22s kprobe hit (no arguments) in the getpid handler: int3 +%d, jump-optimized +%d\n",
			label, m["int3"] - m["nop"], m["jmp"] - m["nop"] }'
}
spoor_and_linux optprobe.sh opt optprobe_costs optprobe

# A uprobe on a user function (user/uprobed's add(), a lea and a ret): an
# entry probe with one argument (its lea runs from the out-of-line slot)
# and a return probe with $retval (the trampoline); the extra
# instructions per add() call over an unprobed one are one hit.
cat > "$tmp/uprobes.sh" <<'SCRIPT'
cd /sys/kernel/tracing
u=/bin/uprobed
[ -x $u ] || u=/uprobed
off=$($u offset uprobed_add)
measure() { # measure NAME DEFINITION: add()'s cost with the probe's event on
	echo "$2" > uprobe_events
	[ -z "$2" ] || echo 1 > events/uprobes/$1/enable
	echo "uprobe=$1 $($u bench)"
	[ -z "$2" ] || echo 0 > events/uprobes/$1/enable
	echo > uprobe_events
}
measure nop ""
measure up "p:uprobes/up $u:$off a=%di"
measure ur "r:uprobes/ur $u:$off r=\$retval"
SCRIPT
uprobe_costs() { # uprobe_costs LABEL < lines: each uprobe's extra instructions
	awk -v label="$1" '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } m[v["uprobe"]] = v["median"] }
		END { if (!("nop" in m) || !("up" in m) || !("ur" in m)) exit 1
		      printf "%-22s uprobe hit on a user function: entry +%d, return +%d (unprobed call %d)\n",
			label, m["up"] - m["nop"], m["ur"] - m["nop"], m["nop"] }'
}
PATH="$tmp:$PATH" "$spoor" exec --smp 1 --kernel "$kernel" --timeout 120 "$tmp/uprobes.sh" < /dev/null |
	grep "^uprobe=" | uprobe_costs "Spoor uprobes" || echo "function_guest: no uprobes result from Spoor" >&2
if [ -x "$ref/run.sh" ] && [ -f "$rig/bzImage-ue" ]; then
	PATH="$tmp:$PATH" "$ref/run.sh" --icount --smp 1 --kernel ue --file "$build/user/uprobed:/uprobed" \
		"$tmp/uprobes.sh" < /dev/null |
		grep "^uprobe=" | uprobe_costs "Linux 6.12 uprobes" || echo "function_guest: no uprobes result from Linux" >&2
fi
