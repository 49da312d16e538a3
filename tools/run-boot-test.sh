#!/bin/sh
# run-boot-test.sh SPOOR SCRIPT RESULT: run one boot test through `spoor exec`.
# The script prints TAP ("ok N - what", "not ok N - what") from inside the
# guest, and its exit status must be 0. Header lines of the script add
# host-side checks, for what the guest cannot report about itself:
#   # spoor-exec: OPTIONS        runner options (e.g. --smp 1, --iso); host paths
#                                (--file) are relative to the repository root
#   # spoor-exec-status: N       the exit status spoor exec must return instead
#                                of 0 (125: the guest panicked)
#   # order: first               (read by configure) ninja starts it before the
#                                others: for the longest tests
#   # expect: REGEX              a console line must match (grep -E), one check each
#   # stdout: REGEX              a line the guest wrote to its stdout must match;
#   # stderr: REGEX              the same for its stderr; with a leading ! no
#                                line may match. A test with these lines runs a
#                                second time, its streams to separate files
# Every guest also gets tests/boot/lib/tap.sh at /spoor/lib/tap.sh, the TAP
# helpers a test sources. Always exits 0: test-summary.sh judges.
spoor=$1 script=$2 out=$3
tap=$(dirname "$0")/../tests/boot/lib/tap.sh
name=$(basename "$script" .sh)
mkdir -p "$(dirname "$out")"
log=$out.log
opts=$(sed -n 's/^# spoor-exec: //p' "$script" | head -n 1)
want=$(sed -n 's/^# spoor-exec-status: //p' "$script" | head -n 1)
want=${want:-0}
# shellcheck disable=SC2086
"$spoor" exec --timeout "${BOOT_TEST_TIMEOUT:-120}" --file "$tap:/spoor/lib/tap.sh" $opts "$script" >"$log" 2>&1
status=$?
tr -d '\r' < "$log" | grep -E '^(not )?ok [0-9]+' | \
	sed "s|^\(\(not \)\{0,1\}ok\) [0-9]* *-* *|\1 - $name: |" > "$out.tmp"
# A TAP plan ("1..N") must match what ran: a test that dies halfway fails.
plan=$(tr -d '\r' < "$log" | sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' | head -n 1)
ran=$(wc -l < "$out.tmp")
if [ -n "$plan" ] && [ "$plan" -ne "$ran" ]; then
	echo "not ok - $name: planned $plan tests, $ran ran (see $log)" >> "$out.tmp"
fi
sed -n 's/^# expect: //p' "$script" | while IFS= read -r re; do
	if tr -d '\r' < "$log" | grep -Eq -- "$re"; then
		echo "ok - $name: console shows /$re/"
	else
		echo "not ok - $name: console lacks /$re/ (see $log)"
	fi
done >> "$out.tmp"
# The streams apart: a second run, stdout and stderr to files of their own.
if grep -Eq '^# (stdout|stderr): ' "$script"; then
	# shellcheck disable=SC2086
	"$spoor" exec --timeout "${BOOT_TEST_TIMEOUT:-120}" --file "$tap:/spoor/lib/tap.sh" $opts "$script" \
		>"$log.stdout" 2>"$log.stderr"
	split_status=$?
	[ "$split_status" -eq "$want" ] ||
		echo "not ok - $name: spoor exec with the streams apart exited with status $split_status, expected $want" >> "$out.tmp"
	grep -E '^# (stdout|stderr): ' "$script" | while IFS= read -r line; do
		line=${line#\# }
		stream=${line%%:*}
		re=${line#*: }
		case $re in
		!*) re=${re#!}; if tr -d '\r' < "$log.$stream" | grep -Eq -- "$re"; then
			echo "not ok - $name: $stream has /$re/ (see $log.$stream)"
		    else
			echo "ok - $name: $stream lacks /$re/"
		    fi ;;
		*) if tr -d '\r' < "$log.$stream" | grep -Eq -- "$re"; then
			echo "ok - $name: $stream shows /$re/"
		   else
			echo "not ok - $name: $stream lacks /$re/ (see $log.$stream)"
		   fi ;;
		esac
	done >> "$out.tmp"
fi
if [ "$status" -ne "$want" ]; then
	echo "not ok - $name: spoor exec exited with status $status, expected $want (see $log)" >> "$out.tmp"
elif [ "$want" -ne 0 ]; then
	echo "ok - $name: spoor exec exited with status $want" >> "$out.tmp"
elif [ ! -s "$out.tmp" ]; then
	echo "not ok - $name: printed no TAP line (see $log)" >> "$out.tmp"
fi
mv "$out.tmp" "$out"
exit 0
