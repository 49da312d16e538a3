# The boot option `stacktrace` starts the stack tracer (trace/trace_stack.c)
# before any script runs, as Linux's does.
# spoor-exec: --smp 2 --append stacktrace
. /spoor/lib/tap.sh
echo 1..3
cd /sys/kernel/tracing
is "stack_tracer_enabled is on from boot" 1 "$(cat /proc/sys/kernel/stack_tracer_enabled)"
check "it has measured a stack already" test "$(cat stack_max_size)" -gt 0
echo 0 > /proc/sys/kernel/stack_tracer_enabled
is "it stops like any other" "0 0" "$(cat /proc/sys/kernel/stack_tracer_enabled) $(grep -c . enabled_functions)"
