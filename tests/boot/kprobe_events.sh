# Kprobe events (trace/trace_kprobe.c, arch/x86_64/kprobes.c): p: and r:
# probes with Linux 6.12's listing, format files and errors (texts and
# carets from the linux-ref rig), records fetched at real hits (registers,
# arguments, $stackN, $comm, dereferences, strings, $retval), filter and
# hist on them, kprobe_profile, dynamic_events; a probe on every
# instruction boundary of a function at once, probes in interrupt context,
# and probes removed while 3 CPUs keep hitting them.
# spoor-exec: --smp 4
. /spoor/lib/tap.sh
echo 1..49
cd /sys/kernel/tracing

echo 'p:rd vfs_read f=$arg1 buf=$arg2:x64 cnt=$arg3:u32 comm=$comm ret=$stack0:symbol' > kprobe_events
echo 'r:rdret vfs_read $retval:s32' >> kprobe_events
echo 'p:grp/pl path_lookup path=+0($arg2):string c0=+0($arg2):u8 sp=%sp' >> kprobe_events
echo 'p vfs_write' >> kprobe_events
is "the listing, as Linux 6.12's" \
	"p:kprobes/rd vfs_read f=\$arg1 buf=\$arg2:x64 cnt=\$arg3:u32 comm=\$comm ret=\$stack0:symbol|r10:kprobes/rdret vfs_read arg1=\$retval:s32|p:grp/pl path_lookup path=+0(\$arg2):string c0=+0(\$arg2):u8 sp=%sp|p:kprobes/p_vfs_write_0 vfs_write" \
	"$(tr '\n' '|' < kprobe_events | sed 's/|$//')"
is "dynamic_events lists them too" "$(cat kprobe_events)" "$(grep -E '^[pr]' dynamic_events)"
is "a kprobe's fields: __probe_ip, then the arguments packed" \
	"unsigned long __probe_ip;8;8;0|u64 f;16;8;0|u64 buf;24;8;0|u32 cnt;32;4;0|__data_loc char[] comm;36;4;1|u64 ret;40;8;0" \
	"$(grep 'field:' events/kprobes/rd/format | tail -n +5 | sed 's/^\tfield:\(.*\);\toffset:\(.*\);\tsize:\(.*\);\tsigned:\(.*\);$/\1;\2;\3;\4/' | tr '\n' '|' | sed 's/|$//')"
is "its print fmt" \
	'print fmt: "(%lx) f=0x%Lx buf=0x%Lx cnt=%u comm=\"%s\" ret=%pS", REC->__probe_ip, REC->f, REC->buf, REC->cnt, __get_str(comm), REC->ret' \
	"$(grep 'print fmt' events/kprobes/rd/format)"
is "a kretprobe's fields and print fmt" \
	'field:unsigned long __probe_func;	offset:8;	size:8;	signed:0;|field:unsigned long __probe_ret_ip;	offset:16;	size:8;	signed:0;|field:s32 arg1;	offset:24;	size:4;	signed:1;|print fmt: "(%lx <- %lx) arg1=%d", REC->__probe_func, REC->__probe_ret_ip, REC->arg1' \
	"$(sed -n 's/^\t//; /__probe\|arg1\|print fmt/p' events/kprobes/rdret/format | tr '\n' '|' | sed 's/|$//')"
check "the events are under events/kprobes and events/grp" test -d events/kprobes/rd -a -d events/grp/pl

echo 1 > events/kprobes/rd/enable
echo 1 > events/kprobes/rdret/enable
echo 1 > events/grp/pl/enable
dd if=/proc/version of=/dev/null bs=7 count=1 2>/dev/null
echo 0 > events/kprobes/enable
echo 0 > events/grp/enable
line=$(grep ' rd: ' trace | grep 'cnt=7 ' | head -n 1)
case $line in
*'rd: (vfs_read+0x0/0x'*' comm="dd" ret=ksys_read+0x'*) r=0 ;;
*) r=1 ;;
esac
result $r "a hit records the probed address, \$arg3, \$comm and \$stack0 as a symbol: $line"
check "the kretprobe records the return value and where the function returned to" \
	grep -q 'rdret: (ksys_read+0x[0-9a-f]*/0x[0-9a-f]* <- vfs_read) arg1=7$' trace
check "a string dereferenced from an argument: path_lookup's path" \
	grep -q 'pl: (path_lookup+0x0/0x[0-9a-f]*) path="/proc/version" c0=47 sp=0xffff' trace
nrd=$(grep -c ' rd: ' trace)
is "kprobe_profile counts the hits" "$nrd" "$(awk '$1 == "rd" { print $2 }' kprobe_profile)"

