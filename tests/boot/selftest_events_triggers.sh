#!/bin/sh
# description: event triggers - traceon/traceoff, snapshot, stacktrace, enable_event/disable_event, filters, several at once
# requires: set_event events/sched/sched_process_fork/trigger snapshot
#
# In the style of the trigger/ family of Linux's ftrace selftests: each case
# runs in a `set -e` subshell from the tracing directory after the state
# ftracetest sets up (tracing on, no events, no triggers, empty trace), and
# a rejected write is checked with `!`. The reset removes triggers the way
# ftracetest's helper does: each listed line is written back behind '!'.

. /spoor/lib/tap.sh
PASS=0 FAIL=1 UNSUPPORTED=4
TRACING_DIR=$(grep tracefs /proc/mounts | cut -f2 -d' ' | head -1)
[ -n "$TRACING_DIR" ] || TRACING_DIR=/sys/kernel/debug/tracing

exit_fail() { exit $FAIL; }
exit_unsupported() { exit $UNSUPPORTED; }
fail() { # msg
	echo "# $1"
	exit_fail
}

check_requires() {
	local f
	for f in $(grep '^# requires:' "$0" | cut -d: -f2-); do
		[ -e "$TRACING_DIR/$f" ] || return 1
	done
}

# Every trigger line goes back to its file behind '!', count and filter
# included, as listed.
reset_trigger_file() { # files...
	grep -Hv '^#' "$@" | while read -r line; do
		file=$(echo "$line" | cut -f1 -d:)
		cmd=$(echo "$line" | cut -f2- -d: | cut -f1 -d'[')
		echo "!$cmd" >> "$file"
	done
}

initialize_ftrace() {
	echo 0 > tracing_on
	reset_trigger_file events/*/*/trigger
	echo > set_event
	echo 0 > snapshot
	echo > trace
	echo 1 > tracing_on
}

FEATURE=events/sched/sched_process_fork/trigger
run_fork() {
	( echo "forked" > /dev/null )
}

case_traceonoff() {
	echo 'traceoff' > $FEATURE
	run_fork
	[ "$(cat tracing_on)" = 0 ] || fail "traceoff trigger did not stop tracing"
	grep -q '^traceoff:unlimited$' $FEATURE || fail "traceoff is not listed as traceoff:unlimited"
	grep -H traceoff $FEATURE | grep -q "^$FEATURE:traceoff:unlimited" || fail "grep -H names one file"
	echo '!traceoff' > $FEATURE
	echo 'traceon' > $FEATURE
	run_fork
	[ "$(cat tracing_on)" = 1 ] || fail "traceon trigger did not restart tracing"
	echo '!traceon' > $FEATURE
	! grep -v '^#' $FEATURE | grep -q . || fail "'!traceon' left a trigger"
	echo '!traceon' > $FEATURE	# none left: still no error, as Linux
	# semantic errors: a bad count, a bad separator, a second trigger
	# of the same kind (traceon and traceoff are one kind)
	! echo 'traceoff:badparam' > $FEATURE
	! echo 'traceoff+0' > $FEATURE
	echo 'traceon' > $FEATURE
	! echo 'traceon' > $FEATURE
	! echo 'traceoff' > $FEATURE
}

case_traceoff_count() {
	echo 0 > tracing_on
	echo 'traceoff:3' > $FEATURE
	grep -q '^traceoff:count=3$' $FEATURE || fail "a count shows as count=3"
	echo 1 > tracing_on
	run_fork
	[ "$(cat tracing_on)" = 0 ] || fail "traceoff:3 did not fire"
	grep -q '^traceoff:count=2$' $FEATURE || fail "the count did not go down to 2"
	echo 1 > tracing_on
	echo '!traceoff' > $FEATURE
}

