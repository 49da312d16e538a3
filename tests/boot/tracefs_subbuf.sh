# Ring-buffer sub-buffers larger than 4 KiB (buffer_subbuf_size_kb), checked
# against what Linux 6.12 did for the same commands on the linux-ref rig
# (--kernel ue --smp 1): events/header_page shows the data size, per
# instance; trace_pipe_raw hands out pages of the sub-buffer size that hold
# that much; a change empties the buffer and leaves buffer_size_kb's number;
# trace_marker and trace_marker_raw keep the limits of a 4 KiB sub-buffer
# (4,054 bytes of text, 4,060 bytes of raw data) whatever the size.
# spoor-exec: --smp 1
. /spoor/lib/tap.sh
echo 1..16
cd /sys/kernel/tracing
# data_size FILE: the data field's size in a header_page file.
data_size() {
	sed -n 's/^.*char data;.*size:\([0-9]*\);.*$/\1/p' "$1"
}
# markers N TEXT: N trace_marker writes of TEXT.
markers() {
	local i=0
	while [ $i -lt "$1" ]; do echo "$2" > trace_marker; i=$((i + 1)); done
}
# first_page_count: how many QQQQQQQQ markers the first page of cpu0's trace_pipe_raw holds.
first_page_count() {
	dd if=per_cpu/cpu0/trace_pipe_raw bs=1048576 count=1 2>/dev/null | tr -c Q '\n' | grep -c '^QQQQQQQQ$'
}

is "header_page: 4080 bytes of data by default" 4080 "$(data_size events/header_page)"
echo 1408 > buffer_size_kb
echo keep > trace_marker
echo 16 > buffer_subbuf_size_kb
is "16 KiB sub-buffers: header_page's data is 16368 bytes" 16368 "$(data_size events/header_page)"
is "the change emptied the buffer" 0 "$(grep -c keep trace)"
is "buffer_size_kb keeps its number (Linux's 1410)" 1410 "$(cat buffer_size_kb)"
echo 2000 > buffer_size_kb
is "a resize counts in 16368-byte pages: 2000 -> 2014" 2014 "$(cat buffer_size_kb)"

# 300 markers of 32-byte events: more than a 4 KiB page holds, less than 16 KiB.
echo > trace
markers 300 QQQQQQQQ
is "trace_pipe_raw: one read gives one 16 KiB page" 16384 \
	"$(dd if=per_cpu/cpu0/trace_pipe_raw bs=1048576 count=1 2>/dev/null | wc -c)"
echo > trace
markers 300 QQQQQQQQ
is "... holding all 300 markers" 300 "$(first_page_count)"
echo 4 > buffer_subbuf_size_kb
echo > trace
markers 300 QQQQQQQQ
n=$(first_page_count)
check "with 4 KiB sub-buffers a page holds fewer ($n)" test "$n" -gt 100 -a "$n" -lt 150
is "... and a read gives 4096 bytes" 4096 \
	"$(dd if=per_cpu/cpu0/trace_pipe_raw bs=1048576 count=1 2>/dev/null | wc -c)"

# The marker limits do not follow the sub-buffer size (Linux 6.12 on the rig).
echo 16 > buffer_subbuf_size_kb
# printf writes its text at once and writes the rest after a short write.
printf '%s' "$(printf 'a%.0s' $(seq 4096))" > trace_marker
is "a 4096-byte marker: events of 4054 and 42 bytes" "4054 42" \
	"$(sed -n 's/^.*tracing_mark_write: //p' trace | awk '{ printf "%s%d", (NR > 1 ? " " : ""), length($0) }')"
printf 'c%.0s' $(seq 4060) > /tmp/c
check "trace_marker_raw takes 4060 bytes" dd if=/tmp/c of=trace_marker_raw bs=4060 count=1 2>/dev/null
printf 'c%.0s' $(seq 4061) > /tmp/c
is "... and refuses 4061 (EINVAL)" "dd: write error: Invalid argument" \
	"$(dd if=/tmp/c of=trace_marker_raw bs=4061 count=1 2>&1 | grep error)"

# Each instance has its own sub-buffers.
mkdir instances/sb
echo 8 > instances/sb/buffer_subbuf_size_kb
is "an instance's header_page follows its own size" "16368 8176" \
	"$(data_size events/header_page) $(data_size instances/sb/events/header_page)"
echo hello > instances/sb/trace_marker
is "its trace_pipe_raw gives 8 KiB pages" 8192 \
	"$(dd if=instances/sb/per_cpu/cpu0/trace_pipe_raw bs=1048576 count=1 2>/dev/null | wc -c)"
echo 1 > instances/sb/snapshot
echo hello > instances/sb/trace_marker
echo 1 > instances/sb/snapshot
is "its snapshot has the same pages" 8192 \
	"$(dd if=instances/sb/per_cpu/cpu0/snapshot_raw bs=1048576 count=1 2>/dev/null | wc -c)"
rmdir instances/sb
echo 4 > buffer_subbuf_size_kb
is "back to 4 KiB" 4080 "$(data_size events/header_page)"
