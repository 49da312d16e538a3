# /proc/PID of ring-3 processes in Linux 6.12's layouts: maps (checked by
# /bin/maps from inside and by its column layout), status and stat of a
# sleeping /bin/napper of three threads, cmdline, environ, the exe link,
# task/, and what a kernel thread shows; /bin/procself compares
# /proc/self with what it knows of itself (argv, environ, where main and
# its stack are). The layouts were compared with Linux 6.12's through
# ../shared/tools/linux-ref (the status field list below is Linux's).
. /spoor/lib/tap.sh
echo 1..33

maps > /tmp/maps.out
is "maps: status" 0 $?
is "maps: text and stack found" "text ok, stack ok" "$(tail -n 1 /tmp/maps.out | sed 's/^maps: [0-9]* lines, //')"
sed '$d' /tmp/maps.out > /tmp/maps.txt
# start-end perms offset dev inode, then the name padded to column 74 (Linux's seq_pad).
H='^[0-9a-f]{8,}-[0-9a-f]{8,} [r-][w-][x-][ps] [0-9a-f]{8} [0-9a-f]{2}:[0-9a-f]{2} [0-9]+ '
is "maps: every line has Linux's header" 0 "$(grep -Evc "$H" /tmp/maps.txt)"
grep -E "$H *[^ ]" /tmp/maps.txt > /tmp/maps.named
is "maps: names start in column 74" 0 "$(grep -Evc '^.{72} [^ ]' /tmp/maps.named)"
is "maps: the executable's first mapping" "r--p 00000000 00:01 /bin/maps" \
	"$(head -n 1 /tmp/maps.txt | awk '{ print $2, $3, $4, $6 }')"
is "maps: a [heap] and a [stack]" "1 1" \
	"$(grep -c ' \[stack\]$' /tmp/maps.txt) $(grep -c ' rw-p .* \[heap\]$' /tmp/maps.txt)"

napper 30 3 &
pid=$!
sleep 1
s=/proc/$pid/status
is "status: Linux 6.12's fields in order" \
	"Name Umask State Tgid Ngid Pid PPid TracerPid Uid Gid FDSize Groups NStgid NSpid NSpgid NSsid Kthread VmPeak VmSize VmLck VmPin VmHWM VmRSS RssAnon RssFile RssShmem VmData VmStk VmExe VmLib VmPTE VmSwap HugetlbPages CoreDumping THP_enabled untag_mask Threads SigQ SigPnd ShdPnd SigBlk SigIgn SigCgt CapInh CapPrm CapEff CapBnd CapAmb NoNewPrivs Seccomp Seccomp_filters Speculation_Store_Bypass SpeculationIndirectBranch Cpus_allowed Cpus_allowed_list Mems_allowed Mems_allowed_list voluntary_ctxt_switches nonvoluntary_ctxt_switches x86_Thread_features x86_Thread_features_locked " \
	"$(cut -d: -f1 $s | tr '\n' ' ')"
is "status: name, state, ids" "napper S $pid $pid $$ 3 " \
	"$(grep -E '^(Name|State|Tgid|Pid|PPid|Threads):' $s | cut -f2 | cut -d' ' -f1 | tr '\n' ' ')"
is "status: the stack is RLIMIT_STACK's 8 MiB" "VmStk:	    8192 kB" "$(grep ^VmStk: $s)"
vm() { sed -n "s/^$1:[^0-9]*\([0-9]*\) kB/\1/p" $s; }
[ "$(vm VmExe)" -gt 0 ] && [ "$(vm VmRSS)" -gt 0 ] && [ "$(vm VmSize)" -gt "$(vm VmStk)" ]
result $? "status: VmExe, VmRSS and VmSize from the address space"
is "status: Cpus_allowed_list covers every CPU" "0-$(($(nproc) - 1))" "$(sed -n 's/^Cpus_allowed_list:\t//p' $s)"

