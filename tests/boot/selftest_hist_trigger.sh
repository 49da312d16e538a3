#!/bin/sh
# description: ftracetest-style hist trigger cases: keys, vals, sort, size,
# pause/cont/clear, several histograms on one event, name=, key and value
# modifiers, expressions and their errors, hist on ftrace/print through
# trace_marker, error_log carets. Each case runs in a subshell under set -e
# from the tracing directory after the reset ftracetest does.
# requires: events/sched/sched_process_fork/trigger error_log trace_marker
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
F=events/sched/sched_process_fork
P=events/ftrace/print

fail() { echo "# $*"; exit 1; }
exit_unsupported() { exit 2; }

forks() { # N
	for i in $(seq 1 $1); do ( echo forked > /dev/null ); done
}

clear_triggers() { # drop every trigger the way ftracetest's clear_trigger_events does
	for t in $(find events -name trigger); do
		grep -v '^#' $t | while read -r l; do
			echo "!${l%% \[*}" >> $t 2>/dev/null
		done
	done
}

reset_tracing() {
	echo 1 > tracing_on
	clear_triggers
	clear_triggers	# vars referenced by later triggers go once those are gone
	echo > synthetic_events
	echo 0 > events/enable
	echo > trace
	echo > error_log
}

# errlog_check PREFIX COMMAND-WITH-^ FILE: ftracetest's caret arithmetic.
errlog_check() {
	pos=$(echo -n "${2%^*}" | wc -c)
	command=$(echo "$2" | tr -d ^)
	echo > error_log
	(! echo "$command" >> "$3") 2>/dev/null
	grep -q "$1: error:" error_log || fail "no '$1: error:' in error_log for $command"
	N=$(tail -n 1 error_log | wc -c)
	[ $(expr 13 + $pos) -eq $N ] || { cat error_log; fail "caret at $N, want $((13 + pos)) for $command"; }
}

case_keys_vals() {
	echo 'hist:keys=parent_pid:vals=child_pid' > $F/trigger
	forks 5
	grep -q parent_pid $F/hist
	grep -q child_pid $F/hist
	grep -q 'hist:keys=parent_pid:vals=hitcount,child_pid' $F/trigger || fail "readback: $(cat $F/trigger)"
}

case_execname() {
	echo 'hist:keys=common_pid.execname' > $F/trigger
	forks 5
	COMM=$(cat /proc/$$/comm)
	grep -q "common_pid: $COMM" $F/hist || fail "no execname $COMM"
}

case_sort_two_keys() {
	echo 'hist:keys=parent_pid,child_pid:sort=child_pid.ascending' > $F/trigger
	forks 5
	grep '^{' $F/hist | sed 's/.*child_pid: *\([0-9]*\).*/\1/' > /tmp/got
	sort -n /tmp/got > /tmp/want
	diff /tmp/got /tmp/want > /dev/null || fail "not sorted by child_pid"
	[ $(wc -l < /tmp/got) -ge 5 ] || fail "too few entries"
}

case_size() {
	echo 'hist:keys=parent_pid:size=2048' > $F/trigger
	grep -q ':size=2048 ' $F/trigger || fail "readback: $(cat $F/trigger)"
}

case_pause_cont_clear() {
	# on ftrace/print: echo is a builtin, so nothing but the marks hits
	echo 'hist:keys=common_pid:pause' > $P/trigger
	grep -q '\[paused\]' $P/trigger
	for i in 1 2 3; do echo mark > trace_marker; done
	grep -q 'Hits: 0$' $P/hist || fail "a paused hist counted"
	echo 'hist:keys=common_pid:cont' >> $P/trigger
	grep -q '\[active\]' $P/trigger
	for i in 1 2 3; do echo mark > trace_marker; done
	grep -q 'hitcount: *3$' $P/hist || fail "cont did not resume"
	echo 'hist:keys=common_pid:clear' >> $P/trigger
	grep -q 'Hits: 0$' $P/hist || fail "clear"
}

