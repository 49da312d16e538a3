# The tracefs files of Linux 6.12 added for issue 12 after options/ and the
# pid filters, and the output options, checked against what Linux 6.12
# printed for the same commands on the linux-ref rig (--kernel ue --smp 1):
# tracing_thresh, tracing_max_latency, buffer_percent,
# buffer_subbuf_size_kb, timestamp_mode, free_buffer, trace_marker_raw,
# saved_cmdlines_size, saved_tgids/record-tgid, printk_formats,
# per_cpu/cpuN/snapshot_raw, events/<sys>/filter, refused filters and
# triggers, and the raw/hex/bin/context-info/irq-info/latency-format/
# stacktrace/record-cmd options.
# spoor-exec: --smp 1
. /spoor/lib/tap.sh
echo 1..59
cd /sys/kernel/tracing
# w FILE VALUE: echo -ne VALUE into FILE; its error text (or "ok") and the first line after.
w() {
	local err
	err=$(sh -c "echo -ne '$2' > $1" 2>&1 | sed 's/^.*write error: //')
	echo "${err:-ok}|$(cat $1 2>&1 | head -n 1)"
}

# The tunables: values, rounding and errors as Linux's.
is "tracing_thresh: microseconds" "ok|1000000" "$(w tracing_thresh 1000000)"
is "tracing_thresh: -1 is EINVAL" "Invalid argument|1000000" "$(w tracing_thresh -1)"
is "tracing_thresh: 2^64 is ERANGE (kstrtoul)" "Numerical result out of range|1000000" \
	"$(w tracing_thresh 18446744073709551616)"
is "tracing_thresh: the ns value wraps as Linux's" "ok|18446744073709550" \
	"$(w tracing_thresh 18446744073709551615)"
echo 0 > tracing_thresh
is "tracing_max_latency keeps what is written" "ok|4294967296" "$(w tracing_max_latency 4294967296)"
echo 0 > tracing_max_latency
is "buffer_percent: 50 by default" "50" "$(cat buffer_percent)"
is "buffer_percent: 100 is the most" "Invalid argument|100" \
	"$(echo 100 > buffer_percent; w buffer_percent 101)"
echo 50 > buffer_percent
is "buffer_subbuf_size_kb: 4 by default" "4" "$(cat buffer_subbuf_size_kb)"
is "... 5 rounds up to 8" "ok|8" "$(w buffer_subbuf_size_kb 5)"
is "... 129 rounds up to 256" "ok|256" "$(w buffer_subbuf_size_kb 129)"
is "... 0 is EINVAL" "Invalid argument|256" "$(w buffer_subbuf_size_kb 0)"
is "... more than 512 is EINVAL" "Invalid argument|256" "$(w buffer_subbuf_size_kb 1024)"
echo 4 > buffer_subbuf_size_kb
is "timestamp_mode: delta" "[delta] absolute" "$(cat timestamp_mode)"
is "timestamp_mode is read-only: EINVAL" "Invalid argument|[delta] absolute" "$(w timestamp_mode absolute)"
is "free_buffer cannot be read: EINVAL" "cat: free_buffer: Invalid argument" "$(cat free_buffer 2>&1)"
echo 64 > buffer_size_kb
exec 3> free_buffer
echo anything >&3
is "free_buffer: a write changes nothing (64 KiB asked: 67 held)" "67 1" "$(cat buffer_size_kb) $(cat tracing_on)"
exec 3>&-
is "... closing it shrinks the buffer to its minimum" "7" "$(cat buffer_size_kb)"
echo 1 > options/disable_on_free
exec 3> free_buffer
exec 3>&-
is "... and stops tracing with disable_on_free" "0" "$(cat tracing_on)"
echo 0 > options/disable_on_free
echo 1 > tracing_on
echo 1408 > buffer_size_kb
mkdir instances/tf
is "an instance has them, but not tracing_thresh" \
	"buffer_percent buffer_subbuf_size_kb free_buffer timestamp_mode trace_marker_raw tracing_max_latency" \
	"$(cd instances/tf && ls buffer_percent buffer_subbuf_size_kb free_buffer timestamp_mode trace_marker_raw tracing_max_latency tracing_thresh 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
rmdir instances/tf

# trace_marker_raw: an id, then bytes; Linux's record sizes and line.
echo > trace
is "trace_marker_raw: fewer than 4 bytes is EINVAL" "Invalid argument" \
	"$(sh -c "echo -n abc > trace_marker_raw" 2>&1 | sed 's/^.*write error: //')"