case_snapshot() {
	grep -q snapshot $FEATURE || exit_unsupported
	echo 0 > snapshot
	echo 1 > events/sched/sched_process_fork/enable
	# the trigger runs before its own event is recorded: the fork the
	# snapshot shows is the one before
	run_fork
	echo 'snapshot:1' > $FEATURE
	run_fork
	grep -q sched_process_fork snapshot || fail "the snapshot has no fork event"
	grep -q '^snapshot:count=0$' $FEATURE || fail "the snapshot count did not reach 0"
	echo '!snapshot' > $FEATURE
	! echo 'snapshot+1' > $FEATURE
	echo 'snapshot' > $FEATURE
	! echo 'snapshot' > $FEATURE
	echo '!snapshot' > $FEATURE
	echo 0 > snapshot
	echo 1 > snapshot
	echo 2 > snapshot
}

case_stacktrace() {
	echo 'stacktrace' > $FEATURE
	run_fork
	grep -q '<stack trace>' trace || fail "no stack trace in the trace"
	grep -q '^ => ' trace || fail "the stack trace has no frames"
	echo '!stacktrace' > $FEATURE
	! echo 'stacktrace:foo' > $FEATURE
	echo 'stacktrace' > $FEATURE
	! echo 'stacktrace' > $FEATURE
}

case_eventonoff() {
	echo 'enable_event:sched:sched_switch' > $FEATURE
	# soft mode: the event is armed, not yet on (cat itself forks, so
	# look before any fork: the first read after arming)
	grep -q '^enable_event:sched:sched_switch:unlimited$' $FEATURE || fail "enable_event listing"
	run_fork
	[ "$(cat events/sched/sched_switch/enable)" = '1*' ] || fail "enable_event did not soft-enable sched_switch"
	sleep 1
	grep -q 'sched_switch:' trace || fail "no sched_switch after enable_event fired"
	# the last soft user gone, the state the trigger left sticks
	echo '!enable_event:sched:sched_switch' > $FEATURE
	[ "$(cat events/sched/sched_switch/enable)" = 1 ] || fail "removing a fired enable_event did not leave it on"
	echo 'disable_event:sched:sched_switch' > $FEATURE
	run_fork
	[ "$(cat events/sched/sched_switch/enable)" = '0*' ] || fail "disable_event did not soft-disable sched_switch"
	echo > trace
	sleep 1
	! grep -q 'sched_switch:' trace || fail "sched_switch recorded while soft-disabled"
	echo '!disable_event:sched:sched_switch' > $FEATURE
	[ "$(cat events/sched/sched_switch/enable)" = 0 ] || fail "removing a fired disable_event did not leave it off"
	! echo 'enable_event:nogroup:noevent' > $FEATURE
	! echo 'disable_event+1' > $FEATURE
	echo 'enable_event:sched:sched_switch' > $FEATURE
	! echo 'enable_event:sched:sched_switch' > $FEATURE
	! echo 'disable_event:sched:sched_switch' > $FEATURE
	echo 'disable_event:sched:sched_process_exit' >> $FEATURE
}

case_soft_armed() {
	# armed on an event that does not fire here (no NMI): the target reads 0*
	echo 'enable_event:sched:sched_process_exit' > events/nmi/nmi_handler/trigger
	[ "$(cat events/sched/sched_process_exit/enable)" = '0*' ] || fail "an armed target does not read 0*"
	echo '!enable_event:sched:sched_process_exit' > events/nmi/nmi_handler/trigger
	[ "$(cat events/sched/sched_process_exit/enable)" = 0 ] || fail "a disarmed target does not read 0"
}