case_multihist() {
	echo 'hist:keys=parent_pid:vals=child_pid' > $F/trigger
	echo 'hist:keys=parent_comm:vals=child_pid' >> $F/trigger
	forks 5
	grep -q parent_pid $F/hist && grep -q parent_comm $F/hist
	[ $(grep -c '^# event histogram' $F/hist) -eq 2 ] || fail "not two histograms"
	# a duplicate is EEXIST
	! echo 'hist:keys=parent_pid:vals=child_pid' >> $F/trigger 2>/dev/null || fail "duplicate accepted"
}

case_named() {
	echo 'hist:name=test_hist:keys=common_pid' > $F/trigger
	echo 'hist:name=test_hist:keys=common_pid' > events/sched/sched_process_exit/trigger
	forks 5
	grep -q 'test_hist' $F/trigger
	grep -q "common_pid" events/sched/sched_process_exit/hist
	diffs=$(diff events/sched/sched_process_exit/hist $F/hist | wc -l)
	[ $diffs -eq 0 ] || fail "same-name histograms differ"
	! echo 'hist:name=test_hist:keys=parent_pid' >> $F/trigger 2>/dev/null || fail "incompatible named hist accepted"
}

case_mod_hex() {
	read -r mypid _ < /proc/self/stat
	echo 'hist:keys=parent_pid.hex:vals=child_pid' > $F/trigger
	forks 3
	grep -q "parent_pid: $(printf %x $mypid) }" $F/hist || fail "no hex key $(printf %x $mypid)"
}

case_mod_log2() {
	echo 'hist:keys=parent_pid.log2:vals=child_pid' > $F/trigger
	forks 3
	grep -q 'parent_pid: ~ 2^[0-9]*' $F/hist || fail "no log2 key"
}

case_mod_buckets() {
	echo 'hist:keys=parent_pid.buckets=10:vals=child_pid' > $F/trigger
	forks 3
	grep -q 'parent_pid: ~ [0-9]*-[0-9]*' $F/hist || fail "no bucket key: $(grep '^{' $F/hist)"
}

case_mod_percent_graph() {
	echo 'hist:keys=parent_pid:vals=hitcount.percent' > $F/trigger 2>/dev/null || exit_unsupported
	forks 3
	grep -q 'hitcount (%): *100.00' $F/hist || fail "no percent: $(grep '^{' $F/hist)"
	echo '!hist:keys=parent_pid:vals=hitcount.percent' >> $F/trigger
	echo 'hist:keys=parent_pid:vals=hitcount.graph' > $F/trigger
	forks 3
	grep -q '#' $F/hist
}

case_mod_sym_usecs() {
	echo 'hist:keys=call_site.sym:vals=bytes_req' > events/kmem/kmalloc/trigger
	forks 2
	grep -q 'call_site: \[[0-9a-f]*\] [a-z_]' events/kmem/kmalloc/hist || fail "no sym: $(grep '^{' events/kmem/kmalloc/hist | head -2)"
	echo 'hist:keys=common_pid:ts=common_timestamp.usecs' > $F/trigger
	grep -q 'common_timestamp.usecs' $F/trigger
}

# ftracetest's trigger-hist-expressions: the constant folds into x=N
test_hist_expr() { # expr value
	echo "hist:keys=common_pid:x=$1" > $F/trigger
	forks 2
	actual=$(grep -o 'x=[[:digit:]]*' $F/trigger | awk -F= '{ print $2 }')
	[ "$actual" = "$2" ] || fail "$1 = $actual, want $2"
	echo "!hist:keys=common_pid:x=$1" >> $F/trigger
}
test_hist_expr_err() { # expr errmsg
	echo > error_log
	! echo "hist:keys=common_pid:x=$1" > $F/trigger 2>/dev/null || fail "$1 accepted"
	grep -q "$2" error_log || fail "no '$2': $(cat error_log)"
}
case_expressions() {
	test_hist_expr "123" 123
	test_hist_expr "16-8-4-2" 2
	test_hist_expr "64/8/4/2" 1
	test_hist_expr "16-8+4+2" 14
	test_hist_expr "4*3/2*2" 12
	test_hist_expr "4+3*2-2" 8
	test_hist_expr "4+6/2-2" 5
	test_hist_expr_err "1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-16-17-18-19-20-21-22-23-24-25-26-27-28-29-30-31-32-33-34" "Too many subexpressions"
	test_hist_expr_err "-(-8)" "Unary minus not supported in sub-expressions"
	test_hist_expr_err "3/0" "Division by zero"
}

