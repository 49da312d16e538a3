# System-call tracing: the raw_syscalls events and the per-syscall
# syscalls:sys_enter_NAME / sys_exit_NAME events. First what needs no
# system call to run: their format files against Linux 6.12's, the files of
# an event directory, available_events, enable/set_event, filters,
# triggers and hist triggers accepted on them. Then what needs a ring-3
# program (/bin/hello: arch_prctl, set_tid_address, ioctl, writev,
# exit_group under musl): records, Linux's trace text, filters and
# triggers on real calls, hist .syscall names. Without ring 3 those fail,
# each saying so.
# spoor-exec: --file tests/unit/trace_ref/raw_syscalls/sys_enter/format:/tmp/ref/sys_enter --file tests/unit/trace_ref/raw_syscalls/sys_exit/format:/tmp/ref/sys_exit --file tests/unit/trace_ref/syscalls/formats:/tmp/ref/syscalls
T=/sys/kernel/tracing
E=$T/events/syscalls
. /spoor/lib/tap.sh
echo 1..27

# --- formats and files ----------------------------------------------------------------
for e in sys_enter sys_exit; do
	grep -v '^ID:' /tmp/ref/$e > /tmp/want
	grep -v '^ID:' $T/events/raw_syscalls/$e/format > /tmp/got
	check "raw_syscalls:$e format matches Linux" diff /tmp/want /tmp/got
done
# Every syscalls:* event Linux's capture has, in its order.
grep '^name: ' /tmp/ref/syscalls | cut -d' ' -f2 > /tmp/names
for e in $(cat /tmp/names); do cat $E/$e/format; done | grep -v '^ID:' > /tmp/got
grep -v '^ID:' /tmp/ref/syscalls > /tmp/want
check "all $(wc -l < /tmp/names) syscalls:* formats match Linux's" diff /tmp/want /tmp/got
is "sys_enter_openat's files" "enable filter format hist hist_debug id trigger" \
	"$(ls $E/sys_enter_openat | sort | tr '\n' ' ' | sed 's/ $//')"
id=$(cat $E/sys_exit_openat/id)
check "sys_exit_openat id $id is its format's ID" grep -q "^ID: $id\$" $E/sys_exit_openat/format
is "available_events lists 262 syscalls events" 262 "$(grep -c '^syscalls:sys_' $T/available_events)"
check "available_events lists raw_syscalls and syscalls:sys_{enter,exit}_openat" \
	test "$(grep -cE '^(raw_syscalls:sys_(enter|exit)|syscalls:sys_(enter|exit)_openat)$' $T/available_events)" = 4

# --- switching them ---------------------------------------------------------------------
is "events/syscalls/enable reads 0" 0 "$(cat $E/enable)"
echo 'syscalls:sys_enter_close' > $T/set_event
is "set_event enables syscalls:sys_enter_close" "1 syscalls:sys_enter_close" \
	"$(cat $E/sys_enter_close/enable) $(cat $T/set_event)"
echo 1 > $E/enable
is "events/syscalls/enable 1 enables all" "1 1" "$(cat $E/enable) $(cat $E/sys_exit_getdents64/enable)"
echo 0 > $E/enable
is "and 0 disables all" "0 " "$(cat $E/enable) $(cat $T/set_event)"
echo 'ret < 0' > $E/sys_exit_openat/filter
is "a filter on ret" "ret < 0" "$(cat $E/sys_exit_openat/filter)"
if echo 'nosuch == 1' > $E/sys_exit_openat/filter 2>/dev/null; then
	not_ok "a filter on a field the event lacks is refused"
else
	ok "a filter on a field the event lacks is refused"
fi
echo 0 > $E/sys_exit_openat/filter
echo 'traceoff if ret < 0' > $E/sys_exit_openat/trigger
is "a traceoff trigger, soft mode" "traceoff:unlimited if ret < 0 0*" \
	"$(cat $E/sys_exit_openat/trigger) $(cat $E/sys_exit_openat/enable)"
echo '!traceoff' > $E/sys_exit_openat/trigger
echo 'hist:keys=fd' > $E/sys_enter_read/trigger
check "a hist trigger on an argument" grep -qF \
	'# trigger info: hist:keys=fd:vals=hitcount:sort=hitcount:size=2048 [active]' $E/sys_enter_read/hist
