# Every event: its format file equals Linux 6.18's (tests/unit/trace_ref, the
# ID line aside), and enabling it under load yields well-formed trace lines.
# spoor-exec: --file tests/unit/trace_ref/ftrace/print/format:/tmp/ref/print --file tests/unit/trace_ref/ipi/ipi_send_cpu/format:/tmp/ref/ipi_send_cpu --file tests/unit/trace_ref/irq/irq_handler_entry/format:/tmp/ref/irq_handler_entry --file tests/unit/trace_ref/irq/irq_handler_exit/format:/tmp/ref/irq_handler_exit --file tests/unit/trace_ref/irq/softirq_entry/format:/tmp/ref/softirq_entry --file tests/unit/trace_ref/irq/softirq_exit/format:/tmp/ref/softirq_exit --file tests/unit/trace_ref/kmem/kfree/format:/tmp/ref/kfree --file tests/unit/trace_ref/kmem/kmalloc/format:/tmp/ref/kmalloc --file tests/unit/trace_ref/kmem/mm_page_alloc/format:/tmp/ref/mm_page_alloc --file tests/unit/trace_ref/kmem/mm_page_free/format:/tmp/ref/mm_page_free --file tests/unit/trace_ref/raw_syscalls/sys_enter/format:/tmp/ref/sys_enter --file tests/unit/trace_ref/raw_syscalls/sys_exit/format:/tmp/ref/sys_exit --file tests/unit/trace_ref/sched/sched_process_exit/format:/tmp/ref/sched_process_exit --file tests/unit/trace_ref/sched/sched_process_fork/format:/tmp/ref/sched_process_fork --file tests/unit/trace_ref/sched/sched_stat_runtime/format:/tmp/ref/sched_stat_runtime --file tests/unit/trace_ref/sched/sched_switch/format:/tmp/ref/sched_switch --file tests/unit/trace_ref/sched/sched_wakeup/format:/tmp/ref/sched_wakeup --file tests/unit/trace_ref/sched/sched_wakeup_new/format:/tmp/ref/sched_wakeup_new --file tests/unit/trace_ref/sched/sched_waking/format:/tmp/ref/sched_waking --file tests/unit/trace_ref/timer/hrtimer_expire_entry/format:/tmp/ref/hrtimer_expire_entry
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
echo 1..30
for ref in /tmp/ref/*; do
	e=${ref##*/}
	sys=$(grep ":$e\$" $T/available_events)
	grep -v '^ID:' $ref > /tmp/want
	grep -v '^ID:' $T/events/${sys%%:*}/$e/format > /tmp/got
	check "format of $e matches Linux" diff /tmp/want /tmp/got
done
# The id file and the format's ID line agree.
id=$(cat $T/events/sched/sched_switch/id)
check "sched_switch id $id in its format" grep -q "^ID: $id\$" $T/events/sched/sched_switch/format
# Every event of these systems under load: lines are "comm-pid [cpu] flags secs.usecs: name: ..."
echo > $T/trace
echo 'sched:* irq:* timer:* ipi:* kmem:*' > $T/set_event
i=0
while [ $i -lt 20 ]; do ls /proc > /dev/null; i=$((i + 1)); done
sleep 1
echo > $T/set_event
grep -v '^#' $T/trace > /tmp/lines
bad=$(grep -cvE '^ +[^ ].*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.ZzHhs][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: [a-z_]+: ' /tmp/lines)
check "every trace line is well formed ($bad bad of $(wc -l < /tmp/lines))" test "$bad" = 0
for e in sched_switch sched_waking sched_wakeup irq_handler_entry softirq_entry hrtimer_expire_entry kmalloc kfree; do
	check "$e recorded" grep -q " $e: " /tmp/lines
done
