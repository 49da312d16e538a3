# Synthetic events carrying a stack trace and a dynamic string, after
# Linux's selftests trigger-synthetic-event-stack and -dynstring: the
# stack variable of one sched_switch histogram passed to a long[] field,
# next_comm to a char[] field; both printed in `trace`.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
echo 1..6
cd /sys/kernel/tracing
S=events/sched/sched_switch
W=events/sched/sched_waking

echo 's:stack unsigned long[] stack' > dynamic_events &&
	echo 'hist:keys=prev_pid:s0=common_stacktrace if prev_state & 3' >> $S/trigger &&
	echo 'hist:keys=next_pid:s1=$s0:onmatch(sched.sched_switch).trace(stack,$s1)' >> $S/trigger
result $? "a stack variable passed to a long[] field"
echo 1 > events/synthetic/stack/enable && pingpong 1 10 && echo 0 > events/synthetic/stack/enable
grep -q ' stack: stack=STACK:$' trace && grep -q '^=> schedule+0x[0-9a-f]*/0x[0-9a-f]*$' trace
result $? "stack records: STACK: then one => frame per line"
echo '!hist:keys=next_pid:s1=$s0:onmatch(sched.sched_switch).trace(stack,$s1)' >> $S/trigger &&
	echo '!hist:keys=prev_pid:s0=common_stacktrace if prev_state & 3' >> $S/trigger &&
	echo '-:stack' >> dynamic_events
result $? "removed"

echo 's:wakeup_lat char[] comm; u64 lat' >> dynamic_events &&
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm ~ "pingpong*"' >> $W/trigger &&
	echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_lat(next_comm,$lat)' >> $S/trigger
result $? "next_comm (char[16]) passed to a char[] field"
echo > trace && echo 1 > events/synthetic/wakeup_lat/enable && pingpong 1 10 &&
	echo 0 > events/synthetic/wakeup_lat/enable
grep -q ' wakeup_lat: comm=pingpong/[01] lat=[0-9][0-9]*$' trace
result $? "dynamic string records"
echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_lat(next_comm,$lat)' >> $S/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs if comm ~ "pingpong*"' >> $W/trigger &&
	echo '-:wakeup_lat' >> dynamic_events && test -z "$(cat dynamic_events)"
result $? "removed"
