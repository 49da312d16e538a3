#!/bin/sh
# description: ftracetest-style inter-event cases: synthetic_events with
# > >> ! and every field type, its syntax errors with error_log carets,
# onmatch/onmax/onchange actions with trace/save/snapshot, field
# variables, a combined latency built from two synthetic events, several
# actions on one trigger, and hists on synthetic events. pingpong threads
# stand in for the selftests' ping.
# requires: synthetic_events events/sched/sched_waking/trigger events/sched/sched_switch/trigger error_log
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
W=events/sched/sched_waking
U=events/sched/sched_wakeup
S=events/sched/sched_switch

fail() { echo "# $*"; exit 1; }
exit_unsupported() { exit 2; }

clear_triggers() {
	for t in $(find events -name trigger); do
		grep -v '^#' $t | while read -r l; do
			echo "!${l%% \[*}" >> $t 2>/dev/null
		done
	done
}

reset_tracing() {
	echo 1 > tracing_on
	clear_triggers
	clear_triggers	# a trigger whose variables others used goes on the second pass
	clear_triggers
	echo > synthetic_events
	echo 0 > events/enable
	echo > trace
	echo > error_log
}

errlog_check() { # PREFIX COMMAND-WITH-^ FILE
	pos=$(echo -n "${2%^*}" | wc -c)
	command=$(echo "$2" | tr -d ^)
	echo > error_log
	(! echo "$command" >> "$3") 2>/dev/null
	grep -q "$1: error:" error_log || fail "no '$1: error:' for $command"
	N=$(tail -n 1 error_log | wc -c)
	[ $(expr 13 + $pos) -eq $N ] || { cat error_log; fail "caret at $N, want $((13 + pos)) for: $command"; }
}

ping() { pingpong 1 20; }

case_synth_create_remove() {
	echo 'wakeup_latency u64 lat pid_t pid char comm[16]' > synthetic_events
	grep -q wakeup_latency synthetic_events
	[ -d events/synthetic/wakeup_latency ] || fail "no event dir"
	grep -q 'field:u64 lat;' events/synthetic/wakeup_latency/format
	echo 'waking_latency u64 lat; pid_t pid' >> synthetic_events
	[ $(grep -c . synthetic_events) -eq 2 ] || fail ">> did not append"
	echo '!wakeup_latency u64 lat pid_t pid char comm[16]' >> synthetic_events
	[ ! -d events/synthetic/wakeup_latency ] || fail "! did not remove"
	echo 'myevent u64 a' > synthetic_events
	! grep -q waking_latency synthetic_events || fail "> did not truncate"
	echo '!myevent' >> synthetic_events
	[ -z "$(cat synthetic_events)" ] || fail "name-only removal"
}

case_synth_types() {
	echo 'alltypes u8 a; s8 b; u16 c; s16 d; u32 e; s32 f; u64 g; s64 h; int i; unsigned int j; long k; unsigned long l; pid_t m; bool n; char o[16]; char p[]; long[] q' > synthetic_events
	[ -d events/synthetic/alltypes ] || fail "not created: $(cat error_log)"
	grep -q 'field:__data_loc char\[\] p;' events/synthetic/alltypes/format || fail "no dynamic string: $(grep p events/synthetic/alltypes/format)"
	grep -q 'field:char o\[16\];' events/synthetic/alltypes/format
	echo 'stackev unsigned long[] stack' >> synthetic_events
	grep -q 'stackev' synthetic_events
}

