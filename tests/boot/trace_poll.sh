# poll(2) on trace_pipe, per_cpu/cpuN/trace_pipe and trace_pipe_raw (user/tpoll),
# every answer the one Linux 6.12 gave on the linux-ref rig (--kernel ue --smp 1)
# for the same commands: readable when there is something to read; a CPU's file
# with buffer_percent set only when readers are off the writer's page and that
# much of its ring is written; the top trace_pipe ignores buffer_percent; with
# options/block everything is readable. A poller sleeping in poll() sees a
# marker written while it waits.
# spoor-exec: --smp 1
. /spoor/lib/tap.sh
echo 1..16
cd /sys/kernel/tracing
echo 64 > buffer_size_kb
echo > trace
is "empty trace_pipe: poll times out" timeout "$(tpoll trace_pipe 50)"
echo hi > trace_marker
is "a marker: readable" ready "$(tpoll trace_pipe 50)"
echo > trace
is "cleared again: times out" timeout "$(tpoll trace_pipe 50)"
( sleep 0.2; echo late > trace_marker ) &
is "a poller waiting 2 s sees a marker written after 0.2 s" ready "$(tpoll trace_pipe 2000)"
wait

echo > trace
echo 0 > buffer_percent
echo hi > trace_marker
is "buffer_percent 0, one marker: trace_pipe_raw readable" ready "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
is "... and per_cpu trace_pipe" ready "$(tpoll per_cpu/cpu0/trace_pipe 50)"
echo 50 > buffer_percent
is "buffer_percent 50, one marker: trace_pipe_raw waits" timeout "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
is "... and per_cpu trace_pipe" timeout "$(tpoll per_cpu/cpu0/trace_pipe 50)"
is "... the top trace_pipe does not" ready "$(tpoll trace_pipe 50)"
echo > trace
is "buffer_percent 50, empty: waits" timeout "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
# 1200 32-byte events: 10 of the 17 pages of 64 KiB.
i=0; while [ $i -lt 1200 ]; do echo QQQQQQQQ > trace_marker; i=$((i + 1)); done
is "1200 markers, more than half the ring: trace_pipe_raw readable" ready "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
is "... and per_cpu trace_pipe" ready "$(tpoll per_cpu/cpu0/trace_pipe 50)"
echo 100 > buffer_percent
is "... not a full ring (buffer_percent 100)" timeout "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
echo 1 > buffer_percent
echo > trace
is "buffer_percent 1, empty: waits (nothing to read)" timeout "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
echo 50 > buffer_percent
echo 1 > options/block
is "options/block: empty trace_pipe readable" ready "$(tpoll trace_pipe 50)"
is "... and trace_pipe_raw" ready "$(tpoll per_cpu/cpu0/trace_pipe_raw 50)"
echo 0 > options/block
