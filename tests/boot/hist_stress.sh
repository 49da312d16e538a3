# Four CPUs updating histograms at once: Hits must equal an independent
# count (the same events recorded in the ring buffer through the same
# filter), across CPUs, and a full table must account for every event as
# either a hit or a drop.
# spoor-exec: --smp 4
. /spoor/lib/tap.sh
total() {	# total HIST-FILE WHAT N: the N-th histogram's Totals line, as a number
	grep "^    $2: " "$1" | sed -n "$3p" | sed 's/[^0-9]//g'
}
echo 1..6
cd /sys/kernel/tracing
W=events/sched/sched_waking
F='common_comm ~ "pingpong*"'

echo "hist:keys=common_cpu if $F" >> $W/trigger &&
	echo "hist:keys=common_timestamp:size=128 if $F" >> $W/trigger &&
	echo "$F" > $W/filter && echo 1 > $W/enable && echo > trace
result $? "two histograms and the recorded event, all filtered to the workload"
pingpong 4 2000
echo 0 > $W/enable
hits=$(total $W/hist Hits 1) cpus=$(total $W/hist Entries 1)
hits2=$(total $W/hist Hits 2) drops2=$(total $W/hist Dropped 2) entries2=$(total $W/hist Entries 2)
events=$(grep -c ' sched_waking: ' trace)
test "$events" -ge 8000
result $? "the workload woke tasks thousands of times ($events recorded)"
test "$hits" = "$events"
result $? "per-CPU histogram: Hits = recorded events ($hits)"
test "$cpus" -ge 2
result $? "updated from $cpus CPUs"
test "$entries2" = 128 && test $((hits2 + drops2)) = "$events"
result $? "full table: 128 entries, Hits + Dropped = recorded events ($hits2 + $drops2)"
echo "!hist:keys=common_cpu if $F" >> $W/trigger && echo "!hist:keys=common_timestamp:size=128 if $F" >> $W/trigger &&
	echo 0 > $W/filter && grep -q '^# Available triggers:' $W/trigger
result $? "removed"