echo > trace
echo 'cnt == 5' > events/kprobes/rd/filter
echo 'hist:keys=cnt' > events/kprobes/rd/trigger
echo 1 > events/kprobes/rd/enable
dd if=/proc/version of=/dev/null bs=5 count=1 2>/dev/null
dd if=/proc/version of=/dev/null bs=9 count=1 2>/dev/null
echo 0 > events/kprobes/rd/enable
is "the filter keeps only cnt == 5" "1 1" "$(grep -c ' rd: ' trace) $(grep -c ' rd: .*cnt=5 ' trace)"
check "a hist trigger keys on a fetched argument" grep -q '^{ cnt: *9 } hitcount: *1$' events/kprobes/rd/hist
echo '!hist:keys=cnt' > events/kprobes/rd/trigger
echo 0 > events/kprobes/rd/filter

echo 1 > events/kprobes/rd/enable
echo > kprobe_events 2>/dev/null
is "kprobe_events cannot be cleared while an event is traced" 1 $?
echo 0 > events/kprobes/rd/enable

# errors: what Linux 6.12 answers, the message and the caret in error_log
err() {	# err COMMAND: "rc message caret-column"
	echo > error_log
	echo "$1" >> kprobe_events 2>/dev/null
	rc=$?
	msg=$(sed -n 's/.*trace_kprobe: error: //p' error_log)
	caret=$(sed -n '3s/\^.*//p' error_log | wc -c)
	echo "$rc $msg $((caret - 12))"
}
bl=/sys/kernel/debug/kprobes/blacklist
check "the blacklist names do_trap as Linux lists a function: 0xSTART-0xEND<tab>name" \
	grep -q '^0x[0-9a-f]\{16\}-0x[0-9a-f]\{16\}	do_trap$' $bl
check "and not vfs_read, which takes probes" test -z "$(grep '	vfs_read$' $bl)"
last=$(tail -n 1 $bl | cut -f2)
is "its last function is refused as do_trap is" "1 Failed to register probe event 4" "$(err "p:c $last")"
is "inside an instruction" "1 Probe point is not an instruction boundary 4" "$(err 'p:a vfs_read+1')"
is "no such symbol" "1 Invalid probed address or symbol 4" "$(err 'p:b no_such_symbol')"
is "a notrace function (the int3 handler's caller)" "1 Failed to register probe event 4" "$(err 'p:c do_trap')"
is "\$retval on a kprobe" "1 \$retval is not available on probe 13" "$(err 'p:d vfs_read $retval')"
is "a kretprobe not at a function entry" "1 Retprobe address must be an function entry 4" "$(err 'r:e vfs_read+5')"
is "an unknown type" "1 Unknown type is specified 21" "$(err 'p:f vfs_read x=$arg1:u7')"
is "a register that does not exist" "1 Invalid register name 13" "$(err 'p:g vfs_read %zz')"

echo 'p:kprobes/dyn vfs_write $arg3' >> dynamic_events
check "dynamic_events makes a kprobe event" grep -q '^p:kprobes/dyn vfs_write arg1=\$arg3$' kprobe_events
echo '!p:kprobes/dyn vfs_write $arg3' >> dynamic_events
echo '-:grp/pl' >> kprobe_events
is "!p: and -: remove them" "rd rdret p_vfs_write_0" "$(sed 's/ .*//; s/.*\///' kprobe_events | tr '\n' ' ' | sed 's/ $//')"
check "the group's directory goes with its last event" test ! -e events/grp
echo 'p:g2/ vfs_write' >> kprobe_events
check "GROUP/ names the event by default" test -d events/g2/p_vfs_write_0
echo '-:g2/' >> kprobe_events
check "-:GROUP/ removes the group's events" test ! -e events/g2

# bitfields and char: the value dd's count (7 = 0b111) and the path's first byte
echo 'p:bf vfs_read b=$arg3:b2@1/32 c=+0($arg2):char' > kprobe_events
echo 'p:pc path_lookup c=+0($arg2):char' >> kprobe_events
echo 1 > events/kprobes/enable
dd if=/proc/version of=/dev/null bs=7 count=1 2>/dev/null
echo 0 > events/kprobes/enable
is "a bitfield's field and print fmt" 'field:u32 b;	offset:16;	size:4;	signed:0;|print fmt: "(%lx) b=%u c='"'"'%c'"'"'", REC->__probe_ip, REC->b, REC->c' \
	"$(sed -n 's/^\t//; /field:u32 b\|print fmt/p' events/kprobes/bf/format | tr '\n' '|' | sed 's/|$//')"
check "a char prints quoted" grep -q "pc: (path_lookup+0x0/0x[0-9a-f]*) c='/'" trace
grep ' bf: ' trace | grep -q ' b=3 '
result $? "bits 1..2 of a count of 7 are 3"

