# Events from NMI and irq context arrive whole while tasks on every CPU
# trace at full rate: cpuhog threads keep all 4 CPUs busy with
# sched/irq/timer/kmem events enabled, while NMIs sent to every CPU
# (/sys/kernel/debug/trace_selftest "nmi N") land in the middle of those
# writers and record nmi:nmi_handler from NMI context.
T=/sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
. /spoor/lib/tap.sh
echo 1..9
cd $T
echo 4096 > buffer_size_kb
echo > trace
echo 'sched:* irq:* timer:* kmem:kmalloc kmem:kfree nmi:*' > set_event
cpuhog 4 1500 &
pingpong 2 2000 &
kmalloc-storm 2 3000 512 &
sleep 0.2
echo nmi 200 > $S
res=$(cat $S)
wait
echo > set_event
check "every NMI was answered ($res)" test "$res" = "nmi: sent 800 handled 800"
grep -v '^#' trace > /tmp/lines
grep ' nmi_handler: ' /tmp/lines > /tmp/nmi
check "800 nmi_handler records ($(wc -l < /tmp/nmi))" test "$(wc -l < /tmp/nmi)" = 800
check "each says so: trace_selftest_nmi() handled: 1" test "$(grep -cE ': nmi_handler: trace_selftest_nmi\(\) delta_ns: [0-9]+ handled: 1$' /tmp/nmi)" = 800
check "all marked NMI context (Z)" test "$(grep -cE '\] [.dDbX][.Nnp]Z[.0-9a-f][.0-9a-f] ' /tmp/nmi)" = 800
for c in 000 001 002 003; do
	check "CPU $c got its 200" test "$(grep -c "\[$c\]" /tmp/nmi)" = 200
done
bad=$(grep -cvE '^ +[^ ].*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.ZzHhs][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: [a-z_]+: ' /tmp/lines)
check "every line of $(wc -l < /tmp/lines) is well formed, irq lines included ($bad bad)" test "$bad" = 0 -a "$(grep -c ' irq_handler_entry: ' /tmp/lines)" -gt 0
