#!/bin/sh
# run-unit.sh BIN RESULT: run one Criterion binary, keep its TAP as RESULT.
# Always exits 0: test-summary.sh judges the results.
bin=$1 out=$2
mkdir -p "$(dirname "$out")"
log=$out.log
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	"$bin" --tap="$out.tap" >"$log" 2>&1
status=$?
grep -E '^(not )?ok ' "$out.tap" > "$out.tmp" 2>/dev/null
if [ $status -ne 0 ] && ! grep -q '^not ok' "$out.tmp"; then
	echo "not ok - $(basename "$bin"): exited with status $status (see $log)" >> "$out.tmp"
fi
if [ ! -s "$out.tmp" ]; then
	echo "not ok - $(basename "$bin"): ran no test (see $log)" >> "$out.tmp"
fi
sed "s|^\(\(not \)\{0,1\}ok\) [0-9]* *-* *|\1 - $(basename "$bin"): |" "$out.tmp" > "$out"
rm -f "$out.tmp"
exit 0