# arrays: path_lookup's path, as chars and bytes; the format as Linux 6.12's
echo 'p:arr path_lookup a=+0($arg2):char[4] b=+1($arg2):u8[2] c=+0($arg2):x16[2]' > kprobe_events
is "an array's fields and print fmt" \
	"field:u8 a[];	offset:16;	size:4;	signed:0;|field:u8 b[];	offset:20;	size:2;	signed:0;|field:u16 c[];	offset:22;	size:4;	signed:0;|print fmt: \"(%lx) a={'%c','%c','%c','%c'} b={%u,%u} c={0x%x,0x%x}\", REC->__probe_ip, REC->a[0], REC->a[1], REC->a[2], REC->a[3], REC->b[0], REC->b[1], REC->c[0], REC->c[1]" \
	"$(sed -n 's/^\t//; / a\[\]\| b\[\]\| c\[\]\|print fmt/p' events/kprobes/arr/format | tr '\n' '|' | sed 's/|$//')"
echo 1 > events/kprobes/arr/enable
cat /proc/version > /dev/null
echo 0 > events/kprobes/arr/enable
check "an array records its elements" \
	grep -q "arr: (path_lookup+0x0/0x[0-9a-f]*) a={'/','p','r','o'} b={112,114} c={0x702f,0x6f72}" trace
is "an array of a register is refused as Linux refuses it" \
	"1 String accepts only memory argument 15" "$(err 'p vfs_read %ax:u8[2]')"

# user memory: +u<offset>(...) and :ustring, on the path a process hands openat
# (do_sys_openat2's $arg2) and on vfs_symlink's path, a kernel copy (Linux
# 6.12's kprobe_args_user case reads the same two)
echo 'p:uo do_sys_openat2 path=+0($arg2):ustring path2=+u0($arg2):string c=+u0($arg2):u8 k=+0($arg2):u8' > kprobe_events
echo 'p:uk vfs_symlink path=+0($arg3):ustring path2=+u0($arg3):string c=+u0($arg3):u8' >> kprobe_events
echo 'p:uu do_sys_open p=+u0(+u0($arg2)):x64 q=+0(+u0($arg2)):x8' >> kprobe_events
is "the listing keeps +u" 'p:kprobes/uu do_sys_open p=+u0(+u0($arg2)):x64 q=+0(+u0($arg2)):x8' \
	"$(grep uu kprobe_events)"
echo 1 > events/kprobes/enable
/bin/sh -c ': > /dev/null; ln -s foo /tmp/ulink'
echo 0 > events/kprobes/enable
check "a process's path from user memory, as :ustring and as +u0(...):string" \
	grep -q 'uo: (do_sys_openat2+0x0/0x[0-9a-f]*) path="/dev/null" path2="/dev/null" c=47 k=47$' trace
check "user reads of kernel memory fault" \
	grep -q 'uk: (vfs_symlink+0x0/0x[0-9a-f]*) path=(fault) path2=(fault) c=0$' trace
check "the bytes of a path taken as an address fault, read as user or kernel memory" \
	grep -q 'uu: (do_sys_open+0x0/0x[0-9a-f]*) p=0x0 q=0x0$' trace
is "an array from user memory is refused, Linux's caret" \
	"1 String accepts only memory argument 30" "$(err 'p do_sys_open a=+u0($arg2):u8[4]')"
is "symstr from user memory is refused" \
	"1 Symbol String doesn't accept data/userdata 30" "$(err 'p do_sys_open a=+u0($arg2):symstr')"
is "+u with no offset" "1 Invalid dereference offset 16" "$(err 'p do_sys_open a=+u(%ax):x8')"

# %pD and %pd: the name of a struct file's dentry, of a dentry; a process's read
# of /proc/version goes through vfs_read as on Linux
echo 'p:pn vfs_read name=$arg1:%pD' > kprobe_events
echo 'p:pd dput $arg1:%pd' >> kprobe_events
is "%pD and %pd are strings in the format" '__data_loc char[] name;|__data_loc char[] arg1;' \
	"$(sed -n 's/^\tfield:\(__data_loc char\[\] [a-z0-9]*;\).*/\1/p' events/kprobes/pn/format events/kprobes/pd/format | tr '\n' '|' | sed 's/|$//')"
echo 1 > events/kprobes/enable
/bin/sh -c 'cat /proc/version > /dev/null'
echo 0 > events/kprobes/enable
check "vfs_read's file by name (%pD), from a process's read" \
	grep -q 'pn: (vfs_read+0x0/0x[0-9a-f]*) name="version"$' trace
check "the dentry put after it by name (%pd)" grep -q 'pd: (dput+0x0/0x[0-9a-f]*) arg1="version"$' trace