case_var_ref() {
	# an entry on exit exists only where the fork's variable resolved
	echo 'hist:keys=child_pid:ts0=common_timestamp.usecs' > $F/trigger
	echo 'hist:keys=pid:lat=common_timestamp.usecs-$ts0' > events/sched/sched_process_exit/trigger
	grep -q 'ts0=common_timestamp.usecs' $F/trigger
	forks 3
	[ $(grep -c '^{ pid:' events/sched/sched_process_exit/hist) -ge 3 ] || fail "no exit entries"
	! echo 'hist:keys=pid:x=$nosuchvar' >> events/sched/sched_process_exit/trigger 2>/dev/null || fail "unknown variable accepted"
	! echo '!hist:keys=child_pid:ts0=common_timestamp.usecs' >> $F/trigger 2>/dev/null || fail "a referenced variable was removed"
}

case_error_carets() {
	errlog_check 'hist:sched:sched_process_fork' 'hist:keys=^no_such_field' $F/trigger
	errlog_check 'hist:sched:sched_process_fork' 'hist:keys=parent_pid:vals=^nothere' $F/trigger
	errlog_check 'hist:sched:sched_process_fork' 'hist:keys=parent_pid:sort=^bogus' $F/trigger
}

case_trace_marker_hist() {
	[ -d $P ] || exit_unsupported
	echo 'hist:keys=common_pid' > $P/trigger
	for i in $(seq 1 10); do echo "hello" > trace_marker; done
	grep -q 'hitcount: *10$' $P/hist || fail "no 10 hits: $(cat $P/hist)"
}

case_trace_marker_synthetic() {
	[ -d $P ] || exit_unsupported
	echo 'latency u64 lat' > synthetic_events
	echo 'hist:keys=common_pid:ts0=common_timestamp.usecs if buf == "start"' > $P/trigger
	echo 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).latency($lat) if buf == "end"' >> $P/trigger
	echo 'hist:keys=common_pid,lat:sort=lat' > events/synthetic/latency/trigger
	echo -n "start" > trace_marker
	echo -n "end" > trace_marker
	cnt=$(grep 'hitcount: *1$' $P/hist | wc -l)
	[ $cnt -eq 2 ] || fail "print hist: $(cat $P/hist)"
	grep -q "lat:" events/synthetic/latency/hist || fail "no latency: $(cat events/synthetic/latency/hist)"
}

case_readme() {
	for s in '<var1>=<field|var_ref|numeric_literal>' 'onchange(var)' 'trace(<synthetic_event>' "' >> synthetic_events" "long[] stack' >> synthetic_events" "can be any field, or the special string 'common_stacktrace'" 's:[synthetic/]'; do
		grep -Fq "$s" README || fail "README lacks $s"
	done
}

cd /sys/kernel/tracing || { echo "1..0 # SKIP no tracefs"; exit 0; }
set -- case_keys_vals case_execname case_sort_two_keys case_size case_pause_cont_clear \
	case_multihist case_named case_mod_hex case_mod_log2 case_mod_buckets \
	case_mod_percent_graph case_mod_sym_usecs case_expressions case_var_ref case_error_carets \
	case_trace_marker_hist case_trace_marker_synthetic case_readme
echo "1..$#"
for c in "$@"; do
	reset_tracing
	(set -e; $c)
	case $? in
	0) ok "$c" ;;
	2) ok "$c # SKIP unsupported" ;;
	*) not_ok "$c" ;;
	esac
done
reset_tracing
