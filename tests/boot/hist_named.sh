# name= histograms: one table shared by sched_waking and sched_wakeup
# (same fields), counted against each event's own histogram, paused and
# cleared through either event, and the compatibility check.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
hits() {	# hits HIST-FILE [N]: the N-th histogram's Hits (default the first)
	grep '^    Hits: ' "$1" | sed -n "${2:-1}p" | sed 's/[^0-9]//g'
}
echo 1..9
cd /sys/kernel/tracing
A=events/sched/sched_waking
B=events/sched/sched_wakeup
F='if common_comm ~ "pingpong*"'

echo "hist:name=wake:keys=pid $F" >> $A/trigger && echo "hist:name=wake:keys=pid $F" >> $B/trigger &&
	echo "hist:keys=pid $F" >> $A/trigger && echo "hist:keys=pid $F" >> $B/trigger
result $? "the named histogram on two events, and a plain one on each"
pingpong 2 300
a=$(hits $A/hist 2) b=$(hits $B/hist 2) s=$(hits $A/hist 1)
test "$a" -gt 0 && test "$b" -gt 0 && test "$s" -eq $((a + b))
result $? "shared Hits ($s) = sched_waking ($a) + sched_wakeup ($b)"
test "$(hits $B/hist 1)" = "$s" &&
	test "$(grep '^{' $A/hist | sed -n '/hitcount/p' | head -n 1)" = "$(grep '^{' $B/hist | head -n 1)"
result $? "both events show the same table"
test "$(grep '^# trigger info' $B/hist | head -n 1)" = "# trigger info: hist:name=wake:keys=pid:vals=hitcount:sort=hitcount:size=2048 $F [active]"
result $? "trigger info names it"

echo "hist:name=wake:keys=pid:pause $F" >> $B/trigger && grep -q 'name=wake.*\[paused\]$' $A/trigger
result $? "pausing it on one event pauses it on the other"
pingpong 1 50
test "$(hits $A/hist 1)" = "$s"
result $? "paused: no hits"
echo "hist:name=wake:keys=pid:clear $F" >> $A/trigger && test "$(hits $B/hist 1)" = 0 &&
	echo "hist:name=wake:keys=pid:cont $F" >> $A/trigger && grep -q 'name=wake.*\[active\]$' $B/trigger
result $? "cleared and continued through the other event"

echo "hist:name=wake:keys=pid,prio" >> $A/trigger 2>/dev/null
test $? -ne 0 && grep -q "error: Named hist trigger doesn't match existing named trigger" error_log
result $? "an incompatible trigger of the same name is refused"
echo "!hist:name=wake:keys=pid $F" >> $A/trigger && echo "!hist:keys=pid $F" >> $A/trigger &&
	echo "!hist:name=wake:keys=pid $F" >> $B/trigger && echo "!hist:keys=pid $F" >> $B/trigger &&
	grep -q '^# Available triggers:' $A/trigger && grep -q '^# Available triggers:' $B/trigger
result $? "removed from both"
