# The function tracer: Linux's files and output, filters, instances, and
# every function traced on 4 CPUs under load with NMIs firing while the
# tracer is switched on and off (each switch patches every call site by
# the int3 protocol while the workloads run through them).
# spoor-exec: --timeout 180
T=/sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
. /spoor/lib/tap.sh
echo 1..30
cd $T
check "available_tracers lists function_graph, the latency tracers, function, nop" grep -q '^function_graph wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff function nop$' available_tracers
n=$(wc -l < available_filter_functions)
check "available_filter_functions lists the sites ($n)" test "$n" -gt 500
check "available_filter_functions_addrs has one address per site" \
	test "$(grep -cE '^ffffffff[0-9a-f]{8} [A-Za-z_.0-9]+$' available_filter_functions_addrs)" = "$n"
# 16-byte records, 256 to a page, in one group
is "dyn_ftrace_total_info counts the sites and the pages of their table" \
	"$n pages:$(( (n * 16 + 4095) / 4096 )) groups: 1" "$(cat dyn_ftrace_total_info)"
is "an empty filter traces all" "#### all functions enabled ####" "$(cat set_ftrace_filter)"
is "an empty notrace list" "#### no functions disabled ####" "$(cat set_ftrace_notrace)"
echo 'kmalloc kfree' > set_ftrace_filter
is "names" "kmalloc kfree" "$(sort -r set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
echo 'vfs_r*' >> set_ftrace_filter
check "a glob appends" grep -q '^vfs_read$' set_ftrace_filter
echo '!kfree' >> set_ftrace_filter
check "! removes" sh -c '! grep -q "^kfree\$" set_ftrace_filter'
echo no_such_function_x >> set_ftrace_filter 2>/dev/null
result $((! $?)) "a name that matches nothing is refused"
check "and the filter kept" grep -q '^kmalloc$' set_ftrace_filter
echo 'kmalloc schedule' > set_ftrace_filter
echo function > current_tracer
is "current_tracer" function "$(cat current_tracer)"
is "enabled_functions: the filtered sites" "kmalloc (1)|schedule (1)" \
	"$(sort enabled_functions | tr '\n' '|' | sed 's/|$//')"
kmalloc-storm 2 200 64
echo 0 > tracing_on
check "the header names the tracer" grep -q '^# tracer: function$' trace
grep -v '^#' trace > /tmp/fn
check "Linux's line: TASK-PID [CPU] flags TS: func <-parent" \
	grep -qE '^ +kmalloc/[01]-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.hHsZ][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: kmalloc <-[a-z_]' /tmp/fn
check "only the filtered functions" sh -c "! grep -vE ': (kmalloc|schedule) <-' /tmp/fn"
echo nop > current_tracer
echo 1 > tracing_on
is "nop: no site calls the tracer" 0 "$(wc -l < enabled_functions)"
check "touched_functions remembers them" grep -q '^schedule ' touched_functions
echo > set_ftrace_filter
echo '*lock*' > set_ftrace_notrace
mkdir instances/fi
echo kfree > instances/fi/set_ftrace_filter
echo function > instances/fi/current_tracer
echo function > current_tracer
kmalloc-storm 1 50 64
check "an instance traces its own filter" sh -c "grep -q ': kfree <-' instances/fi/trace && ! grep -v '^#' instances/fi/trace | grep -qv ': kfree <-'"
check "the top level traces all but notrace" sh -c "grep -q ': kfree <-' trace && ! grep -v '^#' trace | grep -q ': [a-z_]*lock[a-z_]* <-'"
is "kfree wanted by both" "kfree (2)" "$(grep '^kfree ' enabled_functions)"
rmdir instances/fi
check "rmdir with the tracer on" test ! -d instances/fi
echo > set_ftrace_notrace
echo nop > current_tracer
# Every function, on and off, under load on 4 CPUs with NMIs.
echo 2048 > buffer_size_kb
cpuhog 4 5000 &
pingpong 2 20000 &
kmalloc-storm 2 20000 256 &
sleep 0.2
bad=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo function > current_tracer || bad=1
	echo nmi 50 > $S
	r=$(cat $S)
	[ "$r" = "nmi: sent 200 handled 200" ] || bad=1
	sleep 0.3
	echo nop > current_tracer || bad=1
done
echo function > current_tracer
sleep 1
echo 0 > tracing_on
wait
result $bad "10 switches of every site under load, NMIs answered"
grep -v '^#' trace > /tmp/all
check "every CPU recorded functions" test "$(awk '{print $2}' /tmp/all | sort -u | grep -c '^\[00[0-3]\]$')" = 4
check "every line well formed" sh -c "! grep -vE '^ +.*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.hHsZ][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: [A-Za-z_0-9.]+ <-' /tmp/all"
echo nop > current_tracer
echo 1 > tracing_on

# The output options, as Linux's seq_print_ip_sym: sym-addr adds the address,
# sym-offset +off/size, print-parent off drops the caller; stacks follow them.
vfs=$(grep ' vfs_read$' /proc/kallsyms | cut -d' ' -f1)
echo vfs_read > set_ftrace_filter
echo function > current_tracer
line() {	# OPTION VALUE: set it, trace one cat, print its first vfs_read line's text
	echo $2 > options/$1
	echo > trace
	cat trace_options > /dev/null
	grep -m 1 -o 'vfs_read.*' trace
}
is "function: plain" "vfs_read <-ksys_read" "$(line sym-addr 0)"
is "... sym-addr" "vfs_read <$vfs> <-ksys_read <" "$(line sym-addr 1 | sed 's/<[0-9a-f]*>$/</')"
is "... sym-offset too" "vfs_read+0x0/" "$(line sym-offset 1 | sed 's|/.*|/|')"
is "... print-parent off" "vfs_read <$vfs>" "$(echo 0 > options/sym-offset; line print-parent 0)"
echo 1 > options/print-parent
echo 'vfs_read:stacktrace' > set_ftrace_filter
echo > trace
cat trace_options > /dev/null
check "a stack frame with sym-addr: ' => symbol <address>'" grep -qE '^ => [a-z_0-9]+ <[0-9a-f]{16}>$' trace
echo 0 > options/sym-addr
echo nop > current_tracer
echo > set_ftrace_filter
