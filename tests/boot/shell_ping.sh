# ping answers for loopback only: the wake-up source Linux's ftrace
# selftests use (ping $LOCALHOST -c 3), so their hist scripts find a
# task named ping being woken.
. /spoor/lib/tap.sh
echo 1..5
cd /sys/kernel/tracing
echo 'hist:keys=comm:vals=hitcount if comm=="ping"' > events/sched/sched_waking/trigger
out=$(ping 127.0.0.1 -c 3 -i 0.2)
result $? "ping -c 3 exits 0"
is "three replies" 3 "$(echo "$out" | grep -c '^64 bytes from 127.0.0.1: icmp_seq=[123] ttl=64 time=')"
echo "$out" | grep -q '^3 packets transmitted, 3 received, 0% packet loss'
result $? "statistics line"
check "sched_waking saw ping woken" grep -q 'comm: ping ' events/sched/sched_waking/hist
echo '!hist:keys=comm:vals=hitcount if comm=="ping"' > events/sched/sched_waking/trigger
ping -c 1 10.0.0.1 2>/tmp/err
is "other hosts are unreachable" "2 ping: connect: Network is unreachable" "$? $(cat /tmp/err)"
