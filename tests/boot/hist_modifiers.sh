# Key and value modifiers on real events, in Linux's display formats:
# .sym/.sym-offset through kallsyms, .execname, common_stacktrace frames,
# .hex, .log2, .buckets, common_cpu, .percent/.graph values, a descending
# sort, and clear.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
echo 1..10
cd /sys/kernel/tracing
T=events/timer/hrtimer_expire_entry
S=events/sched/sched_switch
W=events/sched/sched_waking

echo 'hist:keys=function.sym' >> $T/trigger && echo 'hist:keys=function.sym-offset' >> $T/trigger &&
	sleep 0.2
grep -q '^{ function: \[ffffffff[0-9a-f]*\] tick_sched_timer  *} hitcount: *[0-9][0-9]*$' $T/hist
result $? ".sym: [address] symbol, padded"
grep -q '^{ function: \[ffffffff[0-9a-f]*\] tick_sched_timer+0x0/0x[0-9a-f]*  *} hitcount:' $T/hist
result $? ".sym-offset: symbol+off/size"
echo '!hist:keys=function.sym' >> $T/trigger && echo '!hist:keys=function.sym-offset' >> $T/trigger

echo 'hist:keys=common_pid.execname,pid.hex' >> $W/trigger && echo 'hist:keys=common_stacktrace' >> $S/trigger &&
	echo 'hist:keys=next_prio.log2,prev_prio.buckets=50:vals=hitcount.percent,prev_state.graph:sort=hitcount.descending' >> $S/trigger &&
	echo 'hist:keys=common_cpu' >> $S/trigger
result $? "modifiers accepted"
pingpong 2 50
grep -q '^{ common_pid: pingpong/[01]      \[ *[0-9][0-9]*\], pid: [0-9a-f][0-9a-f]* } hitcount: ' $W/hist
result $? ".execname: comm then [pid]; .hex unpadded"
grep -q '^{ common_stacktrace:$' $S/hist && grep -q '^         __schedule+0x[0-9a-f]*/0x[0-9a-f]*$' $S/hist &&
	grep -q '^} hitcount: *[0-9][0-9]*$' $S/hist
result $? "common_stacktrace: one frame per line, from the switching function"
grep -q '^{ next_prio: ~ 2^7 , prev_prio: ~ 100-149 } hitcount: *[0-9][0-9]*  hitcount .%.: *[0-9][0-9]*\.[0-9][0-9]  prev_state: ' $S/hist
result $? ".log2, .buckets=50 keys; .percent value"
grep -q '^{ next_prio: .*prev_state: [ #]\{20\}$' $S/hist
result $? ".graph: a 20-character bar"
test "$(grep -c '^{ common_cpu: ' $S/hist)" -ge 1
result $? "common_cpu keys"
H='hist:keys=next_prio.log2,prev_prio.buckets=50:vals=hitcount.percent,prev_state.graph:sort=hitcount.descending'
echo "$H:pause" >> $S/trigger && echo "$H:clear" >> $S/trigger &&
	grep -q '^# trigger info: hist:keys=next_prio.log2,prev_prio.buckets=50:vals=hitcount,hitcount.percent,prev_state.graph:sort=hitcount.descending:size=2048 .paused.$' $S/hist &&
	grep -q '^    Hits: 0$' $S/hist
result $? "paused and cleared: empty, still there (hitcount stays the first value, as Linux prints it)"
echo '!hist:keys=common_pid.execname,pid.hex' >> $W/trigger && echo '!hist:keys=common_stacktrace' >> $S/trigger &&
	echo "!$H" >> $S/trigger &&
	echo '!hist:keys=common_cpu' >> $S/trigger &&
	grep -q '^# Available triggers:' $S/trigger && grep -q '^# Available triggers:' $W/trigger
result $? "removed"
