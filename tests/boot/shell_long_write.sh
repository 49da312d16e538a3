# A command line longer than the shell's output buffer reaches a pseudo
# file in one write: tracefs takes each write as one command.
echo 1..2
cd /sys/kernel/tracing
f=""
for i in $(seq 1 60); do
	f="${f:+$f || }prev_pid == $i"
done
echo "$f" > events/sched/sched_switch/filter
n=$(cat events/sched/sched_switch/filter | wc -c)
if [ "$n" -gt 900 ]; then
	echo "ok 1 - a $n-byte filter arrived whole"
else
	echo "not ok 1 - filter reads back $n bytes: $(head -c 80 events/sched/sched_switch/filter)"
fi
echo 0 > events/sched/sched_switch/filter
t="hist:keys=common_pid:vals=hitcount if $f"
echo "$t" > events/sched/sched_switch/trigger && ok=yes || ok=no
if [ "$ok" = yes ] && grep -q 'prev_pid == 60' events/sched/sched_switch/trigger; then
	echo "ok 2 - a ${#t}-byte hist trigger arrived whole"
else
	echo "not ok 2 - long trigger: $ok"
fi
echo "!$t" >> events/sched/sched_switch/trigger
