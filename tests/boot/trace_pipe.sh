# Readers: trace_pipe (blocking, consuming) with a background reader and a
# writer; how soon a blocked reader wakes (the writer's irq_work, not the
# tick); per_cpu trace_pipe_raw pages in Linux's layout, decoded byte by
# byte; snapshot commands; per_cpu stats in Linux 6.18's layout.
# spoor-exec: --icount
T=/sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
. /spoor/lib/tap.sh
echo 1..18
cd $T
echo 1024 > buffer_size_kb
echo > trace
# trace_pipe: a reader blocked before the writer starts gets every line, in order, once.
cat trace_pipe > /tmp/pipe.out &
reader=$!
sleep 0.2
i=0
while [ $i -lt 200 ]; do echo "line $i" > trace_marker; i=$((i + 1)); done
sleep 0.3
kill $reader
wait
check "the blocked reader got all 200 lines ($(grep -c tracing_mark_write /tmp/pipe.out))" test "$(grep -c ': tracing_mark_write: line [0-9]*$' /tmp/pipe.out)" = 200
check "in order" test "$(sed 's/.*: line //' /tmp/pipe.out | tr '\n' ' ')" = "$(seq 0 199 | tr '\n' ' ')"
check "consumed: trace no longer has them" test "$(grep -c tracing_mark_write trace)" = 0
check "no header on trace_pipe" test "$(grep -c '^#' /tmp/pipe.out)" = 0
# Wake-up latency of a blocked reader: the writer's irq_work wakes it (about
# 1 us here; without it the reader sleeps on for ms). The guest runs with
# --icount, so its clock counts instructions and a loaded host cannot
# stretch a round: how many of 50 woke within 200 us is the same every run.
w=$(echo wake 50 > $S && cat $S)
fast=$(echo "$w" | sed -n 's/.* within 200 us \([0-9]*\)$/\1/p')
check "a blocked reader wakes within 200 us in 45 of 50 rounds or more ($w)" test "${fast:-0}" -ge 45
# trace_pipe_raw: one reader per CPU, blocked until the marker lands.
echo > trace
for c in 0 1 2 3; do
	cat per_cpu/cpu$c/trace_pipe_raw > /tmp/raw$c &
	eval "raw$c=\$!"
done
sleep 0.2
echo 'hello raw page' > trace_marker
sleep 0.3
kill $raw0 $raw1 $raw2 $raw3
wait
total=$(cat /tmp/raw0 /tmp/raw1 /tmp/raw2 /tmp/raw3 | wc -c)
check "raw readers returned whole 4096-byte pages ($total bytes)" test "$total" = 4096
f=$(grep -l 'hello raw page' /tmp/raw0 /tmp/raw1 /tmp/raw2 /tmp/raw3)
check "the marker is in one CPU's page ($f)" test -n "$f"
check "consumed: trace is empty" test "$(grep -vc '^#' trace)" = 0
# Where the text sits pins the layout: a 16-byte page header (u64 time
# stamp, commit), a 4-byte event header (type_len, time delta), then the
# ftrace:print record (8 bytes of common fields, the caller's ip, the text).
check "the text starts at byte 36 of the page" test "$(head -c 36 $f | grep -c 'hello')$(head -c 49 $f | grep -c 'hello raw page')$(head -c 49 $f | grep -c 'ello raw pag')$(head -c 50 $f | grep -c 'hello raw page')" = 0011
# Snapshot: 1 swaps, 2 empties, 0 frees.
echo > trace
echo before > trace_marker
echo 1 > snapshot
echo after > trace_marker
check "snapshot holds what was live" test "$(grep -c 'tracing_mark_write: before$' snapshot)" = 1
check "the live buffer goes on from empty" test "$(grep -c 'tracing_mark_write: before$' trace)$(grep -c 'tracing_mark_write: after$' trace)" = 01
echo 2 > snapshot
check "echo 2 empties the snapshot" test "$(grep -vc '^#' snapshot)" = 0
echo 0 > snapshot
check "echo 0 frees it (the help text shows)" grep -q '^# \* Snapshot is freed \*$' snapshot
# per_cpu stats, Linux 6.18's eight lines.
echo > trace
i=0
while [ $i -lt 10 ]; do echo "s$i" > trace_marker; i=$((i + 1)); done
c=$(grep -o '\[00[0-3]\] .* tracing_mark_write: s0$' trace | cut -c4)
st=per_cpu/cpu$c/stats
check "stats has Linux's lines" test "$(cut -d: -f1 $st | tr '\n' ,)" = "entries,overrun,commit overrun,bytes,oldest event ts,now ts,dropped events,read events,"
check "numbers where Linux has them" test "$(grep -cE '^(entries|overrun|commit overrun|bytes|dropped events|read events): [0-9]+$|^(oldest event ts|now ts): +[0-9]+\.[0-9]{6}$' $st)" = 8
e=$(sed -n 's/^entries: //p' $st)
check "entries counts this CPU's records ($e)" test "$e" = "$(grep -c "\[00$c\]" trace)"
head -n 3 per_cpu/cpu$c/trace_pipe > /dev/null
check "read events counts consumed records" test "$(sed -n 's/^read events: //p' $st)" -ge 3
check "and entries the ones left" test "$(sed -n 's/^entries: //p' $st)" -le $((e - 3))
