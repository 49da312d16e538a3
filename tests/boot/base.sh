# The kernel base on 4 CPUs, booted directly (qemu -kernel, multiboot1):
# the boot self-checks (selftest=base) print TAP through printk; this
# script then checks from the shell what a user can see.
# spoor-exec: --smp 4 --append selftest=base
# expect: \] ok 1 - all 4 CPUs online \(mask 0xf\)$
# expect: \] ok 2 - threads ran on every CPU
# expect: \] ok 3 - context switches on every CPU$
# expect: \] ok 4 - tick preemption
# expect: \] ok 5 - self-NMI arrived on CPU [0-9]+$
# expect: \] ok 6 - NMI to CPU 2 arrived$
# expect: \] ok 7 - timer ran in softirq context
# expect: \] ok 8 - wake-up from hardirq context
# expect: \] ok 9 - msleep\(20\) slept
# expect: \] ok 10 - exit code 7 reaped, then -ECHILD$
# expect: \] ok 11 - SIGINT cut a 10 s sleep short
# expect: \] ok 12 - orphan [0-9]+ adopted by init and reaped at exit$
# expect: \] ok 13 - ping-pong and kmalloc workloads
# expect: selftest base: 0 of 13 checks failed$
# expect: ^\[ *[0-9]+\.[0-9]{6}\] Spoor ready in [0-9]+ us$
. /spoor/lib/tap.sh
echo 1..4
is "nproc says 4" 4 "$(nproc)"
# Every CPU takes local timer interrupts.
loc=$(grep '^LOC:' /proc/interrupts)
set -- $loc
if [ $# -ge 5 ] && [ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -gt 0 ] && [ "$5" -gt 0 ]; then
	ok "timer ticks on all 4 CPUs"
else
	not_ok "timer ticks: $loc"
fi
# One swapper-like idle context per CPU is not listed; ksoftirqd is.
is "a ksoftirqd thread per CPU" 4 "$(ps | grep -c 'ksoftirqd/')"
check "/proc/meminfo" grep -q '^MemTotal:' /proc/meminfo
