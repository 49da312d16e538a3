# spoor-exec: --smp 2 --append trace_event=sched:sched_switch,irq,!irq:softirq_exit --append trace_buf_size=64K
# Tracing's boot parameters, as Linux takes them: trace_event= turns events
# on before init runs (set_event's tokens, comma-separated), trace_buf_size=
# sizes the per-CPU buffers in bytes. Also /proc/kallsyms in Linux's format.
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
echo 1..10
cd $T
is "trace_buf_size=64K: buffer_size_kb (17 pages of 4080 bytes, as Linux shows it)" 67 "$(cat buffer_size_kb)"
is "per-CPU too" 67 "$(cat per_cpu/cpu1/buffer_size_kb)"
is "sched_switch on from boot" 1 "$(cat events/sched/sched_switch/enable)"
is "a whole system by name" 1 "$(cat events/irq/irq_handler_entry/enable)"
is "a ! token turns one off again" 0 "$(cat events/irq/softirq_exit/enable)"
is "nothing else on" "" "$(grep -v -e '^sched:sched_switch$' -e '^irq:' set_event)"
check "events recorded since boot (init's first switch)" grep -q 'sched_switch: prev_comm=' trace
# without tp_printk (tests/boot/tp_printk.sh) its static key costs a NOP per event
is "tp_printk off: its sites are NOPs" "" "$(grep ' tracepoint_printk_key+' /sys/kernel/debug/static_keys | grep -v ' nop ')"
# /proc/kallsyms: "ADDRESS TYPE NAME", sorted, the kernel's own functions as T.
line=$(grep ' schedule$' /proc/kallsyms)
check "/proc/kallsyms has schedule as a text symbol ($line)" \
	sh -c "echo '$line' | grep -Eq '^ffffffff8[0-9a-f]{7} T schedule$'"
is "sorted by address" "$(cut -d' ' -f1 /proc/kallsyms | sort | head -n 3)" "$(cut -d' ' -f1 /proc/kallsyms | head -n 3)"