echo -n abcdefgh > trace_marker_raw
printf '\001\000\000\000hello' > trace_marker_raw
is "its line: the id in hex, the bytes after it padded as Linux's" \
	"# 64636261 buf: 65 66 67 68 00 00 00 00 00 00 00 00 00 00 00 00|# 1 buf: 68 65 6c 6c 6f 00 00 00 00 00 00 00 00 00 00 00" \
	"$(grep -o '# [0-9a-f]* buf:.*' trace | tr '\n' '|' | sed 's/|$//')"
is "events/ftrace/raw_data has Linux's format" 'print fmt: "id:%04x %08x", REC->id, (int)REC->buf[0]' \
	"$(grep 'print fmt' events/ftrace/raw_data/format)"

# saved_cmdlines_size, saved_tgids, record-tgid, printk_formats
is "saved_cmdlines_size: 128 asked, 6552 as Linux rounds it" "6552" "$(cat saved_cmdlines_size)"
is "... 32768 reads 45874" "ok|45874" "$(w saved_cmdlines_size 32768)"
is "... 32769 is EINVAL" "Invalid argument|45874" "$(w saved_cmdlines_size 32769)"
is "... 0 is EINVAL" "Invalid argument|45874" "$(w saved_cmdlines_size 0)"
echo 128 > saved_cmdlines_size
echo 1 > events/sched/sched_switch/enable
sleep 0.01
echo 0 > events/sched/sched_switch/enable
check "a resize empties the table, which fills again" grep -q '^[0-9]* sleep$' saved_cmdlines
echo 2 > saved_cmdlines_size
is "... and starts empty" "" "$(cat saved_cmdlines)"
echo 128 > saved_cmdlines_size
is "saved_tgids is empty until record-tgid" "" "$(cat saved_tgids)"
echo 1 > options/record-tgid
echo > trace
echo 1 > events/sched/sched_switch/enable
sleep 0.01
echo 0 > events/sched/sched_switch/enable
read pid tgid rest < saved_tgids
is "record-tgid: saved_tgids lists pid tgid (each task its own group)" "$pid" "$tgid"
sleep_pid=$(grep -o 'next_comm=sleep next_pid=[0-9]*' trace | head -n 1 | sed 's/.*=//')
is "record-tgid: the TGID column of the header" \
	"#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION" "$(sed -n 11p trace)"
check "... and of each line" grep -q "^ *sleep-$sleep_pid *( *$sleep_pid) \[000\]" trace
echo 0 > options/record-tgid
check "saved_tgids is kept after" grep -q . saved_tgids
is "printk_formats: no trace_printk formats in Spoor" "0" "$(cat printk_formats | wc -c)"

# snapshot_raw
echo > trace
echo snap > trace_marker
echo 1 > snapshot
check "per_cpu/cpu0/snapshot_raw gives the snapshot's pages" \
	test "$(dd if=per_cpu/cpu0/snapshot_raw bs=4096 count=1 2>/dev/null | wc -c)" = 4096
echo 0 > snapshot

# events/<sys>/filter and refused filters
echo > error_log
is "events/sched/filter: Linux's help" "### global filter ###" "$(head -n 1 events/sched/filter)"
is "a system filter applies where the field exists" "ok|### global filter ###|pid > 10|none" \
	"$(w events/sched/filter 'pid > 10')|$(cat events/sched/sched_wakeup/filter)|$(head -n 1 events/sched/sched_process_fork/filter | sed 's/pid > 10/none/')"
is "... and elsewhere shows Linux's one reason" \
	"^|parse_error: Couldn't find or set field in one of a subsystem's events" \
	"$(sed -n '2p;3p' events/sched/sched_switch/filter | tr '\n' '|' | sed 's/|$//')"
check "... one error_log entry per event refusing it" \
	grep -q "event filter parse error: error: Couldn't find or set field in one of a subsystem's events" error_log
echo 0 > events/sched/filter
is "'0' clears every event's filter" "none none" \
	"$(cat events/sched/sched_wakeup/filter) $(cat events/sched/sched_switch/filter)"
echo 'prev_pid > 1' > events/sched/sched_switch/filter
is "an empty filter is EINVAL and turns the filter off" "Invalid argument|" \
	"$(w events/sched/sched_switch/filter '\n')"
