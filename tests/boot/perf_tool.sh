# The perf tool in the guest (user/perf): perf stat's exact counts per task
# (from the workload's exec, children included) and system-wide, perf
# record's perf.data with the kernel's tracing data section, the guest's
# perf script over it, usage errors, and trace-dump --file refusing what
# is not there. The host-side readers (Linux's perf, spoor report) are
# checked by tests/unit/report_perfdata.c.
# Under --icount the cpu-clock samples count the workload's instructions, so
# a loaded host cannot thin them out (a full run here once got 3 of the 5).
# spoor-exec: --smp 4 --timeout 120 --icount
. /spoor/lib/tap.sh
echo 1..19
cd /tmp

# hello makes exactly 5 system calls after its exec (arch_prctl, set_tid_address, ioctl, writev, exit_group).
perf stat -e raw_syscalls:sys_enter -- hello > /dev/null 2> stat.txt
is "perf stat: the workload's status" 0 $?
is "perf stat: raw_syscalls:sys_enter of hello" 5 "$(grep raw_syscalls:sys_enter stat.txt | sed 's/^ *//; s/ .*//')"
grep -q "Performance counter stats for 'hello':" stat.txt
result $? "perf stat: the header names the command"
grep -q 'seconds time elapsed' stat.txt
result $? "perf stat: elapsed time"

# inherit: forkloop's 7 children are counted, not perf's own fork.
perf stat -e sched:sched_process_fork -- forkloop 7 > /dev/null 2> stat.txt
is "perf stat: forks of forkloop 7, inherited" 7 "$(grep sched_process_fork stat.txt | sed 's/^ *//; s/ .*//')"
# Each child's own exit is counted before its events fold into forkloop's (Linux: 8).
perf stat -e sched:sched_process_exit -- forkloop 7 > /dev/null 2> stat.txt
is "perf stat: exits of forkloop 7 and its 7 children" 8 "$(grep sched_process_exit stat.txt | sed 's/^ *//; s/ .*//')"

perf stat -a -e sched:sched_process_fork,task-clock -- forkloop 3 > /dev/null 2> stat.txt
grep -q "for 'system wide'" stat.txt
result $? "perf stat -a: system wide"
n=$(grep sched_process_fork stat.txt | sed 's/^ *//; s/ .*//')
check "perf stat -a: at least forkloop's 3 forks (got $n)" [ "$n" -ge 3 ]
grep -q 'msec task-clock' stat.txt
result $? "perf stat -a: task-clock in msec"

perf stat -e sched:no_such_event -- hello > /dev/null 2> err.txt
is "perf stat: unknown event is a usage error" 129 $?
grep -q "unknown event" err.txt
result $? "perf stat: unknown event is named"

# The tracing data is the trace.dat header blocks with version 0.6.
head -c 14 /sys/kernel/debug/tracing_data | grep -q 'tracing0.6'
result $? "tracing_data starts with the magic and version 0.6"

perf record -e sched:sched_process_fork -o fork.data -- forkloop 5 > /dev/null 2> rec.txt
is "perf record: the workload's status" 0 $?
grep -q 'fork.data (5 samples)' rec.txt
result $? "perf record: 5 samples of forkloop 5's forks ($(cat rec.txt))"
is "perf script: one line per fork, named" 5 "$(perf script -i fork.data | grep -c 'forkloop .*sched:sched_process_fork: parent_comm=forkloop')"

# cpu-clock samples from its timer, printed as perf script prints a counter's samples.
perf record -e cpu-clock -c 100000 -o clock.data -- syscall_bench 3 getpid > /dev/null 2> rec.txt
is "perf record -e cpu-clock: the workload's status" 0 $?
n=$(sed -n 's/.*clock.data (\([0-9]*\) samples).*/\1/p' rec.txt)
check "perf record -e cpu-clock: samples every 100 us of syscall_bench (got $n)" [ "${n:-0}" -ge 5 ]
is "perf script: period, cpu-clock and ip for each" "$n" "$(perf script -i clock.data | grep -cE '^ +syscall_bench +[0-9]+ \[[0-9]{3}\] +[0-9]+\.[0-9]{6}: +100000 cpu-clock:  +[0-9a-f]+$')"

trace-dump --file /tmp/no_such_file > /dev/null 2>&1
is "trace-dump --file of a missing file fails" 1 $?
