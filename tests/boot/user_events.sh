# user_events from ring 3 (user/ue_check): enable bits at every bit of 4- and
# 8-byte words, a page never touched, fork, the first ABI's status page,
# Linux's errors; dynamic_events u:/!u: lines, the format file, trace text,
# user_events_status, a hist trigger fed by 4 writers on 4 CPUs whose Hits
# equal what they wrote, EBUSY for an event in use, a writer killed mid-run.
# spoor-exec: --smp 4 --timeout 300
. /spoor/lib/tap.sh
T=/sys/kernel/tracing
N=${UE_WRITES:-1000000}
echo 1..46

ue_check abi > /tmp/abi.out
st=$?
while read -r verdict rest; do
	if [ "$verdict" = pass ]; then ok "ue_check: $rest"; else not_ok "ue_check: $rest"; fi
done < /tmp/abi.out
is "ue_check abi: exit status" 0 $st

echo 'u:ue_w u32 a; u64 b; __data_loc char[] s' >> $T/dynamic_events
is "dynamic_events lists u:ue_w" "u:ue_w u32 a; u64 b; __data_loc char[] s" "$(grep ue_w $T/dynamic_events)"
is "print fmt" 'print fmt: "a=%u b=%llu s=%s", REC->a, REC->b, __get_str(s)' "$(grep 'print fmt' $T/events/user_events/ue_w/format)"
is "format: s" '	field:__data_loc char[] s;	offset:20;	size:4;	signed:1;' "$(grep 'field:__data_loc' $T/events/user_events/ue_w/format)"

echo 1 > $T/events/user_events/ue_w/enable
echo > $T/trace
ue_check write 1 > /dev/null
check "trace text" grep -q 'ue_w: a=0x[0-9a-f]* ([0-9]*) b=0x0 (0) s=ue$' $T/trace
is "status: used by ftrace" "ue_w # Used by ftrace" "$(grep '^ue_w' $T/user_events_status)"
echo 0 > $T/events/user_events/ue_w/enable

# 4 writers on 4 CPUs into one histogram: Hits must be what they wrote.
echo 'hist:keys=common_pid:vals=hitcount' > $T/events/user_events/ue_w/trigger
for i in 1 2 3 4; do ue_check write $N > /tmp/w$i & done
wait
sum=0
for i in 1 2 3 4; do sum=$((sum + $(cat /tmp/w$i))); done
is "4 writers wrote everything" $((4 * N)) $sum
is "hist Hits = writes" "    Hits: $sum" "$(grep 'Hits:' $T/events/user_events/ue_w/hist)"
is "hist: 4 keys" "    Entries: 4" "$(grep 'Entries:' $T/events/user_events/ue_w/hist)"

echo '!u:ue_w u32 a; u64 b; __data_loc char[] s' >> $T/dynamic_events 2> /tmp/err
is "!u: of an event with a hist trigger: EBUSY" "echo: write error: Device or resource busy" "$(cat /tmp/err)"
echo '!hist:keys=common_pid:vals=hitcount' > $T/events/user_events/ue_w/trigger

# a writer killed in the middle leaves nothing behind
echo 1 > $T/events/user_events/ue_w/enable
ue_check write 100000000 > /dev/null &
sleep 0.3
kill -9 $!
wait
echo 0 > $T/events/user_events/ue_w/enable
echo '!u:ue_w u32 a; u64 b' >> $T/dynamic_events 2> /tmp/err
is "!u: with other fields: ENOENT" "echo: write error: No such file or directory" "$(cat /tmp/err)"
echo '!u:ue_w u32 a; u64 b; __data_loc char[] s' >> $T/dynamic_events
result $? "!u: deletes after the killed writer"
check "events/user_events/ue_w gone" test ! -e $T/events/user_events/ue_w
