# spoor-exec: --smp 2 --append tp_printk
# tp_printk, as Linux's boot option: every record an event keeps is also
# printed through printk ("NAME: text", what `trace` shows after the
# context columns), behind a static key that only this option turns on;
# a filtered-out record or one only a trigger sees is not printed.
. /spoor/lib/tap.sh
T=/sys/kernel/tracing
echo 1..5
cd $T

sites=$(grep -c ' tracepoint_printk_key+' /sys/kernel/debug/static_keys)
check "the key has sites ($sites)" test "$sites" -gt 0
is "every site is a jump" "" "$(grep ' tracepoint_printk_key+' /sys/kernel/debug/static_keys | grep -v ' jmp ')"

echo 'filename ~ "*hello"' > events/sched/sched_process_exec/filter
echo 1 > events/sched/sched_process_exec/enable
hello > /dev/null &
pid=$!
wait
args a > /dev/null
echo 0 > events/sched/sched_process_exec/enable
is "the record printed, the filtered one not" "sched_process_exec: filename=/bin/hello pid=$pid old_pid=$pid" \
	"$(dmesg | grep -o 'sched_process_exec: .*')"
is "and still recorded" 1 "$(grep -c 'sched_process_exec: filename=/bin/hello' trace)"

# A hist trigger alone keeps nothing in the ring: nothing printed either.
echo 'hist:keys=common_pid' > events/sched/sched_process_exec/trigger
hello > /dev/null
echo '!hist:keys=common_pid' > events/sched/sched_process_exec/trigger
is "a trigger's hit is not printed" 1 "$(dmesg | grep -c 'sched_process_exec: ')"
