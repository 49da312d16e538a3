#!/bin/sh
# description: event enabling (event, subsystem, top level, set_event forms), event filters, error_log, instances, buffer sizes, trace_clock, tracers, snapshot, markers, fork/exit events, format ids
# requires: set_event events/sched/sched_process_fork/enable error_log trace_marker instances
#
# In the style of the events/, 00basic/ and instances/ families of Linux's
# ftrace selftests: each case runs in a `set -e` subshell from the tracing
# directory after ftracetest's reset (tracing on, no events, empty trace)
# and fails through fail(); a write that must be rejected is run under `!`.

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

initialize_ftrace() {
	echo 0 > tracing_on
	echo > set_event
	echo 0 > events/enable
	for f in events/*/*/filter; do
		[ "$(cat $f)" = none ] || echo 0 > $f
	done
	echo local > trace_clock
	echo > trace
	echo 1 > tracing_on
}

run_fork() {
	( echo "forked" > /dev/null )
}

# Fork events of one subshell: the event is on only around it (builtins
# only), so the forks of the pipelines that count are not recorded.
one_fork_events() {
	echo > trace
	echo 1 > events/sched/sched_process_fork/enable
	run_fork
	echo 0 > events/sched/sched_process_fork/enable
	count sched_process_fork:
}

count() { # pattern: matching trace lines
	grep -v '^#' trace | grep -c "$1" || true
}

# ftracetest's check: the error is logged and its caret sits under the
# '^' of the command given.
errlog_check() { # prefix command-with-^ file
	local pos command
	pos=$(echo -n "${2%^*}" | wc -c)
	command=$(echo "$2" | tr -d ^)
	echo > error_log
	(! echo "$command" >> "$3") 2> /dev/null
	grep "$1: error:" -A 3 error_log > /dev/null || fail "no '$1' error logged for '$command'"
	[ "$(tail -n 1 error_log | wc -c)" -eq $((13 + pos)) ] || fail "the caret is not at $pos for '$command'"
}

case_event_enable() {
	echo 'sched:sched_switch' > set_event
	sleep 1
	[ "$(count sched_switch:)" -gt 0 ] || fail "no sched_switch with set_event"
	echo '!sched:sched_switch' >> set_event
	echo > trace
	sleep 1
	[ "$(count sched_switch:)" -eq 0 ] || fail "sched_switch after '!' in set_event"
	echo 1 > events/sched/sched_switch/enable
	sleep 1
	[ "$(count sched_switch:)" -gt 0 ] || fail "no sched_switch with its enable file"
	echo 0 > events/sched/sched_switch/enable
	echo > trace
	sleep 1
	[ "$(count sched_switch:)" -eq 0 ] || fail "sched_switch after enable 0"
}

case_subsystem_enable() {
	echo 'sched:*' > set_event
	run_fork
	sleep 1
	[ "$(grep -v '^#' trace | cut -d: -f3 | sort -u | wc -l)" -ge 2 ] || fail "sched:* did not give several events"
	[ "$(cat events/sched/enable)" = 1 ] || fail "sched/enable does not read 1"
	echo 0 > events/sched/sched_switch/enable
	[ "$(cat events/sched/enable)" = X ] || fail "a partly enabled subsystem does not read X"
	echo 0 > events/sched/enable
	[ "$(cat events/sched/enable)" = 0 ] || fail "sched/enable does not read 0"
	echo 1 > events/sched/enable
	echo > trace
	run_fork
	[ "$(count sched_process_fork:)" -gt 0 ] || fail "no fork with sched/enable"
}

case_toplevel_enable() {
	echo '*:*' > set_event
	run_fork
	sleep 1
	[ "$(grep -v '^#' trace | cut -d: -f3 | sort -u | wc -l)" -ge 3 ] || fail "*:* did not give several events"
	[ "$(cat events/enable)" = X ] || [ "$(cat events/enable)" = 1 ] || fail "events/enable"
	echo 0 > events/enable
	[ "$(cat events/enable)" = 0 ] || fail "events/enable does not read 0"
	[ -z "$(cat set_event)" ] || fail "set_event lists events after events/enable 0"
	echo > trace
	sleep 1
	[ "$(count .)" -eq 0 ] || fail "events recorded after events/enable 0"
	echo 1 > events/enable
	[ "$(cat events/enable)" = 1 ] || fail "events/enable does not read 1"
	echo '!*:*' >> set_event
	[ -z "$(cat set_event)" ] || fail "'!*:*' left events on"
}

