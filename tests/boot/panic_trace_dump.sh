# spoor-exec: --smp 2 --append ftrace_dump_on_oops
# ftrace_dump_on_oops: the oops that ends in a panic prints the trace on
# the console first, in Linux's frame, ending with what led up to it.
# spoor-exec-status: 125
# expect: ^\[ *[0-9]+\.[0-9]{6}\] Dumping ftrace buffer:$
# expect: ^\[ *[0-9]+\.[0-9]{6}\] ---------------------------------$
# expect: tracing_mark_write: last words before the crash$
# expect: Kernel panic - not syncing: Fatal exception
cd /sys/kernel/tracing
echo 'last words before the crash' > trace_marker
echo c > /proc/sysrq-trigger
echo "not reached"
