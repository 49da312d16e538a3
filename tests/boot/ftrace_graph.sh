# The function_graph tracer: Linux 6.12's formats, header and lines (checked
# on the linux-ref rig), set_graph_function/set_graph_notrace,
# max_graph_depth, the funcgraph-* options, and its return hook under load:
# tracers switched back and forth on 4 CPUs while NMIs fire and tasks exit
# with hooked calls on their shadow stacks.
# spoor-exec: --timeout 240
T=/sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
. /spoor/lib/tap.sh
echo 1..34
cd $T
# A line: CPU, duration or its blank, the call, leaf, return or comment
# (a return names its function when its call was not seen); or a banner.
line='^ [0-3]\) ([ +!#*@$] +[0-9]+(\.[0-9]+)? us +|              )\|  +([A-Za-z_0-9.]+\(\)( \{|;)|\}( /\* [A-Za-z_0-9.]+ \*/)?|/\* .* \*/)$'
banner='^ [0-3]\) +[^ ]+-[0-9]+ +=> +[^ ]+-[0-9]+ *$|^ -{42}$|^$'
check "available_tracers lists function_graph first (registered last, as Linux)" grep -q '^function_graph ' available_tracers
is "its options in options/" "funcgraph-abstime funcgraph-cpu funcgraph-duration funcgraph-irqs funcgraph-overhead funcgraph-overrun funcgraph-proc funcgraph-tail" \
	"$(ls options | grep '^funcgraph-' | tr '\n' ' ' | sed 's/ $//')"
check "trace_options leaves them out while nop runs" sh -c '! grep -q funcgraph trace_options'
is "funcgraph_entry's format" "field:unsigned long func;	offset:8;	size:8;	signed:0;|field:int depth;	offset:16;	size:4;	signed:1;|print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth" \
	"$(grep -E 'func;|depth;|print fmt' events/ftrace/funcgraph_entry/format | sed 's/^	//' | tr '\n' '|' | sed 's/|$//')"
is "funcgraph_exit's format" "field:unsigned long func;	offset:8;	size:8;	signed:0;|field:int depth;	offset:16;	size:4;	signed:1;|field:unsigned int overrun;	offset:20;	size:4;	signed:0;|field:unsigned long long calltime;	offset:24;	size:8;	signed:0;|field:unsigned long long rettime;	offset:32;	size:8;	signed:0;|print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth" \
	"$(grep -E 'func;|depth;|overrun;|time;|print fmt' events/ftrace/funcgraph_exit/format | sed 's/^	//' | tr '\n' '|' | sed 's/|$//')"
is "max_graph_depth starts at 0" 0 "$(cat max_graph_depth)"
is "set_graph_function starts empty" "#### all functions enabled ####" "$(cat set_graph_function)"
echo vfs_read > set_graph_function
is "set_graph_function lists what was written" vfs_read "$(cat set_graph_function)"

# One read, traced from vfs_read down.
echo function_graph > current_tracer
is "trace_options then lists them, Linux's order and defaults (graph-time: the profiler's)" \
	"nostacktrace nofuncgraph-overrun funcgraph-cpu funcgraph-overhead nofuncgraph-proc funcgraph-duration nofuncgraph-abstime funcgraph-irqs nofuncgraph-tail sleep-time graph-time" \
	"$(tail -11 trace_options | tr '\n' ' ' | sed 's/ $//')"
cat /proc/version > /dev/null
echo fgraph-marker > trace_marker
echo 0 > tracing_on
is "the header" "# tracer: function_graph|#|# CPU  DURATION                  FUNCTION CALLS|# |     |   |                     |   |   |   |" \
	"$(head -4 trace | tr '\n' '|' | sed 's/|$//')"
grep -v '^#' trace > /tmp/g1
echo 1 > options/latency-format
is "latency-format's legend" "#      _-----=> irqs-off        |#     / _----=> need-resched    |#    | / _---=> hardirq/softirq |#    || / _--=> preempt-depth   |#    ||| /                      |# CPU||||     DURATION                  FUNCTION CALLS|# |  ||||      |   |                     |   |   |   |" \
	"$(grep -A6 '^#      _' trace | tr '\n' '|' | sed 's/|$//')"
