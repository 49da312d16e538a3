# A command line longer than the shell's output buffer reaches a pseudo
# file in one write: tracefs takes each write as one command.
. /spoor/lib/tap.sh
echo 1..3
cd /sys/kernel/tracing
f=""
for i in $(seq 1 60); do
	f="${f:+$f || }prev_pid == $i"
done
echo "$f" > events/sched/sched_switch/filter
n=$(cat events/sched/sched_switch/filter | wc -c)
check "a $n-byte filter arrived whole" [ "$n" -gt 900 ]
echo 0 > events/sched/sched_switch/filter
t="hist:keys=common_pid:vals=hitcount if $f"
echo "$t" > events/sched/sched_switch/trigger &&
	grep -q 'prev_pid == 60' events/sched/sched_switch/trigger
result $? "a ${#t}-byte hist trigger arrived whole"
echo "!$t" >> events/sched/sched_switch/trigger
printf '%s\n' "$f" > events/sched/sched_switch/filter
n=$(cat events/sched/sched_switch/filter | wc -c)
check "printf: a $n-byte filter arrived whole" [ "$n" -gt 900 ]
echo 0 > events/sched/sched_switch/filter