set -- $(cat /proc/$pid/stat)
is "stat: 52 fields" 52 $#
is "stat: pid comm state ppid" "$pid (napper) S $$" "$1 $2 $3 $4"
is "stat: pgrp, session and num_threads" "3" "$([ "$5" -gt 0 ] && [ "$6" -gt 0 ] && echo ${20})"
is "stat: startcode < endcode < startstack" yes "$([ "${26}" -lt "${27}" ] && [ "${27}" -lt "${28}" ] && echo yes)"
# wchan: Linux shows a sleeping task's 1 only for a thread, or a group of one.
is "stat: exit_signal SIGCHLD, no wchan for a group of three" "17 0" "${38} ${35}"
is "stat: vsize matches VmSize" "$(($(vm VmSize) * 1024))" "${23}"

is "cmdline: argv NUL-separated" "napper|30|3|" "$(tr '\0' '|' < /proc/$pid/cmdline)"
is "environ: holds PATH" 1 "$(tr '\0' '\n' < /proc/$pid/environ | grep -c '^PATH=')"
is "exe: links to the program" /bin/napper "$(readlink /proc/$pid/exe)"
is "task: three threads" 3 "$(ls /proc/$pid/task | wc -l)"
tg=
for t in $(ls /proc/$pid/task); do
	tg="$tg$(sed -n 's/^Tgid:\t//p' /proc/$pid/task/$t/status) "
done
is "task/TID/status: every thread in the group" "$pid $pid $pid " "$tg"
is "/proc lists the group once" 1 "$(ls /proc | grep -c "^$pid\$")"
is "task/TID/stat: the leader, sleeping (wchan 1)" "$pid (napper) 1" "$(cut -d' ' -f1,2,35 /proc/$pid/task/$pid/stat)"
is "maps of another process: its executable and stack" "/bin/napper [stack]" \
	"$(head -n 1 /proc/$pid/maps | awk '{ print $6 }') $(grep -o '\[stack\]' /proc/$pid/maps)"
# SysRq t (Linux's Show State): every task, and where a sleeper sleeps
echo t > /proc/sysrq-trigger
dmesg > /tmp/st.out
is "sysrq t: the napper leader's line, as Linux's" 1 \
	"$(grep -c "task:napper  *state:S stack:0  *pid:$pid  *tgid:$pid  *ppid:$$ " /tmp/st.out)"
is "sysrq t: the shell is running (it wrote the key)" 1 "$(grep -A1 "task:sh  *state:R .*pid:$$ " /tmp/st.out | grep -c 'running on CPU')"
grep -A4 "task:napper .*pid:$pid " /tmp/st.out > /tmp/st1.out
is "sysrq t: a sleeper's call trace runs from schedule to its system call" "1 1 1" \
	"$(grep -c ' <TASK>' /tmp/st1.out) $(grep -c ' schedule+0x' /tmp/st1.out) $(grep -A12 "task:napper .*pid:$pid " /tmp/st.out | grep -c 'entry_SYSCALL_64+0x')"
# SysRq l: every other CPU, asked by an NMI, says where it is
dmesg -c > /dev/null
echo l > /proc/sysrq-trigger
dmesg > /tmp/sl.out
is "sysrq l: a backtrace from each of the 3 other CPUs, each with its run queue" "3 3" \
	"$(grep -c 'NMI backtrace for cpu [0-3]$' /tmp/sl.out) $(grep -c 'CPU [0-3] rq: curr .*, nr_running [0-9]*, need_resched [01], switches [0-9]*$' /tmp/sl.out)"
kill $pid
wait $pid 2>/dev/null
cat /proc/$pid/status > /dev/null 2>&1
is "a reaped process's directory is gone" 1 $?

is "kernel thread: empty maps and cmdline, Kthread 1, no Vm lines" "0 0 1 0" \
	"$(wc -c < /proc/2/maps) $(wc -c < /proc/2/cmdline) $(sed -n 's/^Kthread:\t//p' /proc/2/status) $(grep -c ^Vm /proc/2/status)"
readlink /proc/2/exe > /dev/null 2>&1
is "kernel thread: no exe" 1 $?

procself a "b c" > /tmp/ps.out
is "procself: status (the number of bad checks)" 0 $?
