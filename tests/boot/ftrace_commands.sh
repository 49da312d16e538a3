# Function commands on set_ftrace_filter (trace/ftrace_probe.c): the listing
# as Linux 6.12 prints it (checked on the linux-ref rig), counts spent only
# when the state changes, errors, enable_event's soft mode, stacktrace
# records, :mod: entries, and md5sum/dd, which ftracetest's cases use.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
echo 1..16
cd /sys/kernel/tracing

# ftrace_bench_target runs only for the benchmark: these never fire.
f=ftrace_bench_target
echo "$f:traceoff:3" > set_ftrace_filter
echo "$f:stacktrace" >> set_ftrace_filter
echo "$f:enable_event:sched:sched_switch:2" >> set_ftrace_filter
echo "$f:dump" >> set_ftrace_filter
echo 'foo:mod:bar' >> set_ftrace_filter
is "the listing: :mod: entries, then the commands newest first" \
	"foo:mod:bar $f:dump:count=1 $f:enable_event:sched:sched_switch:count=2 $f:stacktrace:unlimited $f:traceoff:count=3" \
	"$(cat set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
is "the probed function is enabled once" "$f (1)" "$(cat enabled_functions)"
echo "$f:traceoff" >> set_ftrace_filter 2>/dev/null
is "the same command on the same function again is EINVAL" 1 $?
echo 'no_such_function:traceon' >> set_ftrace_filter 2>/dev/null
is "a glob matching nothing is EINVAL" 1 $?
echo 'schedule:frob' >> set_ftrace_filter 2>/dev/null
is "an unknown command is EINVAL" 1 $?
echo 'schedule:traceon:x' >> set_ftrace_filter 2>/dev/null
is "a bad count is EINVAL" 1 $?
echo 'schedule:traceoff' >> set_ftrace_notrace 2>/dev/null
is "set_ftrace_notrace takes no command" 1 $?
for c in traceoff stacktrace enable_event:sched:sched_switch dump; do
	echo "!$f:$c" >> set_ftrace_filter
done

echo 'schedule:traceoff:3' > set_ftrace_filter
echo 'schedule:stacktrace' >> set_ftrace_filter
echo 'schedule:enable_event:sched:sched_switch:2' >> set_ftrace_filter

echo 0 > events/sched/sched_switch/enable
sleep 0.05
is "enable_event soft-enabled its event" "1*" "$(cat events/sched/sched_switch/enable)"
sleep 0.05
is "traceoff turned tracing off" 0 "$(cat tracing_on)"
echo 1 > tracing_on; sleep 0.05; echo 1 > tracing_on; sleep 0.05
is "a count is spent only when tracing_on changes" "schedule:traceoff:count=0" \
	"$(grep traceoff set_ftrace_filter)"
check "stacktrace recorded the probed function on top" grep -q -A1 '<stack trace>' trace
grep -A1 '<stack trace>' trace | grep -q '=> schedule'
result $? "its first frame is the probed function"

echo > set_ftrace_filter
is "O_TRUNC keeps the commands" \
	"#### all functions enabled #### schedule:stacktrace:unlimited schedule:traceoff:count=0" \
	"$(grep -v enable_event set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
echo '!schedule:enable_event:sched:sched_switch' >> set_ftrace_filter
echo '!schedule:stacktrace' >> set_ftrace_filter
echo '!schedule:traceoff:0' >> set_ftrace_filter
echo '!schedule:traceoff' >> set_ftrace_filter 2>/dev/null
is "removing a command on no function is ENODEV" 1 $?
is "everything removed: the sites are NOPs again" "" "$(cat enabled_functions)"
echo 1 > tracing_on
echo 0 > events/sched/sched_switch/enable

is "md5sum and dd bs=1 read set_ftrace_filter alike" "$(md5sum < set_ftrace_filter)" \
	"$(dd if=set_ftrace_filter bs=1 2>/dev/null | md5sum)"
