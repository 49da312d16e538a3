# Linux 6.12's ftracetest, unmodified (tests/boot/lib/ftracetest.sh), on its
# tracer side: test.d/ftrace, kprobe, preemptirq, tracer, direct and selftest
# (ftracetest_events.sh runs the rest). Its totals are pinned here:
# when Spoor gains a feature, they move; update them with the change.
# Known to fail now and then (each failure moves one case from pass to fail):
# function traceon/off triggers, and the preemptirqsoff tracer, whose 500 ms
# section can come out longer than 600 ms when the host stalls a TCG vCPU;
# and the function pid notrace filters, whose `grep $PID` counts any trace
# line holding the shell's pid as digits, a timestamp's too (49.249213 holds
# 492: a clean-clone run counted one such line), on Linux as well.
# order: first
# spoor-exec: --smp 2 --timeout 600 --file build/linux-selftests/tools/testing/selftests/ftrace:/ftrace --file tests/boot/lib/ftracetest.sh:/spoor/lib/ftracetest.sh
. /spoor/lib/tap.sh
. /spoor/lib/ftracetest.sh
echo 1..4
ftracetest_run 57 "pass:47 fail:0 xfail:0 skip:2 error:8" \
	"ftrace - test for function traceon/off triggers
test for the preemptirqsoff tracer
ftrace - function pid notrace filters" \
	test.d/direct test.d/ftrace test.d/kprobe test.d/preemptirq test.d/selftest \
	test.d/tracer
