# The trigger file as Linux's: `echo X > trigger` (O_TRUNC) drops only
# what has an unreg_all (hist, enable_hist, disable_hist) and keeps a hist
# whose variables another uses; long triggers read back whole; the README
# has the strings the ftrace selftests' "requires:" lines grep for;
# trace_marker writes run events/ftrace/print's triggers.
. /spoor/lib/tap.sh
echo 1..23
cd /sys/kernel/tracing
SW=events/sched/sched_switch/trigger
WK=events/sched/sched_waking/trigger
PR=events/ftrace/print

# O_TRUNC keeps traceon, stacktrace, enable_event; replaces hist, enable_hist.
echo 'traceon' > $SW &&
	echo 'stacktrace:1 if prev_pid == 999999' >> $SW &&
	echo 'enable_event:sched:sched_wakeup:1 if prev_pid == 999999' >> $SW &&
	echo 'enable_hist:sched:sched_waking if prev_pid == 999999' >> $SW &&
	echo 'hist:keys=prev_pid' >> $SW &&
	echo 'hist:keys=next_pid' > $SW
result $? "triggers added with >> and >"
check "> kept traceon" grep -q '^traceon:unlimited$' $SW
check "> kept stacktrace" grep -q '^stacktrace:count=1 if prev_pid == 999999$' $SW
check "> kept enable_event" grep -q '^enable_event:sched:sched_wakeup:count=1 if' $SW
check "> dropped enable_hist" test "$(grep -c enable_hist $SW)" = 0
check "> replaced the hist trigger" test "$(grep -c '^hist:' $SW)-$(grep -c 'keys=next_pid' $SW)" = 1-1
echo 'traceon' > $SW 2>/dev/null
check "a second traceon written with > is EEXIST" test $? != 0
check "the sched_wakeup target stays soft-enabled" grep -q '^0\*$' events/sched/sched_wakeup/enable
echo '!hist:keys=next_pid' >> $SW && echo '!traceon' >> $SW &&
	echo '!stacktrace:1 if prev_pid == 999999' >> $SW &&
	echo '!enable_event:sched:sched_wakeup:1 if prev_pid == 999999' >> $SW
check "each removed by name empties the file" grep -q '^# Available triggers' $SW
check "the target leaves soft mode" grep -q '^0$' events/sched/sched_wakeup/enable

# A hist whose variable another hist uses survives >; the new one joins it.
echo 'hist:keys=pid:ts0=common_timestamp.usecs' > $WK &&
	echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0' >> $SW &&
	echo 'hist:keys=common_pid' > $WK
result $? "> on an event with a referenced variable"
check "the referenced hist stays" grep -q '^hist:keys=pid:vals=hitcount:ts0=common_timestamp.usecs' $WK
check "the new hist was added" grep -q '^hist:keys=common_pid:' $WK
echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0' >> $SW
echo > $WK
check "unreferenced, > drops both" grep -q '^# Available triggers' $WK

# A trigger that prints longer than the old 512-byte line buffer reads
# back whole (written in under 512 bytes: one write of the shell's echo).
f='prev_pid != 1'
i=2
while [ ${#f} -lt 440 ]; do f="$f && prev_pid != $i"; i=$((i + 1)); done
want="hist:keys=prev_pid,next_pid:vals=hitcount,prev_prio:sort=hitcount:size=2048 if $f [active]"
echo "hist:keys=prev_pid,next_pid:vals=prev_prio if $f" > $SW
is "a ${#want}-byte hist trigger reads back whole" "$want" "$(cat $SW)"
echo > $SW

# README strings the selftests require (they grep -F; a case pattern is
# as literal).
readme=$(cat README)
for s in '<var1>=<field|var_ref|numeric_literal>' 'onchange(var)' 'snapshot()' \
	'trace(<synthetic_event>' "' >> synthetic_events" "long[] stack' >> synthetic_events" \
	"can be any field, or the special string 'common_stacktrace'" 's:[synthetic/]'; do
	case $readme in *"$s"*) ;; *) missing="$missing[$s]" ;; esac
done
is "README has the selftests' strings" "" "$missing"

# trace_marker runs ftrace:print's triggers; the record still reaches the buffer.
echo > trace
echo 'hist:keys=common_pid' > $PR/trigger && echo 'hist:keys=buf' >> $PR/trigger
result $? "hist triggers on ftrace:print"
echo -n hello > trace_marker
echo -n hello > trace_marker
check "the hist on common_pid counted both writes" grep -q '^{ common_pid: *[0-9]* } hitcount: *2$' $PR/hist
check "buf keys without the newline trace_marker adds" grep -q '^{ buf: hello *} hitcount: *2$' $PR/hist
check "the records are in the buffer, newline added" test "$(grep -c 'tracing_mark_write: hello$' trace)" = 2
echo > $PR/trigger
echo 'hist:keys=common_pid if buf == "start"' > $PR/trigger
echo -n start > trace_marker
echo -n end > trace_marker
check "a trigger filter on buf sees the text as written" grep -q '^{ common_pid: *[0-9]* } hitcount: *1$' $PR/hist
echo > $PR/trigger
echo 'traceoff' > $PR/trigger
echo stop > trace_marker
check "a traceoff trigger on ftrace:print stops tracing" grep -q '^0$' tracing_on
echo '!traceoff' >> $PR/trigger
echo 1 > tracing_on
check "ftrace:print's trigger file is empty again" grep -q '^# Available triggers' $PR/trigger
