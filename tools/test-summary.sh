#!/bin/sh
# test-summary.sh RESULT... | @LIST: print each result file's tally, then
# every failing check's "not ok" line, then the total. The failures come
# last so they are what a terminal shows; ninja passes the results in a
# response file (@LIST), so its "FAILED:" line does not bury them under a
# long command line. Exits 1 if anything failed.
if [ $# -eq 1 ] && [ "${1#@}" != "$1" ]; then
	# shellcheck disable=SC2046
	set -- $(cat "${1#@}")
fi
pass=0 fail=0
for r in "$@"; do
	p=$(grep -c '^ok ' "$r")
	f=$(grep -c '^not ok ' "$r")
	pass=$((pass + p)) fail=$((fail + f))
	printf '%-40s %4d passed %4d failed\n' "$(basename "$r" .result)" "$p" "$f"
done
if [ "$fail" -ne 0 ]; then
	echo
	echo "failures (rerun one with tools/test-one.sh NAME; details in build*/results/):"
	cat "$@" | grep '^not ok '
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
