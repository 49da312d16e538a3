#!/bin/sh
# description: event tracing - enable and disable through the event files and set_event
# requires: set_event events/sched/sched_process_fork/enable trace_marker
#
# Written the way tools/testing/selftests/ftrace test cases are: a runner
# part (find tracefs in /proc/mounts, check the requires line, run each
# case in a `set -e` subshell from the tracing directory, clean up on
# EXIT) and cases that fail through fail()/exit_fail. One TAP line per case.

. /spoor/lib/tap.sh
PASS=0 FAIL=1 UNSUPPORTED=4
TRACING_DIR=$(grep tracefs /proc/mounts | cut -f2 -d' ' | head -1)
[ -n "$TRACING_DIR" ] || TRACING_DIR=/sys/kernel/debug/tracing

exit_pass() { exit $PASS; }
exit_fail() { exit $FAIL; }
exit_unsupported() { exit $UNSUPPORTED; }
fail() { # msg
	echo "# $1"
	exit_fail
}

check_requires() { # the "# requires:" line of this file
	local f
	for f in $(grep '^# requires:' "$0" | cut -d: -f2-); do
		[ -e "$TRACING_DIR/$f" ] || return 1
	done
}

clear_trace() {
	echo > trace
}

reset_events() {
	echo 0 > tracing_on
	echo > set_event
	for e in events/*/*/enable; do
		[ "$(cat $e)" = 0 ] || echo 0 > $e
	done
	clear_trace
	echo 1 > tracing_on
}

# Something the sched_process_fork event sees: a subshell forks.
do_fork() {
	( echo forked > /dev/null )
}

count_events() { # event
	cat trace | grep -v '^#' | grep -c "$1: " || true
}

case_event_file() {
	echo 1 > events/sched/sched_process_fork/enable
	do_fork
	do_fork
	[ "$(count_events sched_process_fork)" -ge 2 ] || fail "fork events are not recorded"
	echo 0 > events/sched/sched_process_fork/enable
	clear_trace
	do_fork
	[ "$(count_events sched_process_fork)" -eq 0 ] || fail "fork events are recorded after disabling"
}

case_subsystem_file() {
	echo 1 > events/sched/enable
	[ "$(cat events/sched/enable)" = 1 ] || fail "sched/enable does not read back 1"
	grep -q sched_process_fork set_event || fail "set_event does not list the sched events"
	do_fork
	[ "$(count_events sched_process_fork)" -ge 1 ] || fail "no fork event with sched/enable"
	echo 0 > events/sched/sched_switch/enable
	[ "$(cat events/sched/enable)" = X ] || fail "a partly enabled subsystem does not read X"
	echo 0 > events/sched/enable
}

case_set_event() {
	echo 'sched:sched_process_fork' > set_event
	[ "$(cat events/sched/sched_process_fork/enable)" = 1 ] || fail "set_event did not enable the event"
	echo 'sched_process_exit' >> set_event
	[ "$(wc -l < set_event)" -eq 2 ] || fail "'>>' did not add to set_event"
	echo '!sched_process_fork' >> set_event
	[ "$(cat set_event)" = "sched:sched_process_exit" ] || fail "'!' did not remove from set_event"
	: > set_event
	[ -z "$(cat set_event)" ] || fail ": > set_event left events enabled"
	echo 'sched:*' > set_event
	[ "$(grep -c '^sched:' set_event)" -ge 5 ] || fail "a glob did not enable the subsystem"
}

case_tracing_on() {
	echo 1 > events/sched/sched_process_fork/enable
	echo 0 > tracing_on
	do_fork
	[ "$(count_events sched_process_fork)" -eq 0 ] || fail "events recorded with tracing_on at 0"
	echo 1 > tracing_on
	do_fork
	[ "$(count_events sched_process_fork)" -ge 1 ] || fail "no events once tracing_on is 1 again"
}

case_trace_marker() {
	echo "marker from $$" > trace_marker
	grep -q "tracing_mark_write: marker from $$" trace || fail "the marker is not in the trace"
}

case_format_and_id() {
	local id
	id=$(cat events/sched/sched_process_fork/id)
	[ "$id" -gt 0 ] || fail "bad event id $id"
	grep -q "^ID: $id\$" events/sched/sched_process_fork/format || fail "format does not show the id"
	grep -q '^format:' events/sched/sched_process_fork/format || fail "format has no format: line"
	grep -q 'field:pid_t child_pid;' events/sched/sched_process_fork/format || fail "no child_pid field"
}

if ! check_requires; then
	echo "1..0 # SKIP requirements not met"
	exit_unsupported
fi
cd "$TRACING_DIR"
trap 'reset_events' EXIT
cases="case_event_file case_subsystem_file case_set_event case_tracing_on case_trace_marker case_format_and_id"
echo "1..$(echo $cases | wc -w)"
for c in $cases; do
	reset_events
	if (set -e; $c); then ok "$c"; else not_ok "$c"; fi
done
