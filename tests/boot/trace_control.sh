# The tracefs control files behave as Linux's: filters and their error_log
# entries, triggers, set_event, instances, snapshot, trace_marker,
# trace_clock, buffer sizes, trace_pipe; and switching a tracepoint on and
# off in a loop while every CPU runs through it.
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
busy() {	# some scheduling on every CPU
	i=0
	while [ $i -lt 10 ]; do ls /proc > /dev/null; i=$((i + 1)); done
	sleep 1
}
echo 1..25
cd $T
# Filters.
echo 'bad' > events/sched/sched_switch/filter 2>/dev/null
check "a bad filter is refused" test $? != 0
check "error_log holds Linux's entry" grep -q '^\[ *[0-9]*\.[0-9]*\] event filter parse error: error: Field not found$' error_log
check "error_log shows the command" grep -q '^  Command: bad$' error_log
echo > error_log
check "echo > error_log clears it" test -z "$(cat error_log)"
echo 'prev_pid == 0' > events/sched/sched_switch/filter
check "filter reads back" grep -q '^prev_pid == 0$' events/sched/sched_switch/filter
echo > trace
echo 1 > events/sched/sched_switch/enable
busy
echo 0 > events/sched/sched_switch/enable
check "filtered records were kept" grep -q 'sched_switch: prev_comm=[^ ]* prev_pid=0 ' trace
check "only matching records were kept" test "$(grep sched_switch trace | grep -vc ' prev_pid=0 ')" = 0
echo 0 > events/sched/sched_switch/filter
check "filter 0 removes it" grep -q '^none$' events/sched/sched_switch/filter
# Triggers.
check "empty trigger file lists the commands" grep -q '^# traceon traceoff snapshot stacktrace enable_event disable_event.*$' events/sched/sched_switch/trigger
echo 'traceoff:1 if next_pid == 999999' > events/sched/sched_switch/trigger
check "trigger reads back" grep -q '^traceoff:count=1 if next_pid == 999999$' events/sched/sched_switch/trigger
echo 'traceoff' >> events/sched/sched_switch/trigger 2>/dev/null
check "a second traceoff is refused (EEXIST)" test $? != 0
echo '!traceoff' >> events/sched/sched_switch/trigger
echo 'traceoff' > events/sched/sched_switch/trigger
busy
check "traceoff trigger stopped tracing" grep -q '^0$' tracing_on
echo '!traceoff' >> events/sched/sched_switch/trigger
echo 1 > tracing_on
echo 'enable_event:sched:sched_wakeup:1' > events/sched/sched_switch/trigger
busy
check "enable_event soft-enabled its target" grep -q '^1\*$' events/sched/sched_wakeup/enable
echo '!enable_event:sched:sched_wakeup:1' >> events/sched/sched_switch/trigger
check "! removes the enable_event trigger" grep -q '^# Available triggers' events/sched/sched_switch/trigger
# Linux leaves a target as its last soft user left it: on, out of soft mode.
check "target leaves soft mode, on as the trigger left it" grep -q '^1$' events/sched/sched_wakeup/enable
# set_event.
echo 'sched:sched_wakeup irq:*' > set_event
check "set_event lists what it enabled" test "$(grep -c . set_event)" = 5
echo '!irq:*' >> set_event
check "! removes" test "$(cat set_event)" = sched:sched_wakeup
echo > set_event
# Instances.
echo > trace
mkdir instances/foo
echo 1 > instances/foo/events/sched/sched_wakeup/enable
busy
check "an instance records its own events" grep -q sched_wakeup instances/foo/trace
check "the top buffer does not get them" test "$(grep -c sched_wakeup trace)" = 0
echo 0 > instances/foo/events/sched/sched_wakeup/enable
rmdir instances/foo
check "rmdir removes the instance" test ! -d instances/foo
# trace_marker, snapshot, clock, sizes.
echo hello spoor > trace_marker
check "trace_marker line" grep -q ': tracing_mark_write: hello spoor$' trace
echo 1 > snapshot
check "snapshot holds the swapped buffer" grep -q 'tracing_mark_write: hello spoor$' snapshot
echo foo > trace_clock 2>/dev/null
check "unknown clock refused, clock unchanged" grep -q '^\[local\] global counter$' trace_clock
echo 64 > buffer_size_kb
sizes=$(cat buffer_size_kb per_cpu/cpu1/buffer_size_kb buffer_total_size_kb | tr '\n' ' ')
check "buffer_size_kb resizes every CPU ($sizes)" test "$sizes" = "67 67 268 "
# A tracepoint flipped while all CPUs run through it.
i=0
while [ $i -lt 30 ]; do
	echo 1 > events/sched/sched_switch/enable
	ls /proc > /dev/null
	echo 0 > events/sched/sched_switch/enable
	i=$((i + 1))
done
check "30 enable/disable rounds under load" grep -q '^0$' events/sched/sched_switch/enable