case_synth_syntax_errors() {
	check_error() { errlog_check synthetic_events "$1" synthetic_events; }
	check_error 'myevent ^chr arg'
	check_error 'myevent ^unsigned arg'
	check_error 'myevent char ^str]'
	check_error '^mye-vent char str[]'
	check_error 'myevent char ^st-r[]'
	check_error 'myevent char ^str[kdjdk]'
	check_error 'myevent char ^str[257]'
	check_error 'myevent char str[];^int'
	check_error 'myevent char ^str[; int v'
	check_error 'myevent char str; ^int'
	check_error '^mye;vent char str[]'
	echo 'myevent u64 a' > synthetic_events
	! echo 'myevent u64 b' >> synthetic_events 2>/dev/null || fail "redefinition accepted"
	echo 'hist:keys=a' > events/synthetic/myevent/trigger
	! echo '!myevent' >> synthetic_events 2>/dev/null || fail "a busy event was removed"
}

case_onmatch() {
	echo 'wakeup_latency u64 lat pid_t pid char comm[16]' > synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="pingpong/0"' > $W/trigger
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm) if next_comm=="pingpong/0"' > $S/trigger
	echo 'hist:keys=comm,pid,lat:wakeup_lat=lat:sort=lat' > events/synthetic/wakeup_latency/trigger
	ping
	grep -q "pingpong/0" events/synthetic/wakeup_latency/hist || fail "no synthetic hits: $(cat events/synthetic/wakeup_latency/hist)"
	grep -q 'onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)' $S/trigger
}

case_onmatch_trace_form() {
	echo 'wakeup_latency u64 lat pid_t pid' > synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' > $W/trigger
	echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_latency,$lat,next_pid)' > $S/trigger
	echo 1 > events/synthetic/wakeup_latency/enable
	ping
	grep -q 'wakeup_latency: lat=[0-9]* pid=[0-9]*' trace || fail "no synthetic record in trace"
}

case_onmax() {
	echo 'wakeup_latency u64 lat pid_t pid char comm[16]' > synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="pingpong/0"' >> $W/trigger
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm) if next_comm=="pingpong/0"' >> $S/trigger
	ping
	grep -q "max:" $S/hist || fail "no max: $(cat $S/hist)"
	grep -q "next_comm: pingpong/0" $S/hist
}

case_onchange() {
	echo 'hist:keys=comm:newprio=prio:onchange($newprio).save(comm,prio) if comm=="pingpong/0"' > $W/trigger
	ping
	grep -q "changed:" $W/hist || fail "no changed: $(cat $W/hist)"
}

case_snapshot() {
	[ -f snapshot ] || exit_unsupported
	echo 1 > events/sched/enable
	echo 'hist:keys=comm:newprio=prio:onchange($newprio).save(comm,prio):onchange($newprio).snapshot() if comm=="pingpong/0"' >> $W/trigger
	ping
	grep -q "changed:" $W/hist
	grep -q 'comm=pingpong/0' snapshot || fail "snapshot empty"
}

case_field_variables() {
	echo 'wakeup_latency u64 lat pid_t pid int prio char comm[16]' > synthetic_events
	echo 'hist:keys=comm:ts0=common_timestamp.usecs if comm=="pingpong/0"' > $W/trigger
	echo 'hist:keys=next_comm:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,sched.sched_waking.prio,next_comm) if next_comm=="pingpong/0"' > $S/trigger
	echo 'hist:keys=pid,prio,comm:vals=lat:sort=pid,prio' > events/synthetic/wakeup_latency/trigger
	ping
	grep -q "synthetic_prio=prio" $W/hist || fail "no field variable: $(cat $W/hist)"
	grep -q "prio:" events/synthetic/wakeup_latency/hist || fail "no synthetic hits"
}

