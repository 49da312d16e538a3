# user/ue_tevgen: a program whose user_events header spoor tevgen -u made from
# user/ue_tevgen/ue_demo.tev registers both events, sees its enable bits flip,
# writes; the trace, a histogram of its requests and its own report agree.
# spoor-exec: --smp 4 --timeout 120
. /spoor/lib/tap.sh
T=/sys/kernel/tracing
R=$T/events/user_events/demo_request
X=$T/events/user_events/demo_error
echo 1..14

# wait_for COMMAND...: up to 10 s for it to succeed
wait_for() {
	local i=0
	while ! "$@" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	"$@"
}

ue_tevgen 300 > /tmp/ue.out &
pid=$!
check "demo_request and demo_error registered" wait_for test -e $X/enable
# (its line comes after the registrations and a first write: a loaded host showed the gap)
wait_for grep -q '^registered:' /tmp/ue.out
is "before any tracing: the check is off, a write is EBADF" "registered: enabled=0 emit=-9" "$(cat /tmp/ue.out)"
is "format: the spec's fields" '	field:u32 bytes;	offset:8;	size:4;	signed:0;
	field:u64 latency_ns;	offset:12;	size:8;	signed:0;
	field:__data_loc char[] path;	offset:20;	size:4;	signed:1;' "$(grep 'field:' $R/format | grep -v common_)"
is "user_events_status lists both" "demo_request
demo_error" "$(grep ^demo $T/user_events_status)"

# The hist trigger sets the enable bit first: it must see the very first record.
echo 'hist:keys=path:vals=hitcount,bytes,latency_ns:sort=bytes' > $R/trigger
echo 1 > $R/enable
echo 1 > $X/enable
check "the program wrote every record" wait_for grep -q "wrote 300 of 300 requests, 30 errors" /tmp/ue.out
is "300 demo_request records in trace" 300 "$(grep -c ' demo_request: ' $T/trace)"
is "30 demo_error records in trace" 30 "$(grep -c ' demo_error: ' $T/trace)"
check "trace text of a request" grep -q "ue_tevgen-$pid .* demo_request: bytes=0x10000 (65536) latency_ns=0xdbba0 (900000) path=/srv/big.iso$" $T/trace
check "trace text of an error" grep -q "demo_error: err=0xfffffffe (-2) path=/srv/logo.png$" $T/trace
is "hist: per path sums" "{ path: /srv/index.html                                    } hitcount:        100  bytes:      51200  latency_ns:    2000000
{ path: /srv/logo.png                                      } hitcount:        100  bytes:     409600  latency_ns:    3500000
{ path: /srv/big.iso                                       } hitcount:        100  bytes:    6553600  latency_ns:   90000000" "$(grep '^{' $R/hist)"
is "hist: Hits" "    Hits: 300" "$(grep Hits: $R/hist)"

# Nothing traces demo_request any more: the program sees its bit clear and leaves.
echo 0 > $R/enable
echo '!hist:keys=path:vals=hitcount,bytes,latency_ns:sort=bytes' > $R/trigger
echo 0 > $X/enable
wait $pid
is "the program's exit status" 0 $?
is "its bit cleared, unregistered" "disabled: unregister=0" "$(tail -1 /tmp/ue.out)"
check "the events went with their last user" wait_for test ! -e $R