case_set_event_forms() {
	echo sched_process_fork > set_event
	[ "$(cat set_event)" = sched:sched_process_fork ] || fail "an event name alone"
	echo sched > set_event
	[ "$(cat events/sched/enable)" = 1 ] || fail "a system name alone"
	echo 'sched:' > set_event
	[ "$(cat events/sched/enable)" = 1 ] || fail "'system:'"
	echo 'sched:sched_process_*' > set_event
	[ "$(wc -l < set_event)" -eq 5 ] || fail "an event glob"
	echo ':sched_switch' > set_event
	[ "$(cat set_event)" = sched:sched_switch ] || fail "':event'"
	! echo nosuchevent > set_event
	! echo 'nosuch:*' > set_event
	: > set_event
	[ -z "$(cat set_event)" ] || fail "truncating set_event"
}

case_event_filter() {
	local f=events/sched/sched_process_fork/filter
	[ "$(cat $f)" = none ] || fail "no filter does not read none"
	echo 'child_pid == 0' > $f
	[ "$(cat $f)" = 'child_pid == 0' ] || fail "the filter does not read back"
	[ "$(one_fork_events)" -eq 0 ] || fail "a false filter let an event through"
	echo 'child_pid > 0 && parent_comm == "sh"' > $f
	[ "$(one_fork_events)" -eq 1 ] || fail "numeric && string filter"
	echo 'parent_comm ~ "s*" || child_pid < 0' > $f
	[ "$(one_fork_events)" -eq 1 ] || fail "glob || filter"
	echo '!(child_pid & 0) && parent_comm != "nosuch"' > $f
	[ "$(one_fork_events)" -eq 1 ] || fail "'!', '&', '!=' filter"
	echo 'parent_comm == "nosuch"' > $f
	[ "$(one_fork_events)" -eq 0 ] || fail "a false string filter let an event through"
	echo 0 > $f
	[ "$(cat $f)" = none ] || fail "echo 0 did not clear the filter"
	[ "$(one_fork_events)" -eq 1 ] || fail "no event once the filter is cleared"
	! echo 'nosuchfield == 1' > $f
	! echo 'child_pid ==' > $f
	! echo 'parent_comm > "a"' > $f
	! echo 'child_pid == "a"' > $f
	! echo '(child_pid == 1' > $f
	# As Linux: a rejected filter turns the event's filter off and the file shows the text.
	[ "$(head -n 1 $f)" = '(child_pid == 1' ] || fail "a rejected filter does not show its text"
	[ "$(one_fork_events)" -eq 1 ] || fail "a rejected filter left a filter on"
}

case_error_log() {
	errlog_check 'event filter parse error' 'child_pid > 0 && nosuch ^== 1' events/sched/sched_process_fork/filter
	[ "$(wc -l < error_log)" -eq 3 ] || fail "one error is three lines"
	errlog_check 'event filter parse error' '(child_pid > 0) && ((nosuch ^> 1) || 1)' events/sched/sched_process_fork/filter
	echo > error_log
	[ -z "$(cat error_log)" ] || fail "echo > error_log did not clear it"
}

case_signal_events() {
	local pid
	echo 1 > events/signal/signal_generate/enable
	sleep 5 &
	pid=$!
	kill $pid
	wait $pid || true
	grep -q "signal_generate: sig=15 errno=0 code=0 comm=sleep pid=$pid grp=1 res=0" trace || fail "no signal_generate for kill"
	echo 'sig == 15 && comm != bash' > events/signal/signal_generate/filter
	# ftracetest's tracing-error-log case
	errlog_check 'event filter parse error' '((sig >= 10 && sig < 15) || dsig ^== 17) && comm != bash' events/signal/signal_generate/filter
}

case_instances() {
	mkdir instances/foo
	! mkdir instances/foo
	[ -e instances/foo/events/sched/sched_process_fork/enable ] || fail "the instance has no events"
	for f in trace trace_pipe tracing_on set_event buffer_size_kb trace_marker; do
		[ -e instances/foo/$f ] || fail "the instance has no $f"
	done
	echo 1 > instances/foo/events/sched/sched_process_fork/enable
	run_fork
	grep -q sched_process_fork: instances/foo/trace || fail "no fork in the instance's trace"
	[ "$(count sched_process_fork:)" -eq 0 ] || fail "the instance's event reached the top trace"
	[ "$(cat events/sched/sched_process_fork/enable)" = 0 ] || fail "the top event is enabled"
	echo "instance marker" > instances/foo/trace_marker
	grep -q "instance marker" instances/foo/trace || fail "the marker is not in the instance"
	! grep -q "instance marker" trace || fail "the instance's marker reached the top trace"
	cat instances/foo/trace_pipe > /dev/null &
	sleep 1
	! rmdir instances/foo
	kill $!
	wait $! || true
	rmdir instances/foo
	[ ! -e instances/foo ] || fail "rmdir left the instance"
	! rmdir instances/foo
	mkdir instances/foo
	[ "$(cat instances/foo/events/sched/sched_process_fork/enable)" = 0 ] || fail "a new instance kept old state"
	rmdir instances/foo
}

