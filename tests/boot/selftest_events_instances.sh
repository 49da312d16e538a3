#!/bin/sh
# description: instances - mkdir/rmdir raced by writers and readers of the instance's files
# requires: instances
#
# In the style of instances/instance.tc and instance-event.tc of Linux's
# ftrace selftests: loops in the background create and remove one
# instance while others enable its events, set filters and triggers and
# read its trace; nothing may crash, and afterwards the name is usable
# again. Writes that lose the race fail (ENOENT, ENODEV, EBUSY): that is
# expected and ignored, as the selftests do.

. /spoor/lib/tap.sh
TRACING_DIR=$(grep tracefs /proc/mounts | cut -f2 -d' ' | head -1)
[ -n "$TRACING_DIR" ] || TRACING_DIR=/sys/kernel/debug/tracing
if [ ! -d "$TRACING_DIR/instances" ]; then
	echo "1..0 # SKIP no instances"
	exit 4
fi
cd "$TRACING_DIR/instances"
echo 1..5

mkdir x && rmdir x
result $? "an instance can be made and removed"

instance_slam() {
	while :; do
		mkdir foo 2> /dev/null
		echo 1 > foo/events/sched/sched_switch/enable 2> /dev/null
		rmdir foo 2> /dev/null
	done
}

instance_read() {
	while :; do
		cat foo/trace > /dev/null 2>&1
		cat foo/events/sched/enable > /dev/null 2>&1
		cat foo/events/sched/sched_switch/hist > /dev/null 2>&1
	done
}

instance_set() {
	while :; do
		echo 1 > foo/events/sched/sched_switch/enable
		echo 'next_pid != 0' > foo/events/sched/sched_switch/filter
		echo 'traceoff:1' > foo/events/sched/sched_switch/trigger
		echo 'sched:*' > foo/set_event
	done 2> /dev/null
}

instance_slam &
p1=$!
instance_slam &
p2=$!
instance_read &
p3=$!
instance_set &
p4=$!
sleep 3
kill -1 $p1 $p2 $p3 $p4
wait $p1 $p2 $p3 $p4
ok "the racing loops ended without a crash"

sleep 1
rmdir foo 2> /dev/null
mkdir foo
result $? "the name can be made again"
[ "$(cat foo/events/sched/sched_switch/enable)" = 0 ] && [ "$(cat foo/events/sched/sched_switch/filter)" = none ]
result $? "the new instance starts clean"
rmdir foo && [ ! -d foo ]
result $? "and is removed"
