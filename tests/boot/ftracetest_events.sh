# Linux 6.12's ftracetest, unmodified (tests/boot/lib/ftracetest.sh), on its
# event side: test.d/00basic, event, trigger, dynevent, filter and instances
# (ftracetest_tracers.sh runs the rest). Its totals are pinned here: when
# Spoor gains a feature, they move; update them with the change.
# Known to fail now and then (a failure moves one case from pass to fail):
# multihist, which diffs the two files of one named histogram while the fork
# of its own `| wc -l` can land between the two reads, as it can on Linux.
# order: first
# spoor-exec: --smp 2 --timeout 600 --file build/linux-selftests/tools/testing/selftests/ftrace:/ftrace --file tests/boot/lib/ftracetest.sh:/spoor/lib/ftracetest.sh
. /spoor/lib/tap.sh
. /spoor/lib/ftracetest.sh
echo 1..4
ftracetest_run 90 "pass:84 fail:0 xfail:1 skip:3 error:2" \
	"event trigger - test multiple histogram triggers" \
	test.d/00basic test.d/dynevent test.d/event test.d/filter test.d/instances test.d/trigger