# every instruction boundary of vfs_read at once: emulated jumps, copies run out of line
echo > kprobe_events
n=0
for off in $(seq 1 200); do
	echo "p:o$off vfs_read+$off" >> kprobe_events 2>/dev/null && n=$((n + 1))
done
echo 1 > events/kprobes/enable
sum1=$(md5sum < /proc/version)
sum2=$(md5sum < /proc/version)
echo 0 > events/kprobes/enable
hit=$(awk '$2 > 0' kprobe_profile | wc -l)
[ "$n" -ge 10 ] && [ "$hit" -ge 5 ] && [ "$sum1" = "$sum2" ]
result $? "probes on $n instruction boundaries of vfs_read at once, $hit of them hit, reads unchanged"
echo > kprobe_events

# interrupt context: the timer tick
echo 'p:tick scheduler_tick' > kprobe_events
echo 1 > events/kprobes/tick/enable
# A tick lands within 1 ms of guest time; a loaded host can stall the guest
# longer than one short sleep, so wait (up to 2 s) for the first hits.
n=0
while [ $n -lt 20 ] && ! grep -q ' tick: (scheduler_tick+0x0/0x' trace; do
	sleep 0.1
	n=$((n + 1))
done
echo 0 > events/kprobes/tick/enable
ticks=$(grep -c ' tick: (scheduler_tick+0x0/0x' trace)
hard=$(grep ' tick: (scheduler_tick+0x0/0x' trace | grep -c '\] d.[hH]')
[ "$ticks" -gt 0 ] && [ "$ticks" = "$hard" ]
r=$?
grep ' tick: (scheduler_tick+0x0/0x' trace | grep -v '\] d.[hH]' | head -n 3 | sed 's/^/# /'
result $r "a probe in the timer interrupt: $ticks hits, $hard with the hardirq flag (h, or H inside a softirq)"

# a probe in every probeable function at once (over 1,000; a few names are taken
# twice by static functions: EEXIST, as on Linux), armed for one command
echo > kprobe_events
n=0
for f in $(grep -v '\.' available_filter_functions); do
	echo "p $f+5" >> kprobe_events 2>/dev/null && n=$((n + 1))
done
echo 1 > events/kprobes/enable
cat /proc/version > /dev/null
echo 0 > events/kprobes/enable
hit=$(awk '$2 > 0 { n++ } END { print n + 0 }' kprobe_profile)
echo > kprobe_events
[ "$n" -ge 1000 ] && [ "$hit" -ge 20 ] && [ -z "$(cat kprobe_events)" ]
result $? "$n probes at once, one in every function that takes one: $hit of them hit by one command, all removed"

# hundreds of probes and kretprobes on hot functions (kmalloc, kfree, schedule), the
# function tracer on every function too, 3 CPUs loaded
echo > kprobe_events
n=0
for f in $(grep -v '\.' available_filter_functions | head -300); do
	echo "p $f+5 \$arg1 \$stack0" >> kprobe_events 2>/dev/null && n=$((n + 1))
done
for f in vfs_read vfs_write kmalloc kfree schedule path_lookup; do
	echo "r $f \$retval" >> kprobe_events
done
for i in 1 2 3; do
	(while [ ! -e /tmp/stop ]; do cat /proc/version > /dev/null; ls /proc > /dev/null; done) &
done
echo function > current_tracer
for i in 1 2 3; do
	echo 1 > events/kprobes/enable
	sleep 0.2
	echo 0 > events/kprobes/enable
done
echo nop > current_tracer
touch /tmp/stop
wait
rm -f /tmp/stop
hits=$(awk '{ h += $2 } END { print h }' kprobe_profile)
echo > kprobe_events
[ "$n" -ge 200 ] && [ "$hits" -gt 1000 ] && [ -z "$(cat kprobe_events)" ]
result $? "$n probes and 6 kretprobes with the function tracer on, under load: $hits hits, all removed"

# removal while other CPUs keep hitting the probe
echo 'p:busy vfs_read $arg3' > kprobe_events
echo 'r:busyret vfs_read $retval' >> kprobe_events
for i in 1 2 3; do
	(while [ ! -e /tmp/stop ]; do cat /proc/version > /dev/null; done) &
done
for i in $(seq 1 15); do
	echo 1 > events/kprobes/enable
	sleep 0.02
	echo 0 > events/kprobes/enable
done
touch /tmp/stop
wait
hits=$(grep -c ' busyret: ' trace)
echo > kprobe_events
rm -f /tmp/stop
[ "$hits" -gt 0 ] && [ -z "$(cat kprobe_events)" ]
result $? "15 rounds of arming and disarming under load on 3 CPUs ($hits returns traced), all removed"