case_combined() {
	echo 'waking_latency u64 lat pid_t pid' > synthetic_events
	echo 'wakeup_latency u64 lat pid_t pid' >> synthetic_events
	echo 'waking_plus_wakeup_latency u64 lat; pid_t pid' >> synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' > $W/trigger
	echo 'hist:keys=pid:waking_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).waking_latency($waking_lat,pid) if comm=="pingpong/0"' > $U/trigger
	echo 'hist:keys=pid,lat:sort=pid,lat' > events/synthetic/waking_latency/trigger
	echo 'hist:keys=pid:ts1=common_timestamp.usecs if comm=="pingpong/0"' >> $U/trigger
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts1:onmatch(sched.sched_wakeup).wakeup_latency($wakeup_lat,next_pid) if next_comm=="pingpong/0"' > $S/trigger
	echo 'hist:keys=pid,lat:sort=pid,lat:ww_lat=$waking_lat+$wakeup_lat:onmatch(synthetic.wakeup_latency).waking_plus_wakeup_latency($ww_lat,pid)' >> events/synthetic/wakeup_latency/trigger
	echo 'hist:keys=pid,lat:sort=pid,lat' >> events/synthetic/waking_plus_wakeup_latency/trigger
	ping
	grep -q "pid:" events/synthetic/waking_plus_wakeup_latency/hist || fail "no combined latency"
}

case_multiple_actions() {
	echo 'wakeup_latency u64 lat pid_t pid char comm[16]' > synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="pingpong/0"' >> $W/trigger
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_prio,next_comm,prev_pid,prev_prio,prev_comm):onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm) if next_comm=="pingpong/0"' >> $S/trigger
	echo 'hist:keys=comm,pid,lat:wakeup_lat=lat:sort=lat' > events/synthetic/wakeup_latency/trigger
	ping
	grep -q "max:" $S/hist || fail "no max"
	grep -q "pingpong/0" events/synthetic/wakeup_latency/hist || fail "no onmatch"
}

case_multiple_actions_qualified() {
	# onmatch() params naming another trigger's variable as sys.event.$var
	echo 'wakeup_latency u64 lat pid_t pid' > synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="pingpong/0"' > $U/trigger
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0 if next_comm=="pingpong/0"' >> $S/trigger
	echo 'hist:keys=next_pid:onmatch(sched.sched_wakeup).wakeup_latency(sched.sched_switch.$wakeup_lat,next_pid) if next_comm=="pingpong/0"' >> $S/trigger
	echo 'hist:keys=next_pid:onmatch(sched.sched_wakeup).wakeup_latency(sched.sched_switch.$wakeup_lat,prev_pid) if next_comm=="pingpong/0"' >> $S/trigger
	echo 'hist:keys=next_pid if next_comm=="pingpong/0"' >> $S/trigger
	[ $(grep -c '^hist' $S/trigger) -eq 4 ] || fail "not four triggers"
}

case_dynstring_dynamic_events() {
	echo 's:wake_lat pid_t pid; u64 delta; char wake_comm[]' > dynamic_events
	echo 'hist:keys=pid:ts=common_timestamp.usecs if !(common_flags & 0x18)' > $W/trigger
	echo 'hist:keys=next_pid:pid=next_pid,delta=common_timestamp.usecs-$ts:onmatch(sched.sched_waking).trace(wake_lat,$pid,$delta,prev_comm)' > $S/trigger
	echo 1 > events/synthetic/wake_lat/enable
	sleep 1
	grep -q "wake_lat.*pid=.*delta=.*wake_comm=" trace || fail "no wake_lat record"
}

case_hist_errors() {
	echo 'wakeup_latency u64 lat pid_t pid' > synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' > $W/trigger
	check_error() { errlog_check hist:sched:sched_switch "$1" $S/trigger; }
	check_error 'hist:keys=next_pid:lat=common_timestamp.usecs-^$nots0'
	check_error 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).^nosuchev($lat,next_pid)'
	check_error 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(^nosys.sched_waking).wakeup_latency($lat,next_pid)'
	check_error 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).^wakeup_latency($lat)'
}

cd /sys/kernel/tracing || { echo "1..0 # SKIP no tracefs"; exit 0; }
set -- case_synth_create_remove case_synth_types case_synth_syntax_errors case_onmatch \
	case_onmatch_trace_form case_onmax case_onchange case_snapshot case_field_variables \
	case_combined case_multiple_actions case_multiple_actions_qualified case_dynstring_dynamic_events case_hist_errors
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
