# Histograms in a trace instance (Linux's hist selftests also run with
# "flags: instance"): their own variables, synthetic events generated into
# the instance's buffer, a synthetic event in use there cannot go, and
# rmdir takes every histogram with it.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
echo 1..9
cd /sys/kernel/tracing
mkdir instances/foo && test -f instances/foo/events/sched/sched_switch/hist &&
	test -f instances/foo/events/sched/sched_switch/hist_debug
result $? "an instance's events have hist and hist_debug"
I=instances/foo/events
echo 'wakeup_latency u64 lat; pid_t pid' >> synthetic_events &&
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> $I/sched/sched_waking/trigger &&
	echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($lat,next_pid)' >> $I/sched/sched_switch/trigger &&
	echo 'hist:keys=pid' >> $I/synthetic/wakeup_latency/trigger
result $? "the wakeup-latency pipeline inside the instance"
echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0' >> events/sched/sched_switch/trigger 2>/dev/null
test $? -ne 0 && grep -q "hist:sched:sched_switch: error: Couldn't find variable" error_log
result $? "the top level does not see the instance's variables"
echo 1 > $I/synthetic/wakeup_latency/enable && pingpong 1 20
grep -q '^    Hits: [1-9]' $I/synthetic/wakeup_latency/hist
result $? "the instance's synthetic-event histogram counts"
grep -q ' wakeup_latency: lat=[0-9]* pid=[0-9]*$' instances/foo/trace && ! grep -q ' wakeup_latency: ' trace
result $? "records land in the instance's buffer only"
test -z "$(cat events/sched/sched_switch/hist)"
result $? "the top level has no histogram"
echo '!wakeup_latency' >> synthetic_events 2>/dev/null
test $? -ne 0
result $? "a synthetic event used in the instance cannot be deleted"
rmdir instances/foo && test ! -e instances/foo
result $? "rmdir with live histograms"
echo '!wakeup_latency' >> synthetic_events && test -z "$(cat synthetic_events)"
result $? "then the synthetic event can go"