case_filter() {
	echo 'traceoff if child_pid == 0' > $FEATURE
	run_fork
	[ "$(cat tracing_on)" = 1 ] || fail "a false filter let traceoff fire"
	grep -q '^traceoff:unlimited if child_pid == 0$' $FEATURE || fail "the filter is not listed"
	echo '!traceoff' > $FEATURE
	echo 'traceoff if child_pid != 0' > $FEATURE
	run_fork
	[ "$(cat tracing_on)" = 0 ] || fail "a true filter did not let traceoff fire"
	echo '!traceoff' > $FEATURE
	echo 1 > tracing_on
	! echo 'traceoff if a' > $FEATURE
	! echo 'traceoff if common_pid=0' > $FEATURE
	! echo 'traceoff if common_pid==b' > $FEATURE
	! echo 'traceoff if common_pid == 0 ||' > $FEATURE
	! echo 'traceoff if ((common_pid == 0)' > $FEATURE
	! echo 'traceoff if nosuchfield > 1' > $FEATURE
	echo 'traceoff if common_pid == 0 && common_pid == 1' > $FEATURE
	echo '!traceoff' > $FEATURE
	echo 'traceoff if common_pid == 0' > $FEATURE
}

case_multi() {
	echo 'traceon' > $FEATURE
	echo 'snapshot' >> $FEATURE
	echo 'stacktrace' >> $FEATURE
	echo 'enable_event:sched:sched_switch' >> $FEATURE
	echo 'disable_event:sched:sched_process_exit' >> $FEATURE
	echo 'hist:keys=parent_pid' >> $FEATURE
	echo 'hist:keys=child_pid' >> $FEATURE
	[ "$(grep -vc '^#' $FEATURE)" -eq 7 ] || fail "seven triggers are not all listed"
	run_fork
	grep -q '<stack trace>' trace || fail "the stacktrace trigger did not fire"
}

# The markers' lines of FILE must carry >X<, >X+2<, ... in order.
every_other_marker() { # file first
	local x=$2 line
	grep 'tracing_mark_write: ' $1 > /tmp/markers
	[ -s /tmp/markers ] || fail "no marker in $1"
	while read -r line; do
		case "$line" in
		*">$x<"*) ;;
		*) fail "$1: '$line' does not have >$x<" ;;
		esac
		x=$((x + 2))
	done < /tmp/markers
}

case_marker_triggers() {
	local m=events/ftrace/print/trigger
	[ -e $m ] || exit_unsupported
	# the marker is recorded, then the trigger swaps: the two buffers
	# alternate and each keeps every other marker
	echo 'snapshot' > $m
	for i in 1 2 3 4 5 6; do
		echo "test >$i<" > trace_marker
	done
	echo '!snapshot' > $m
	every_other_marker trace 1
	every_other_marker snapshot 2
	echo > trace
	echo 'traceoff' > $m
	echo "last words" > trace_marker
	[ "$(cat tracing_on)" = 0 ] || fail "traceoff on print did not stop tracing"
	grep -q 'tracing_mark_write: last words' trace || fail "the marker that stopped tracing was lost"
	! echo "after" > trace_marker
	echo '!traceoff' > $m
	echo 1 > tracing_on
	echo 'stacktrace' > $m
	echo "with stack" > trace_marker
	grep -A1 'tracing_mark_write: with stack' trace | grep -q '<stack trace>' || fail "the stack does not follow its marker"
}

case_empty_listing() {
	[ "$(grep -c '^#' $FEATURE)" -ge 1 ] || fail "an empty trigger file has no comment"
	grep -q 'traceon traceoff' $FEATURE || fail "the available triggers are not listed"
	[ "$(grep -vc '^#' $FEATURE)" -eq 0 ] || fail "the empty file lists a trigger"
}

if ! check_requires; then
	echo "1..0 # SKIP requirements not met"
	exit_unsupported
fi
cd "$TRACING_DIR"
trap 'initialize_ftrace' EXIT
cases="case_empty_listing case_traceonoff case_traceoff_count case_snapshot case_stacktrace case_eventonoff case_soft_armed case_filter case_multi case_marker_triggers"
echo "1..$(($(echo $cases | wc -w) * 2))"
for c in $cases; do
	initialize_ftrace
	if (set -e; $c); then ok "$c"; else not_ok "$c"; fi
	initialize_ftrace
	left=$(grep -v '^#' events/*/*/trigger | head -3)
	is "$c: the reset leaves no trigger" "" "$left"
done