check "and its flags column" grep -qE '^ [0-3]\)  [.dDbX][.Nnp][.hHsZ][.0-9a-f][.0-9a-f] \| [ +!#*@$] +[0-9]+(\.[0-9]+)? us +\|  +[A-Za-z_0-9.]+\(\);$' trace
echo 0 > options/latency-format
check "a call opens at depth 0: ' N)               |  vfs_read() {'" grep -qE '^ [0-3]\)               \|  vfs_read\(\) \{$' /tmp/g1
check "and closes there with its duration" grep -qE '^ [0-3]\) [ +!#*@$] +[0-9]+(\.[0-9]+)? us +\|  \}$' /tmp/g1
check "leaves: 'func();' with a duration, indented by depth" grep -qE '^ [0-3]\) [ +!#*@$] +[0-9]+(\.[0-9]+)? us +\|      +[A-Za-z_0-9.]+\(\);$' /tmp/g1
check "a trace_marker write is a comment" grep -qE '^ [0-3]\)               \|  +/\* fgraph-marker \*/$' /tmp/g1
check "every line well formed" sh -c "! grep -qvE '$line|$banner' /tmp/g1"

# funcgraph-tail names every return: calls and returns pair up per task
# (a task already inside a call when tracing began returns from it unopened).
echo 1 > options/funcgraph-tail
echo 1 > options/funcgraph-proc
echo > trace
echo 1 > tracing_on
cat /proc/version > /dev/null
echo 0 > tracing_on
grep -v '^#' trace > /tmp/g2
awk -F'|' '
	{ split($1, a, " "); task = a[2]; f = $NF; sub(/^ +/, "", f) }
	f ~ /\(\) \{$/ { sub(/\(\) \{$/, "", f); st[task, ++n[task]] = f; opened++; next }
	f ~ /^\} \/\* / && n[task] > 0 { sub(/^\} \/\* /, "", f); sub(/ \*\/$/, "", f)
		if (st[task, n[task]--] != f) bad++; else paired++ }
	END { exit !(opened > 3 && paired > 3 && !bad) }' /tmp/g2
result $? "with funcgraph-tail and -proc every '} /* f */' closes its task's open f()"
echo 0 > options/funcgraph-tail
echo 0 > options/funcgraph-proc

# max_graph_depth and set_graph_notrace.
echo 2 > max_graph_depth
echo > trace
echo 1 > tracing_on
cat /proc/version > /dev/null
echo 0 > tracing_on
grep -v '^#' trace | sed 's/^[^|]*|//' > /tmp/g3
check "max_graph_depth 2: depths 0 and 1 only" sh -c "grep -q '^    [a-z]' /tmp/g3 && ! grep -q '^      ' /tmp/g3"
echo 0 > max_graph_depth
echo seq_read > set_graph_notrace
echo > trace
echo 1 > tracing_on
cat /proc/version > /dev/null
echo 0 > tracing_on
# vfs_read calls seq_read for /proc/version: it is then a leaf, or has interrupts in it.
check "set_graph_notrace: neither seq_read nor what it calls" \
	sh -c "grep -q 'vfs_read()' trace && ! grep -qE 'seq_read|seq_printf' trace"
echo > set_graph_notrace

# Other columns: time and task, no CPU, no duration.
echo 1 > options/funcgraph-abstime
echo 1 > options/funcgraph-proc
echo 0 > options/funcgraph-cpu
is "the header with TIME and TASK/PID" "#     TIME         TASK/PID         DURATION                  FUNCTION CALLS" \
	"$(sed -n 3p trace)"
check "their columns" grep -qE '^ +[0-9]+\.[0-9]{6} \|  +cat-[0-9]+ +\| [ +!#*@$] +[0-9]+(\.[0-9]+)? us +\|  +[A-Za-z_0-9.]+\(\);$' trace
echo 0 > options/funcgraph-duration
check "without durations" grep -qE '^ +[0-9]+\.[0-9]{6} \|  +cat-[0-9]+ +\| vfs_read\(\)( \{|;)$' trace
echo 1 > options/funcgraph-duration
echo 0 > options/funcgraph-abstime
echo 0 > options/funcgraph-proc
echo 1 > options/funcgraph-cpu
echo > set_graph_function
echo nop > current_tracer
echo 1 > tracing_on

# Two arrays at once, each with its own set_ftrace_filter: one hook per call.
mkdir instances/g
echo kfree > instances/g/set_ftrace_filter
echo function_graph > instances/g/current_tracer
echo kmalloc > set_ftrace_filter
echo function_graph > current_tracer
kmalloc-storm 1 50 64
echo 0 > tracing_on
echo 0 > instances/g/tracing_on
check "the top level: its filter's calls only" \
	sh -c "grep -q '  kmalloc();' trace && ! grep -v '^#' trace | grep -qvE '  kmalloc\(\);$|$banner'"
