# spoor-exec: --smp 2
# The console at rest and Ctrl-C. A task blocked reading /dev/console (what
# the shell's prompt does) must sleep on the UART's receive interrupt, not
# poll it once a tick: over 0.5 s an idle system shows a handful of
# sched_switch events per CPU (a per-tick poll showed ~500). Long-running
# commands stop on SIGINT (Ctrl-C sends it) in their loops, not at the end
# of their input: cat and grep over a 60,000-entry trace buffer.
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
echo 1..7
cd $T
cat /dev/console > /dev/null &
reader=$!
sleep 0.1
echo > trace
echo 1 > events/sched/sched_switch/enable
sleep 0.5
echo 0 > events/sched/sched_switch/enable
grep sched_switch: trace | sed 's/^/# /'
for c in 000 001; do
	n=$(grep -c "\[$c\].*sched_switch:" trace)
	check "CPU $c: $n sched_switch events in 0.5 s at an idle console (at most 8)" test "$n" -le 8
done
check "the console reader sleeps throughout (no switch of pid $reader)" \
	test "$(grep -c "prev_pid=$reader " trace)" = 0
kill -INT $reader
wait $reader
is "SIGINT ends a blocked console read" 130 $?

# 60,000 entries: markers written by a loop of the shell itself.
echo 16384 > buffer_size_kb
echo > trace
seq 60000 | while read -r i; do echo "marker $i" > trace_marker; done
n=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/.*/\1/p' trace)
check "the buffer holds 60,000 entries ($n)" test "$n" -ge 60000
for cmd in cat grep; do
	if [ $cmd = cat ]; then cat trace > /tmp/out & else grep marker trace > /tmp/out & fi
	pid=$!
	sleep 0.1
	kill -INT $pid
	wait $pid
	st=$?
	lines=$(wc -l < /tmp/out)
	check "$cmd of a 60,000-entry trace stops on SIGINT (status $st, $lines lines out)" \
		test "$st" = 130 -a "$lines" -lt 60000
done
echo 1408 > buffer_size_kb
