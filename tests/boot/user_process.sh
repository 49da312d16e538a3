# Processes, threads and signals inside ring-3 programs: fork and wait
# statuses, pthreads with a futex barrier on every CPU, signal delivery and
# sigreturn, malloc over brk and mmap.
. /spoor/lib/tap.sh
echo 1..23

forkwait > /tmp/fw.out
is "forkwait: status" 0 $?
is "forkwait: 8 exit codes and a kill" "forkwait: 9 children reaped, 0 bad" "$(tail -n 1 /tmp/fw.out)"
is "forkwait: the killed child is WIFSIGNALED by SIGKILL" "killed child: signal 9" "$(head -n 1 /tmp/fw.out)"
is "forkwait 40" "forkwait: 41 children reaped, 0 bad" "$(forkwait 40 | tail -n 1)"

threads > /tmp/t.out
is "threads: status" 0 $?
is "threads: 4 threads, counters exact" "threads: 4 threads, 3 rounds, atomic 240000, locked 240000, errors 0" "$(tail -n 1 /tmp/t.out)"
ncpu=$(nproc)
bad=0
while read -r word id label cpu; do
	[ "$word" = thread ] || continue
	[ "$cpu" -ge 0 ] && [ "$cpu" -lt "$ncpu" ] || bad=$((bad + 1))
done < /tmp/t.out
is "threads: getcpu gives a CPU below $ncpu" 0 $bad
is "threads 16" "threads: 16 threads, 3 rounds, atomic 960000, locked 960000, errors 0" "$(threads 16 | tail -n 1)"

signals > /tmp/s.out
is "signals: status (the number of failures)" 0 $?
for t in siginfo sigreturn raise blocked unblocked sigaltstack alarm+pause setitimer "fpu state" sigchld sa_restart "no restart"; do
	is "signals: $t" "$t: ok" "$(grep "^$t: " /tmp/s.out)"
done

malloc_stress > /tmp/m.out
is "malloc_stress: status" 0 $?
# The PRNG is fixed: the same blocks, the same contents as on Linux.
is "malloc_stress: contents intact" "malloc_stress: checksum f45fb0d28f740d60, errors 0" "$(tail -n 1 /tmp/m.out)"
