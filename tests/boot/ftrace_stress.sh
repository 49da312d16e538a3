# Tracers, function filters, probes, events and triggers flipped at once while
# workloads run on every CPU and NMIs fire: every tracer available_tracers lists
# (each switch repatches every call site by the int3 protocol), set_ftrace_filter
# globs, kprobes and kretprobes armed and removed, an event with a hist trigger
# toggled; then every function traced for 5 s under the same load and NMIs. The
# kernel must come out answering, with nothing left armed and every record it kept
# well formed.
# spoor-exec: --timeout 240
T=/sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
. /spoor/lib/tap.sh
echo 1..10
cd $T
: > /tmp/all
echo 256 > buffer_size_kb
tracers=$(cat available_tracers)
cpuhog 4 8000 &
pingpong 2 40000 &
kmalloc-storm 2 40000 128 &
(while [ ! -e /tmp/stop ]; do forkloop 5 > /dev/null; cat /proc/version > /dev/null; done) &
sleep 0.2
bad=0 nmis=0 rounds=0
for glob in '' 'k*' '*sched*' 'vfs_*'; do
	for t in $tracers; do
		echo "$glob" > set_ftrace_filter || bad=1
		echo $t > current_tracer || bad=1
		echo 'p:kp vfs_read $arg3' > kprobe_events || bad=1
		echo 'r:kr kmalloc $retval' >> kprobe_events || bad=1
		echo 1 > events/kprobes/enable || bad=1
		echo 'hist:keys=common_pid:vals=bytes_req' > events/kmem/kmalloc/trigger || bad=1
		echo 1 > events/sched/sched_switch/enable || bad=1
		echo nmi 10 > $S
		[ "$(cat $S)" = "nmi: sent 40 handled 40" ] && nmis=$((nmis + 40))
		sleep 0.05
		# the function tracer's records, with the events between them
		[ $t = function ] && grep -v '^#' trace >> /tmp/all
		echo 0 > events/sched/sched_switch/enable || bad=1
		echo '!hist:keys=common_pid:vals=bytes_req' > events/kmem/kmalloc/trigger || bad=1
		echo 0 > events/kprobes/enable || bad=1
		echo > kprobe_events || bad=1
		rounds=$((rounds + 1))
	done
	# progress, for a log cut short by a timeout
	echo "# filter '$glob': every tracer done at $(cut -d' ' -f1 /proc/uptime) s"
done
echo nop > current_tracer
echo > set_ftrace_filter
# then every function traced for 5 s, the same load, NMIs on every CPU each half second
echo function > current_tracer
fnmis=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo nmi 10 > $S
	[ "$(cat $S)" = "nmi: sent 40 handled 40" ] && fnmis=$((fnmis + 40))
	sleep 0.5
done
echo 0 > tracing_on
grep -v '^#' trace > /tmp/fn
echo nop > current_tracer
echo 1 > tracing_on
echo "# 5 s of every function traced, done at $(cut -d' ' -f1 /proc/uptime) s"
touch /tmp/stop
wait
echo "# the workloads ended at $(cut -d' ' -f1 /proc/uptime) s"
rm -f /tmp/stop
n=$(echo $tracers | wc -w)
result $bad "$rounds rounds over $n tracers ($tracers), filters, probes, triggers and events under load: every write taken"
is "NMIs answered through it all" "$((rounds * 40))" "$nmis"
is "nothing left armed: kprobe_events" "" "$(cat kprobe_events)"
is "nothing left armed: enabled_functions" "" "$(cat enabled_functions)"
is "nothing left armed: the kmalloc trigger" "# Available triggers:" "$(head -n 1 events/kmem/kmalloc/trigger)"
check "records were kept ($(wc -l < /tmp/all) lines)" test -s /tmp/all
is "5 s of every function traced: NMIs answered" 400 "$fnmis"
check "5 s of every function traced: every CPU recorded calls" \
	test "$(awk '/: [A-Za-z_0-9.]+ <-/ { cpu[$2] = 1 } END { for (c in cpu) n++; print n }' /tmp/fn)" = 4
check "5 s of every function traced: every line a call" \
	sh -c "! grep -vE '^ +.*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.hHsZ][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: [A-Za-z_0-9.]+ <-' /tmp/fn"
check "every line well formed" sh -c "! grep -vE '^ +.*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.hHsZ][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: ' /tmp/all"
echo 1408 > buffer_size_kb
