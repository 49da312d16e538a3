# Commands run as tasks the way a Unix shell runs them: every command,
# subshell, pipeline stage and background job is a new task named after
# the command, a child of the shell; sleep is a timer wake-up; jobs can
# be waited for and killed; nice sets the task's nice value.
. /spoor/lib/tap.sh
# stat_field PID N: field N of /proc/PID/stat (2 = (comm), 4 = ppid, 19 = nice)
stat_field() {
	local line i=$2
	read -r line < /proc/$1/stat || return 1
	set -- $line
	eval "echo \${$i}"
}
# uptime in hundredths of a second
now() {
	local up
	read -r up _ < /proc/uptime
	echo $((${up%.*} * 100 + 1${up#*.} - 100))
}
echo 1..17

read -r self _ < /proc/self/stat
is "/proc/self/stat of a builtin is the shell" "$$" "$self"
line=$(cat /proc/self/stat)
set -- $line
is "cat is a new task named cat" "(cat)" "$2"
is "its parent is the shell" "$$" "$4"
[ "$1" != "$$" ] && r=new || r=same
is "with a pid of its own" "new" "$r"
p1=$(sh -c 'read -r p _ < /proc/self/stat; echo $p')
p2=$(sh -c 'read -r p _ < /proc/self/stat; echo $p')
[ "$p1" != "$p2" ] && r=different || r=same
is "every command gets a new pid" "different" "$r"
cat /proc/self/stat | grep . > /tmp/stage.stat
read -r l < /tmp/stage.stat
set -- $l
is "pipeline stages are tasks of the shell" "(cat) $$" "$2 $4"

sleep 2 &
pid=$!
is "a background job is a task named sleep" "(sleep)" "$(stat_field $pid 2)"
is "whose parent is the shell" "$$" "$(stat_field $pid 4)"
is "ps lists it" "1" "$(ps | grep -c "^ *$pid  *$$ .* sleep\$")"
is "/proc/PID/comm" "sleep" "$(cat /proc/$pid/comm)"
kill $pid
wait $pid
is "kill ends it; wait gives 128+SIGTERM" "143" "$?"

nice -n 7 sleep 1 &
pid=$!
is "nice -n 7 starts the task at nice 7" "7" "$(stat_field $pid 19)"
kill -9 $pid
wait $pid
is "kill -9: 128+SIGKILL" "137" "$?"

t0=$(now)
sleep 0.3
t1=$(now)
d=$((t1 - t0))
[ $d -ge 28 ] && [ $d -lt 200 ] && r=yes || r="no ($d/100 s)"
is "sleep 0.3 sleeps about 0.3 s" "yes" "$r"

( echo forked > /dev/null )
is "( ... ) forks a subshell that exits 0" "0" "$?"
sleep 0.2 & a=$!
sleep 0.1 & b=$!
wait
r=0
kill -0 $a 2>/dev/null && r=1
kill -0 $b 2>/dev/null && r=1
is "wait with no operand waits for every job" "0" "$r"

# A pipeline's commands start together, once the shell has made them all
# (as a Unix shell's forks follow each other within microseconds): the
# third cat's $(...) keeps the shell busy between its forks, yet the first
# cat is not switched in before the shell's fork of the third.
T=/sys/kernel/tracing
echo > $T/trace
echo 1 > $T/events/sched/sched_process_fork/enable
echo 1 > $T/events/sched/sched_switch/enable
cat /proc/version | cat | cat $(echo -) > /dev/null
echo 0 > $T/events/sched/sched_process_fork/enable
echo 0 > $T/events/sched/sched_switch/enable
grep -n "sched_process_fork: comm=sh pid=$$ child_comm=cat " $T/trace > /tmp/forks
first=$(sed -n "1s/.* child_pid=//p" /tmp/forks)
third=$(sed -n "3s/:.*//p" /tmp/forks)
run=$(grep -n "sched_switch: .* next_comm=cat next_pid=$first " $T/trace | head -n 1 | cut -d: -f1)
[ -n "$third" ] && [ -n "$run" ] && [ "$run" -gt "$third" ] && r=yes || r="no (fork of the third at line $third, the first runs at $run)"
is "a pipeline's stages all exist before the first runs" yes "$r"