is "... the file shows Linux's Error: (0)" "Error: (0)" "$(sed -n 2p events/sched/sched_switch/filter)"
is "a bad filter: EINVAL, text, caret and reason" \
	"prev_pid >|          ^|parse_error: Invalid value (did you forget quotes)?" \
	"$(echo 'prev_pid >' > events/sched/sched_switch/filter 2>/dev/null; head -n 3 events/sched/sched_switch/filter | tr '\n' '|' | sed 's/|$//')"
echo 0 > events/sched/sched_switch/filter
is "a blank trigger write is EINVAL" "Invalid argument" \
	"$(w events/sched/sched_switch/trigger '   ' | sed 's/|.*//')"
is "common_comm.log2: Linux's Couldn't find field" "Invalid argument" \
	"$(w events/sched/sched_switch/trigger 'hist:keys=common_comm.log2' | sed 's/|.*//')"
f=""
for i in $(seq 1 60); do f="$f; char f$i[64]"; done
is "a synthetic event of 60 char[64] fields is taken (fields, not bytes)" "ok" \
	"$(w synthetic_events "big ${f#; }" | sed 's/|.*//')"
echo '!big' >> synthetic_events
echo > error_log

# The output options, on two markers.
echo > trace
echo hello > trace_marker
echo hello2 > trace_marker
echo 1 > options/raw
check "raw: pid cpu ns, then Linux's marker form" grep -q '^[0-9]* 0 [0-9]* # ffffffff[0-9a-f]* hello$' trace
echo 0 > options/raw
echo 1 > options/hex
check "hex: fields as hex, then type: and a blank line" \
	grep -q '^0000[0-9a-f]\{4\} 00000000 [0-9a-f]\{16\} type: [0-9]*$' trace
echo 0 > options/hex
echo 1 > options/bin
is "bin: 16 bytes of fields then 'type: N', per record" "2" "$(grep -c 'type: [0-9]*$' trace)"
echo 0 > options/bin
echo 0 > options/context-info
is "context-info off: the text only, no header" "# tracer: nop|#|tracing_mark_write: hello|tracing_mark_write: hello2" \
	"$(cat trace | tr '\n' '|' | sed 's/|$//')"
echo 1 > options/context-info
echo 0 > options/irq-info
is "irq-info off: no flags column in the header" "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION" \
	"$(sed -n 5p trace)"
check "... nor in the lines" grep -q '^ *[^ ]*-[0-9]* *\[000\]      [0-9]*\.[0-9]*: tracing_mark_write: hello$' trace
echo 1 > options/irq-info
echo 1 > options/latency-format
is "latency-format: Linux's header" "# nop latency trace v1.1.5 on $(uname -r)" "$(sed -n 3p trace)"
check "... and lines: cpu+flags, usecs since the reset, the gap mark" \
	grep -q '^ *[^ ]*-[0-9]* *0\.\.\.\.\. *[0-9]*us[ +!#*@$]: tracing_mark_write: hello$' trace
echo 1 > options/verbose
check "... verbose: Linux's columns" \
	grep -q '^ *[^ ]* *[0-9]*   0 0 00000000 00000001 \[[0-9a-f]\{8\}\] [0-9]*\.[0-9]\{3\}ms (+0\.000ms): tracing_mark_write: hello2$' trace
echo 0 > options/verbose
echo 0 > options/latency-format
echo > trace
is "latency-format on an empty buffer: no header past the tracer" "2" \
	"$(echo 1 > options/latency-format; cat trace | wc -l; echo 0 > options/latency-format)"
echo 1 > options/stacktrace
echo 1 > events/sched/sched_switch/enable
sleep 0.01
echo 0 > events/sched/sched_switch/enable
echo 0 > options/stacktrace
is "stacktrace: a stack after every event" "$(grep -c 'sched_switch:' trace)" "$(grep -c '<stack trace>' trace)"
check "... frames without +offset (sym-offset off)" grep -q '^ => schedule$' trace
echo > trace
echo 0 > options/record-cmd
echo 1 > events/sched/sched_switch/enable
sleep 0.01
echo 0 > events/sched/sched_switch/enable
echo 1 > options/record-cmd
check "record-cmd off: a new task's name is not saved" grep -q '^ *<\.\.\.>-[0-9]* .*sched_switch: prev_comm=sleep' trace
