# perf_event_open(2) from ring 3 (user/perf_check): exact counts through a
# filtered tracepoint, every read_format bit, groups, sampling into the
# mmap ring with Linux's record layout, exact PERF_RECORD_LOST counts
# under a slow reader, write_backward overwrite, REFRESH/PERIOD/PAUSE,
# software counters, inherit, and open/mmap/close cycles that leak nothing.
# spoor-exec: --smp 4 --timeout 240
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
echo 1..42

perf_check > /tmp/pc.out
is "perf_check: status" 0 $?
while read verdict name detail; do
	if [ "$verdict" = pass ]; then ok "$name $detail"; else not_ok "$name $detail"; fi
done < /tmp/pc.out

# The count equals the hits a hist trigger sees on the same event and filter.
echo 'hist:keys=id:vals=hitcount if id == 110' > $T/events/raw_syscalls/sys_enter/trigger
n=$(perf_check count 4321)
hits=$(grep -E '^\{ id: +110 \} hitcount: +[0-9]+' $T/events/raw_syscalls/sys_enter/hist | sed 's/.*hitcount: *//')
echo '!hist:keys=id:vals=hitcount if id == 110' > $T/events/raw_syscalls/sys_enter/trigger
is "perf count of getppid" 4321 "$n"
is "perf count equals the hist trigger's hits" "$hits" "$n"
