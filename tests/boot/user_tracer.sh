# Tracing seen from ring 3 and ring 3 seen by tracing: a program drives
# tracefs itself (enable, trace_pipe with O_NONBLOCK), and the system calls
# of a program show in raw_syscalls with its name and pid.
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
echo 1..7

tracer > /tmp/tr.out
is "tracer: status" 0 $?
is "tracer: its child's sched_process_fork from trace_pipe" 1 \
	"$(grep -cE 'sched_process_fork: comm=tracer pid=[0-9]+ child_comm=tracer child_pid=[0-9]+$' /tmp/tr.out)"
is "tracer: the event is off again" 0 "$(cat $T/events/sched/sched_process_fork/enable)"
tracer sched/sched_process_exit > /tmp/tr.out
is "tracer sched/sched_process_exit: status" 0 $?
is "tracer: its child's sched_process_exit" 1 \
	"$(grep -cE 'sched_process_exit: comm=tracer pid=[0-9]+ prio=120 group_dead=true$' /tmp/tr.out)"

echo > $T/trace
echo 1 > $T/events/raw_syscalls/enable
hello > /dev/null
echo 0 > $T/events/raw_syscalls/enable
# exit_group(0) is hello's last system call; 231 is its x86_64 number.
is "hello's exit_group(0) in raw_syscalls:sys_enter" 1 \
	"$(grep -cE '^ *hello-[0-9]+ +\[[0-9]+\] .* sys_enter: NR 231 \(0,' $T/trace)"
is "and a write(2)-family call to stdout before it" 1 \
	"$(grep -cE '^ *hello-[0-9]+ +\[[0-9]+\] .* sys_enter: NR (1|20) \(1,' $T/trace)"
