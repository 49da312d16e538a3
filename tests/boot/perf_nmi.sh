# perf samples taken in NMI context next to task, softirq and hardirq
# context samples on the same CPUs at the same time (perf's per-context
# scratch buffers and recursion guards): while two CPU hogs run and a
# program sleeps under `perf record -a`, 300 rounds of NMIs hit every CPU
# (trace_selftest's nmi, whose handler fires nmi:nmi_handler in NMI
# context) among sched_switch and sys_enter samples. Every sample must
# decode as one of the three events, and each NMI must be one sample.
. /spoor/lib/tap.sh
echo 1..5
cd /tmp
cpuhog 2 2500 &
(sleep 1; echo nmi 300 > /sys/kernel/debug/trace_selftest; cat /sys/kernel/debug/trace_selftest > nmi.txt) &
perf record -e nmi:nmi_handler,sched:sched_switch,raw_syscalls:sys_enter -a -o nmi.data -- napper 2 2> rec.txt
is "perf record ran the workload" 0 $?
wait
set -- $(cat nmi.txt)
is "300 rounds on 4 CPUs sent and handled" "nmi: sent 1200 handled 1200" "$*"
perf script -i nmi.data > s.txt
is "perf script read the file" 0 $?
is "every sample decodes as one of the recorded events" 0 "$(grep -c -v -E ': +(nmi:nmi_handler|sched:sched_switch|raw_syscalls:sys_enter): ' s.txt)"
is "one nmi_handler sample per NMI" "$5" "$(grep -c 'nmi:nmi_handler: handler=' s.txt)"