case_buffer_size() {
	local cpus
	cpus=$(ls per_cpu | grep -c "^cpu")
	echo 256 > buffer_size_kb
	[ "$(cat buffer_size_kb)" = "$(cat per_cpu/cpu0/buffer_size_kb)" ] || fail "per-cpu size"
	[ "$(cat buffer_total_size_kb)" = $(($(cat buffer_size_kb) * cpus)) ] || fail "buffer_total_size_kb is not the sum"
	echo 4096 > per_cpu/cpu0/buffer_size_kb
	[ "$(cat buffer_size_kb)" = X ] || fail "differing per-cpu sizes do not read X"
	[ "$(cat per_cpu/cpu0/buffer_size_kb)" -gt "$(cat per_cpu/cpu1/buffer_size_kb)" ] || fail "cpu0 did not grow"
	[ "$(cat buffer_total_size_kb)" = $(($(cat per_cpu/cpu1/buffer_size_kb) * (cpus - 1) + $(cat per_cpu/cpu0/buffer_size_kb))) ] || fail "total after a per-cpu change"
	! echo 0 > buffer_size_kb
	! echo abc > buffer_size_kb
	echo 1408 > buffer_size_kb
}

case_tracing_on() {
	[ "$(cat tracing_on)" = 1 ] || fail "tracing_on does not read 1"
	echo 0 > tracing_on
	[ "$(one_fork_events)" -eq 0 ] || fail "events with tracing off"
	! echo "marker while off" > trace_marker
	echo 1 > tracing_on
	[ "$(one_fork_events)" -eq 1 ] || fail "no event with tracing on again"
	! echo abc > tracing_on
}

case_trace_clock() {
	grep -q '\[local\]' trace_clock || fail "the current clock is not in brackets"
	[ "$(grep -o '\[' trace_clock | wc -l)" -eq 1 ] || fail "more than one clock in brackets"
	for c in $(sed 's/[][]//g' trace_clock); do
		echo $c > trace_clock
		grep -q "\[$c\]" trace_clock || fail "$c is not selected"
	done
	! echo nosuchclock > trace_clock
	echo local > trace_clock
}

case_tracers() {
	grep -qw nop available_tracers || fail "nop is not available"
	[ "$(cat current_tracer)" = nop ] || fail "current_tracer is not nop"
	echo nop > current_tracer
	! echo nosuchtracer > current_tracer
	[ "$(cat current_tracer)" = nop ] || fail "a bad tracer changed current_tracer"
}

case_snapshot() {
	echo 1 > snapshot
	echo "test input 1" > trace_marker
	echo 1 > snapshot
	grep -q "test input 1" snapshot || fail "the snapshot lacks the marker"
	! grep -q "test input 1" trace || fail "the swap left the marker in trace"
	echo 2 > snapshot
	! grep -q "test input 1" snapshot || fail "echo 2 did not clear the snapshot"
	echo 0 > snapshot
}

case_trace_marker() {
	echo "marker 1" > trace_marker
	echo "marker 2" > trace_marker
	grep -q 'tracing_mark_write: marker 1$' trace || fail "marker 1 is missing"
	[ "$(grep -n 'marker 1$' trace | cut -d: -f1)" -lt "$(grep -n 'marker 2$' trace | cut -d: -f1)" ] || fail "markers out of order"
	grep -q 'marker 2' trace_pipe || fail "trace_pipe lacks the marker"
}

case_fork_exit() {
	local pid
	echo 'sched:sched_process_fork sched:sched_process_exit' > set_event
	echo 'sched:sched_process_exit' >> set_event
	sleep 0 &
	pid=$!
	wait $pid
	grep -q "sched_process_fork: .*child_pid=$pid\$" trace || fail "no fork event for $pid"
	grep -q "sched_process_exit: comm=.* pid=$pid " trace || fail "no exit event for $pid"
}

case_format_id() {
	local id f
	for f in events/sched/*/id events/irq/*/id; do
		id=$(cat $f)
		grep -q "^ID: $id\$" ${f%id}format || fail "${f%id}format does not show ID $id"
	done
	[ "$(cat events/*/*/id | sort -u | wc -l)" -eq "$(ls events/*/*/id | wc -l)" ] || fail "ids are not unique"
	grep -q '^print fmt: ' events/sched/sched_switch/format || fail "no print fmt"
}

if ! check_requires; then
	echo "1..0 # SKIP requirements not met"
	exit_unsupported
fi
cd "$TRACING_DIR"
trap 'initialize_ftrace' EXIT
cases="case_event_enable case_subsystem_enable case_toplevel_enable case_set_event_forms case_event_filter case_error_log case_signal_events case_instances case_buffer_size case_tracing_on case_trace_clock case_tracers case_snapshot case_trace_marker case_fork_exit case_format_id"
echo "1..$(echo $cases | wc -w)"
for c in $cases; do
	initialize_ftrace
	if (set -e; $c); then ok "$c"; else not_ok "$c"; fi
done