check "an instance beside it: its own" \
	sh -c "grep -q '  kfree();' instances/g/trace && ! grep -v '^#' instances/g/trace | grep -qvE '  kfree\(\);$|$banner'"
# A stack walk under function_graph (everything hooked) names the callers, not the hook.
echo nop > instances/g/current_tracer
echo > instances/g/trace
echo 'kmalloc:stacktrace' > instances/g/set_ftrace_filter
echo > set_ftrace_filter
echo 1 > tracing_on
echo 1 > instances/g/tracing_on
kmalloc-storm 1 20 64
echo 0 > instances/g/tracing_on
echo 0 > tracing_on
check "stack records of kmalloc's callers" grep -q '^ => kmalloc_thread' instances/g/trace
check "none through return_to_handler" sh -c "! grep -q return_to_handler instances/g/trace"
echo nop > current_tracer
rmdir instances/g
echo > set_ftrace_filter
echo 1 > tracing_on

# Everything, switched back and forth under load on 4 CPUs with NMIs; tasks
# started while it runs exit with calls still hooked.
echo 4096 > buffer_size_kb
cpuhog 4 6000 &
pingpong 2 20000 &
kmalloc-storm 2 20000 256 &
sleep 0.2
bad=0
for i in 1 2 3 4 5 6 7 8; do
	echo function_graph > current_tracer || { bad=1; echo "# round $i: function_graph refused"; }
	kmalloc-storm 1 200 64 &
	echo nmi 50 > $S
	r=$(cat $S)
	[ "$r" = "nmi: sent 200 handled 200" ] || { bad=1; echo "# round $i: $r"; }
	sleep 0.2
	echo function > current_tracer || { bad=1; echo "# round $i: function refused"; }
	sleep 0.1
	echo nop > current_tracer || { bad=1; echo "# round $i: nop refused"; }
done
echo function_graph > current_tracer
kmalloc-storm 2 300 64
sleep 0.5
echo 0 > tracing_on
wait
result $bad "8 rounds of function_graph, function, nop under load, NMIs answered"
grep -v '^#' trace > /tmp/all
check "every CPU recorded calls" test "$(awk '{print $1}' /tmp/all | grep -E '^[0-3]\)$' | sort -u | wc -l)" = 4
check "context switches show Linux's banner" grep -qE '^ [0-3]\) +[^ ]+-[0-9]+ +=> +[^ ]+-[0-9]+ *$' /tmp/all
check "every line well formed" sh -c "! grep -qvE '$line|$banner' /tmp/all"
echo nop > current_tracer
echo 1 > tracing_on

# The shell's shadow stack is back to empty: its next call is at depth 0 again.
echo vfs_read > set_graph_function
echo function_graph > current_tracer
cat /proc/version > /dev/null
echo 0 > tracing_on
check "after all that, vfs_read is at depth 0 again" grep -qE '^ [0-3]\)               \|  vfs_read\(\) \{$' trace
echo nop > current_tracer
echo > set_graph_function
echo 1 > tracing_on

# funcgraph-irqs off: nothing runs in hard interrupt context is traced, as
# Linux's (in_hardirq at entry). do_irq enters before the hardirq count,
# as Linux's irq_enter_rcu; what its handlers call (hrtimer_interrupt) is
# left out; the softirqs run after it drops are traced. No "==========>"
# lines in either case: Linux 6.12 x86_64 prints them for functions in
# __irqentry_text, which holds only its asm entry stubs (untraced).
echo 0 > options/funcgraph-irqs
echo function_graph > current_tracer
sleep 0.1
echo 0 > tracing_on
check "funcgraph-irqs off: do_irq traced, not the timer handler it runs" \
	sh -c "grep -q 'do_irq() {' trace && ! grep -q 'hrtimer_interrupt()' trace"
echo nop > current_tracer
echo 1 > options/funcgraph-irqs
echo 1 > tracing_on
echo function_graph > current_tracer
sleep 0.1
echo 0 > tracing_on
check "funcgraph-irqs on: the handler's calls under do_irq" grep -q '^ [0-3]) .*|    hrtimer_interrupt() {$' trace
echo nop > current_tracer
echo 1 > tracing_on
