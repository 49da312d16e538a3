#!/bin/sh
# description: event trigger - hist triggers on sched_process_fork, as the ftrace selftests drive them
# requires: events/sched/sched_process_fork/trigger events/sched/sched_process_fork/hist error_log
#
# ftracetest's way of reporting: the test body runs in a subshell and
# signals its result to the runner with kill -s (SIGUSR1 = fail,
# SIGUSR2 = unsupported); the runner traps them. One TAP line per case.

. /spoor/lib/tap.sh
TRACING_DIR=$(grep tracefs /proc/mounts | cut -f2 -d' ' | head -1)
SIG_PID=$$
SIG_FAIL=USR1
SIG_UNSUPPORTED=USR2
result=pass
trap 'result=fail' $SIG_FAIL
trap 'result=unsupported' $SIG_UNSUPPORTED

exit_fail() { kill -s $SIG_FAIL $SIG_PID; exit 0; }
exit_unsupported() { kill -s $SIG_UNSUPPORTED $SIG_PID; exit 0; }
fail() { echo "# $*"; exit_fail; }

F=events/sched/sched_process_fork

reset_trigger() {
	local t
	# Remove every trigger of the event the way the selftests do: '!' + its text.
	grep -v '^#' $F/trigger | while read -r t; do
		echo "!${t%% \[*}" >> $F/trigger
	done
	echo > error_log
}

forks() { # N
	for i in $(seq 1 $1); do
		( echo forked > /dev/null )
	done
}

case_keys_and_vals() {
	# The case runs in a subshell: its pid, not $$, is the forks' parent.
	read -r mypid _ < /proc/self/stat
	echo 'hist:keys=parent_pid:vals=child_pid' > $F/trigger
	forks 3
	grep -q "^{ parent_pid: *$mypid }" $F/hist || fail "no entry for this shell's pid $mypid"
	grep -q 'child_pid:' $F/hist || fail "child_pid values are not summed"
	[ "$(grep '^    Hits:' $F/hist | tr -s ' ' | cut -d' ' -f3)" -ge 3 ] || fail "fewer than 3 hits"
}

case_comm_key_and_sort() {
	echo 'hist:keys=common_pid.execname:sort=hitcount.descending' > $F/trigger
	forks 2
	grep -q 'common_pid: sh *\[ *[0-9]*\]' $F/hist || fail "no execname for the key"
	grep -q 'sort=hitcount.descending' $F/trigger || fail "the trigger does not read back"
}

case_pause_and_clear() {
	echo 'hist:keys=parent_pid' > $F/trigger
	forks 1
	echo 'hist:keys=parent_pid:pause' >> $F/trigger
	grep -q '\[paused\]' $F/trigger || fail "pause did not show"
	before=$(grep '^    Hits:' $F/hist)
	forks 2
	[ "$before" = "$(grep '^    Hits:' $F/hist)" ] || fail "a paused histogram counted"
	echo 'hist:keys=parent_pid:clear' >> $F/trigger
	grep -q '^    Hits: 0$' $F/hist || fail "clear did not empty it"
}

case_bad_field_error_log() {
	if echo 'hist:keys=no_such_field' > $F/trigger 2>/dev/null; then
		fail "a bad field was accepted"
	fi
	grep -q "Couldn't find field" error_log || fail "no error_log entry"
	grep -q 'Command: hist:keys=no_such_field' error_log || fail "error_log does not quote the command"
}

[ -n "$TRACING_DIR" ] && cd "$TRACING_DIR" || { echo "1..0 # SKIP no tracefs"; exit 0; }
for f in $(grep '^# requires:' "$0" | cut -d: -f2-); do
	[ -e "$f" ] || { echo "1..0 # SKIP no $f"; exit 0; }
done
set -- case_keys_and_vals case_comm_key_and_sort case_pause_and_clear case_bad_field_error_log
echo "1..$#"
for c in "$@"; do
	result=pass
	reset_trigger
	(set -e; $c)
	[ $? -eq 0 ] || result=fail
	case $result in
	pass) ok "$c" ;;
	unsupported) ok "$c # SKIP unsupported" ;;
	*) not_ok "$c" ;;
	esac
done
reset_trigger