echo '!hist:keys=fd' > $E/sys_enter_read/trigger
echo 'hist:keys=__syscall_nr.syscall' > $E/sys_enter_read/trigger
check "__syscall_nr takes .syscall" grep -qF \
	'# trigger info: hist:keys=__syscall_nr.syscall:vals=hitcount:sort=hitcount:size=2048 [active]' \
	$E/sys_enter_read/hist
echo '!hist:keys=__syscall_nr.syscall' > $E/sys_enter_read/trigger

# --- with system calls from ring 3 ------------------------------------------------------------
# hello is run once per step: every step needs a fresh trace or histogram.
hello() {
	/bin/hello > /tmp/hello.out 2>&1
}
hello
is "ring 3: /bin/hello runs" "hello, world" "$(cat /tmp/hello.out 2>/dev/null)"

echo 'hist:keys=id.syscall:sort=id' > $T/events/raw_syscalls/sys_enter/trigger
hello
grep '^{ id: ' $T/events/raw_syscalls/sys_enter/hist > /tmp/ids
for sc in 'sys_writev                    [ 20]' 'sys_exit_group                [231]'; do
	check "hist id.syscall: { id: $sc }" grep -qF "{ id: $sc }" /tmp/ids
done
check "hist id.syscall names every number hello made" test -s /tmp/ids -a "$(grep -c unknown_syscall /tmp/ids)" = 0
echo '!hist:keys=id.syscall:sort=id' > $T/events/raw_syscalls/sys_enter/trigger

echo > $T/trace
echo 1 > $E/sys_enter_writev/enable
echo 1 > $E/sys_exit_writev/enable
echo 1 > $T/events/raw_syscalls/sys_exit/enable
hello
echo 0 > $T/events/enable
grep -v '^#' $T/trace > /tmp/lines
check "sys_enter_writev: Linux's text, preempt depth 1 as Linux's" \
	grep -qE '^ +hello-[0-9]+ +\[[0-9]{3}\] \.\.\.1\. +[0-9]+\.[0-9]{6}: sys_writev\(fd: 1, vec: [0-9a-f]+, vlen: [0-9a-f]+\)$' /tmp/lines
check "sys_exit_writev: sys_writev -> 0xd (13 bytes)" grep -qE ': sys_writev -> 0xd$' /tmp/lines
check "raw_syscalls:sys_exit beside it: NR 20 = 13" grep -qE '\.\.\.\.\. +[0-9]+\.[0-9]{6}: sys_exit: NR 20 = 13$' /tmp/lines
grep -E ': sys_[a-z_0-9]+(\(| -> )' /tmp/lines > /tmp/calls
is "the per-syscall events gave writev's two lines and nothing else" "2 0" \
	"$(grep -c 'sys_writev' /tmp/calls) $(grep -vc 'sys_writev' /tmp/calls)"

echo > $T/trace
echo 'fd == 2' > $E/sys_enter_writev/filter
echo 1 > $E/sys_enter_writev/enable
hello
first=$(grep -c 'sys_writev(' $T/trace)
echo 'fd == 1' > $E/sys_enter_writev/filter
hello
echo 0 > $E/sys_enter_writev/enable
echo 0 > $E/sys_enter_writev/filter
is "a filter on fd: fd == 2 keeps none, fd == 1 keeps hello's" "0 1" "$first $(grep -c 'sys_writev(' $T/trace)"

echo 'hist:keys=fd' > $E/sys_enter_writev/trigger
hello
check "hist on sys_enter_writev counts fd 1" grep -qF '{ fd:          1 } hitcount:          1' $E/sys_enter_writev/hist
echo '!hist:keys=fd' > $E/sys_enter_writev/trigger

echo 'traceoff' > $E/sys_enter_exit_group/trigger
hello
is "a traceoff trigger on sys_enter_exit_group (not enabled) stops tracing" 0 "$(cat $T/tracing_on)"
echo '!traceoff' > $E/sys_enter_exit_group/trigger
echo 1 > $T/tracing_on
