#!/bin/sh
# test-summary.sh RESULT...: print every failure and the closing tally.
pass=0 fail=0
for r in "$@"; do
	p=$(grep -c '^ok ' "$r")
	f=$(grep -c '^not ok ' "$r")
	pass=$((pass + p)) fail=$((fail + f))
	[ "$f" -eq 0 ] || grep '^not ok ' "$r"
	printf '%-40s %4d passed %4d failed\n' "$(basename "$r" .result)" "$p" "$f"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
