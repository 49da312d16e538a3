# Sleeping mutexes (kernel/locking/mutex.c) under contention on 4 CPUs:
# four jobs at once reconfigure tracing (trace_types_lock, ftrace_lock and
# kprobe_mutex: instances made and removed, function filters and tracers
# switched, kprobes added and removed), read seq files and write 2,048-byte
# lines to the console (console_lock: each write reaches the port whole;
# before, writers took turns every 256 bytes and the lines came out mixed).
# Kprobes on the slow paths count the waits.
# spoor-exec: --timeout 300
# stdout: ^A{2048}$
# stdout: ^B{2048}$
# stdout: ^C{2048}$
# stdout: ^D{2048}$
# stdout: !(A{16}[BCD]|B{16}[ACD]|C{16}[ABD]|D{16}[ABC])
. /spoor/lib/tap.sh
echo 1..9
cd /sys/kernel/tracing
echo 'p:mutex_wait __mutex_lock_slowpath' > kprobe_events
echo 'p:mutex_handoff __mutex_unlock_slowpath' >> kprobe_events
echo 1 > events/kprobes/enable

# hammer N: a job's rounds of configuration in its own instance and a probe of its own.
hammer() {
	i=0
	while [ $i -lt 10 ]; do
		mkdir instances/mx$1 || return 1
		echo 'vfs_read' > instances/mx$1/set_ftrace_filter || return 1
		echo function > instances/mx$1/current_tracer || return 1
		echo 1 > instances/mx$1/events/sched/sched_switch/enable || return 1
		echo "p:job$1 vfs_write" >> kprobe_events || return 1
		cat available_tracers instances/mx$1/set_ftrace_filter /proc/version > /dev/null || return 1
		echo "-:job$1" >> kprobe_events || return 1
		echo nop > instances/mx$1/current_tracer || return 1
		rmdir instances/mx$1 || return 1
		i=$((i + 1))
	done
	echo ok > /tmp/hammer$1
}
for n in 1 2 3 4; do
	hammer $n &
done
wait
for n in 1 2 3 4; do
	is "job $n did its 10 rounds" ok "$(cat /tmp/hammer$n 2>/dev/null)"
done
is "every instance is gone" "" "$(ls instances)"
is "only the two counting probes are left" "2" "$(grep -c . kprobe_events)"

# Four writers of 2,048-byte lines, 20 each (the host checks stdout).
s=A
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	s=$s$s
done
for l in $s $(echo $s | tr A B) $(echo $s | tr A C) $(echo $s | tr A D); do
	(for i in $(seq 20); do echo $l; done) &
done
wait

echo 0 > events/kprobes/enable
waits=$(awk '$1 == "mutex_wait" { print $2 }' kprobe_profile)
handoffs=$(awk '$1 == "mutex_handoff" { print $2 }' kprobe_profile)
check "tasks waited for a mutex ($waits times)" [ "${waits:-0}" -gt 0 ]
check "and were handed it ($handoffs times)" [ "${handoffs:-0}" -gt 0 ]
is "no unlock by a task that did not hold the lock, nothing slept in atomic context" 0 \
	"$(dmesg | grep -c -e 'does not hold the mutex' -e 'scheduling while atomic')"
echo > kprobe_events
