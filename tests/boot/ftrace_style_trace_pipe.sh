#!/bin/sh
# description: trace_pipe read by a background job, stopped with kill; blocking reads interrupted
# requires: trace_pipe events/sched/sched_process_fork/enable
#
# The job-control idioms of the ftrace selftests: a reader in the
# background (`cat trace_pipe > file &`), $! and kill, wait for its
# status, a cleanup trap on EXIT, `sleep` with fractions, here-documents.

. /spoor/lib/tap.sh

cd /sys/kernel/tracing
reader=
cleanup() {
	[ -z "$reader" ] || kill $reader 2>/dev/null || true
	echo 0 > events/sched/sched_process_fork/enable
	echo > trace
}
trap cleanup EXIT
echo 1..7

echo > trace
echo 1 > events/sched/sched_process_fork/enable
cat trace_pipe > /tmp/pipe.txt &
reader=$!
check "the reader is a task named cat" grep -q '^cat$' /proc/$reader/comm
for i in 1 2 3; do
	( echo forked > /dev/null )
done
sleep 0.5
echo 0 > events/sched/sched_process_fork/enable
kill $reader
wait $reader
st=$?
reader=
check "kill ends a reader blocked in trace_pipe (status 143)" [ $st -eq 143 ]
check "it had consumed the fork events" [ "$(grep -c 'sched_process_fork:' /tmp/pipe.txt)" -ge 3 ]
check "what trace_pipe consumed is gone from trace" [ "$(grep -c 'sched_process_fork:' trace)" -eq 0 ]

# A `read` from a pipe that a background writer fills.
{ sleep 0.2; echo late; } | { read -r line; [ "$line" = late ]; }
check "read waits for a slow writer" [ $? -eq 0 ]

sleep 5 &
pid=$!
kill -INT $pid
wait $pid
check "kill -INT: status 130" [ $? -eq 130 ]

echo 1 > events/sched/sched_process_fork/enable
cat > /tmp/expected <<EOF
sched:sched_process_fork
EOF
check "set_event lists what is enabled" diff /tmp/expected set_event
