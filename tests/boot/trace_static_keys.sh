# Static branch sites as the guest sees them (/sys/kernel/debug/static_keys,
# kernel/jump_label_debugfs.c): NOPs at boot, JMPs exactly while their
# event is enabled, NOPs again after; then the sites flipped in a loop
# while all 4 CPUs run through them (cpuhog, pingpong): no crash, every
# site back to a NOP, every trace line well formed.
T=/sys/kernel/tracing
K=/sys/kernel/debug/static_keys
. /spoor/lib/tap.sh
state() {	# state KEY-SYMBOL: the states of that key's sites, one word each
	grep " $1+" $K | cut -d' ' -f2 | tr '\n' ' '
}
echo 1..12
cd $T
total=$(grep -c . $K)
check "every one of $total sites is a NOP at boot" test "$(grep -c ' nop ' $K)" = "$total" -a "$total" -ge 15
check "lines are: address state site key" test "$(grep -cvE '^[0-9a-f]{16} (nop|jmp) [a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ [a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+$' $K)" = 0
sw=$(state __tracepoint_sched_switch)
check "sched_switch has a site ($sw)" test -n "$sw"
echo 1 > events/sched/sched_switch/enable
check "enabled: its sites jump ($(state __tracepoint_sched_switch))" test "$(state __tracepoint_sched_switch | grep -c nop)" = 0
check "and only those ($(grep -c ' jmp ' $K) jmp)" test "$(grep -c ' jmp ' $K)" = "$(grep -c ' __tracepoint_sched_switch+' $K)"
echo 0 > events/sched/sched_switch/enable
check "disabled: NOPs again" test "$(grep -c ' nop ' $K)" = "$total"
echo 1 > events/irq/enable
# sched_switch too: its probe saves task names while any event is on, as Linux's does.
check "irq/enable flips the irq tracepoints' sites, and sched_switch's" test "$(grep ' jmp ' $K | grep -cE ' __tracepoint_(irq_handler_entry|irq_handler_exit|softirq_entry|softirq_exit|sched_switch)\+')" = "$(grep -c ' jmp ' $K)" -a "$(grep ' jmp ' $K | grep -c ' __tracepoint_[a-z]*irq_')" -ge 4
echo 0 > events/irq/enable
check "and back" test "$(grep -c ' nop ' $K)" = "$total"
# The stress: flips under load on every CPU.
echo > trace
cpuhog 4 3000 &
pingpong 2 20000 &
i=0
while [ $i -lt 60 ]; do
	echo 1 > events/sched/sched_switch/enable
	echo 1 > events/irq/enable
	echo 1 > events/timer/enable
	echo 0 > events/sched/sched_switch/enable
	echo 0 > events/irq/enable
	echo 0 > events/timer/enable
	i=$((i + 1))
done
flips=$i
wait
check "$flips rounds of 3 events on/off under load on 4 CPUs: still running" test "$flips" = 60
check "every site a NOP again" test "$(grep -c ' nop ' $K)" = "$total"
grep -v '^#' trace > /tmp/lines
bad=$(grep -cvE '^ +[^ ].*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.ZzHhs][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: (sched_switch|irq_handler_entry|irq_handler_exit|softirq_entry|softirq_exit|hrtimer_expire_entry): ' /tmp/lines)
check "the $(wc -l < /tmp/lines) lines written meanwhile are well formed ($bad bad)" test "$bad" = 0 -a "$(wc -l < /tmp/lines)" -gt 0
cpus=$(grep -oE '\[00[0-3]\]' /tmp/lines | sort -u | tr -d '\n')
check "from every CPU ($cpus)" test "$cpus" = "[000][001][002][003]"
