# Linux 6.12's own ftracetest, unmodified, from the folder tools/linux-selftests.sh
# extracts (never copied into this tree), for the two boot tests that share its
# categories between them so the two QEMUs `ninja test` runs at once each take a
# half (ftracetest_tracers.sh, ftracetest_events.sh; docs/ROADMAP.md keeps the
# comparison with Linux by category). Both run on two CPUs: the totals are
# those of four, for a fifth less host CPU (47 s against 61 s for the tracer
# half; the rig's Linux numbers are from one). A test puts this file at
# /spoor/lib/ftracetest.sh with its `# spoor-exec: --file` line and the
# selftests at /ftrace.
#
# ftracetest_run CASES TOTALS FLAKES DIR...: run `./ftracetest -K -v DIR...` as a
# Linux user runs it (through its '#!/bin/sh' line, so under /bin/sh, Spoor's
# shell as a ring-3 program, whose commands make the system calls the
# syscall-driven cases trace), print its log, and check four things: it ran
# CASES cases; its "# Totals:" line is TOTALS ("pass:P fail:F xfail:X skip:S
# error:E"), each case of FLAKES (descriptions, one a line; its run in an
# instance too) that failed moving one from pass to fail; it exits 1 if and
# only if a case failed, as on Linux; and it leaves tracing on.
ftracetest_run() {
	local cases=$1 totals=$2 flakes=$3 out=/tmp/ftracetest.out status pass fail rest d
	shift 3
	cd /ftrace
	./ftracetest -K -v "$@" > $out 2>&1
	status=$?
	# every case's result, and the set -x log of each that does not pass
	sed 's/^/# /' $out
	is "the driver ran every case (TAP plan and results)" "$cases" \
		"$(grep -c '^\(not \)\{0,1\}ok [0-9]' $out)"
	pass=${totals#pass:}; pass=${pass%% *}
	fail=${totals#* fail:}; fail=${fail%% *}
	rest=${totals#* xfail:}
	while IFS= read -r d; do
		[ -n "$d" ] || continue
		if grep -q "^not ok [0-9]* \((instance) \)\{0,1\}$d\$" $out; then
			pass=$((pass - 1)) fail=$((fail + 1))
		fi
	done <<FLAKES
$flakes
FLAKES
	is "ftracetest's totals" "# Totals: pass:$pass fail:$fail xfail:$rest" \
		"$(grep '^# Totals' $out | sed 's/ xpass:0//')"
	# 1 while a case fails (not for unresolved ones), as on Linux
	d=$(sed -n 's/^# Totals:.* fail:\([0-9]*\) .*/\1/p' $out)
	is "it exits 1 if and only if a case failed ($d did)" "$([ "${d:-0}" -gt 0 ] && echo 1 || echo 0)" $status
	is "tracing is back on after its finish_ftrace" 1 "$(cat /sys/kernel/tracing/tracing_on)"
}
