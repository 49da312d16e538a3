# func-no-repeats, the function tracer's option: a call of the same
# function from the same call site as the CPU's last call is counted, and
# the call that ends the run is preceded by one ftrace:func_repeats record,
# printed as Linux 6.12 prints it (texts from the linux-ref rig).
# One CPU: the shell's next kmalloc, on the CPU the thread ran on, ends
# the thread's last run (its record has the shell's context, as on Linux).
# spoor-exec: --smp 1
. /spoor/lib/tap.sh
echo 1..17
cd /sys/kernel/tracing
is "options/func-no-repeats is there with no tracer, off" 0 "$(cat options/func-no-repeats)"
check "trace_options lists it only while the function tracer runs" sh -c '! grep -q func-no-repeats trace_options'
echo function > current_tracer
is "... after func_stack_trace" "nofunc_stack_trace|nofunc-no-repeats" \
	"$(grep func trace_options | grep -v -e function -e graph | tr '\n' '|' | sed 's/|$//')"
echo nop > current_tracer
cat > /tmp/want <<'FMT'
	field:unsigned long ip;	offset:8;	size:8;	signed:0;
	field:unsigned long parent_ip;	offset:16;	size:8;	signed:0;
	field:u16 count;	offset:24;	size:2;	signed:0;
	field:u16 top_delta_ts;	offset:26;	size:2;	signed:0;
	field:u32 bottom_delta_ts;	offset:28;	size:4;	signed:0;

print fmt: " %ps <-%ps\t(repeats:%u  delta: -%llu)", (void *)REC->ip, (void *)REC->parent_ip, REC->count, (((u64)(REC)->top_delta_ts << 32) | (REC)->bottom_delta_ts)
FMT
is "events/ftrace/func_repeats/format is Linux's" "$(cat /tmp/want)" \
	"$(sed -n '/ip;/,$p' events/ftrace/func_repeats/format)"

# kmalloc-storm's thread calls kmalloc from one place, and nothing else traced in between.
echo kmalloc > set_ftrace_filter
echo function > current_tracer
kmalloc-storm 1 300 64
echo 0 > tracing_on
is "option off: every call is a line" 300 "$(grep -c ': kmalloc <-kmalloc_thread$' trace)"
echo nop > current_tracer
echo 1 > options/func-no-repeats
echo 1 > tracing_on
echo function > current_tracer
kmalloc-storm 1 300 64
echo 0 > tracing_on
grep ': kmalloc <-kmalloc_thread' trace > /tmp/kr
full=$(grep -c 'kmalloc_thread$' /tmp/kr)
check "option on: the thread's calls are a few lines ($full)" test "$full" -ge 1 -a "$full" -le 10
check "Linux's line: func <-parent (repeats: N, last_ts: SECS.USECS)" grep -qE \
	'^ +[a-z/0-9]+-[0-9]+ +\[[0-9]{3}\] [.d][.N][.hs][.0-9][.0-9] +[0-9]+\.[0-9]{6}: kmalloc <-kmalloc_thread \(repeats: [0-9]+, last_ts: +[0-9]+\.[0-9]{6}\)$' /tmp/kr
counted=$(sed -n 's/.*(repeats: \([0-9]*\),.*/\1/p' /tmp/kr | awk '{ n += $1 } END { print n + 0 }')
is "lines and counts add up to the calls ($full + $counted)" 300 $((full + counted))
# each count's last_ts falls between the run's first line and the count's own line
bad=$(awk '{ ts = $4; sub(":", "", ts) }
	/repeats:/ { lt = $NF; sub(/[)]/, "", lt); if (lt + 0 < first + 0 || lt + 0 > ts + 0) n++; next }
	{ first = ts } END { print n + 0 }' /tmp/kr)
is "last_ts: the last repeat, after the run's first call, before its record" 0 "$bad"
echo 1 > options/raw
line=$(grep -m1 -E '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+$' trace)
check "raw: pid cpu ts ip parent_ip count delta, in decimal ($line)" test -n "$line"
set -- $line
check "... the delta is the record's time less the last repeat's" test "$7" -le "$3"
echo 0 > options/raw
echo 1 > options/sym-offset
check "sym-offset applies to both addresses" grep -qE ': kmalloc\+0x0/0x[0-9a-f]+ <-[a-z_.0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+ \(repeats: ' trace
echo 0 > options/sym-offset
echo 1 > options/latency-format
check "latency-format: the same text after its prefix" grep -qE \
	'^ *[a-z/0-9]+-[0-9]+ +[0-9][.d][.N][.hs][.0-9][.0-9] +[0-9]+us.: kmalloc <-kmalloc_thread \(repeats: [0-9]+, last_ts: +[0-9]+\.[0-9]{6}\)$' trace
echo 0 > options/latency-format
echo > trace
echo 1 > tracing_on
kmalloc-storm 1 300 64
echo 0 > tracing_on
cat trace_pipe > /tmp/pipe &
sleep 0.2
kill $!
wait
check "trace_pipe prints the counts too" grep -q 'kmalloc <-kmalloc_thread (repeats: ' /tmp/pipe
# Turned off while the tracer runs: every call is a line again.
echo 0 > options/func-no-repeats
echo > trace
echo 1 > tracing_on
kmalloc-storm 1 300 64
echo 0 > tracing_on
is "turned off with the tracer on: every call again" 300 "$(grep -c ': kmalloc <-kmalloc_thread$' trace)"
check "... and no count" sh -c '! grep -q "repeats:" trace'
echo 1 > options/func-no-repeats
echo 1 > options/func_stack_trace
echo > trace
echo 1 > tracing_on
kmalloc-storm 1 100 64
echo 0 > tracing_on
is "with func_stack_trace: a stack after each written call, none for the repeats" \
	"$(grep -c ': kmalloc <-[^ ]*$' trace)" "$(grep -c '<stack trace>' trace)"
echo 0 > options/func_stack_trace
echo 0 > options/func-no-repeats
echo nop > current_tracer
echo > set_ftrace_filter
echo 1 > tracing_on
