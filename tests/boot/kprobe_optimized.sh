# Jump-optimized kprobes (arch/x86_64/kprobes_opt.c): the sysctl and the
# debugfs listing, which boundaries of kernel_clone get a jmp, a region
# holding another probe or a kretprobe's site kept on int3, records that
# are the same whether the probes are optimized or not, and probes
# optimized, unoptimized and removed while 4 CPUs keep hitting them.
# spoor-exec: --smp 4 --timeout 240
. /spoor/lib/tap.sh
echo 1..17
cd /sys/kernel/tracing
O=/proc/sys/debug/kprobes-optimization
L=/sys/kernel/debug/kprobes/list

is "optimization is on by default" 1 "$(cat $O)"
bad=0
echo 2 > $O 2>/dev/null && bad=1
echo -1 > $O 2>/dev/null && bad=1
echo 0 > $O || bad=1
[ "$(cat $O)" = 0 ] || bad=1
echo 1 > $O || bad=1
is "only 0 and 1 are taken" "0 1" "$bad $(cat $O)"

# wait_list PATTERN [TRIES]: up to TRIES x 20 ms (default 5 s) for the listing
# to match (the optimizer is lazy)
wait_list() {
	local i=0
	while [ $i -lt ${2:-250} ]; do
		grep -q "$1" $L && return 0
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}

# Each boundary of kernel_clone's first 256 bytes alone, first through
# int3 then optimized where it can be: a fork hits the same ones.
# pass MODE: probe each boundary, list the offsets hit (and optimized)
pass() {
	local i
	echo $1 > $O
	: > /tmp/hit.$1
	for i in $(seq 0 255); do
		echo "p:kc kernel_clone+$i" > kprobe_events 2>/dev/null || continue
		echo 1 > events/kprobes/kc/enable
		if [ $1 = 1 ]; then
			# 300 ms, 60 times the optimizer's 5 ms delay (a boundary it
			# missed would count as int3: no check below depends on one)
			if wait_list 'kernel_clone+.*\[OPTIMIZED\]' 15; then opt="$opt $i"; else plain="$plain $i"; fi
		fi
		( true )
		[ "$(awk '$1 == "kc" { print $2 }' kprobe_profile)" -ge 1 ] && echo $i >> /tmp/hit.$1
		echo 0 > events/kprobes/kc/enable
		echo > kprobe_events
	done
}
opt="" plain=""
pass 0
pass 1
set -- $opt
nopt=$#
set -- $plain
nplain=$#
echo "# optimized:$opt"
echo "# int3:$plain"
check "some boundaries are optimized ($nopt), some stay int3 ($nplain)" \
	test $nopt -ge 5 -a $nplain -ge 1
check "a fork hits the same $(wc -l < /tmp/hit.1) of them either way" diff /tmp/hit.0 /tmp/hit.1
is "none is left" "" "$(cat $L)"

# Two optimized boundaries less than 5 bytes apart: while the second is
# there, the first's region holds it and the first stays int3.
set -- $opt
a="" b=""
for i in $opt; do
	for j in $opt; do
		if [ -z "$a" ] && [ $j -gt $i ] && [ $((j - i)) -lt 5 ]; then a=$i b=$j; fi
	done
done
if [ -n "$a" ]; then
	echo "p:ka kernel_clone+$a" > kprobe_events
	echo 1 > events/kprobes/ka/enable
	wait_list "kernel_clone+0x$(printf %x $a) .*OPTIMIZED"
	echo "p:kb kernel_clone+$b" >> kprobe_events
	echo 1 > events/kprobes/kb/enable
	sleep 0.1
	first=$(grep "kernel_clone+0x$(printf %x $a) " $L)
	echo 0 > events/kprobes/kb/enable
	if wait_list "kernel_clone+0x$(printf %x $a) .*OPTIMIZED"; then again=yes; else again=no; fi
	echo 0 > events/kprobes/ka/enable
	echo > kprobe_events
	case $first in *OPTIMIZED*) r=1 ;; *) r=0 ;; esac
	result $r "a probe inside +$a's region (+$b) puts it back to int3"
	is "and it is optimized again once that probe goes" yes $again
else
	not_ok "no two optimized boundaries 1..4 bytes apart in:$opt"
	not_ok "(skipped with the one above)"
fi

# A kretprobe's site is never optimized, nor a kprobe sharing it.
echo 'r:kr kernel_clone' > kprobe_events
echo 'p:kp kernel_clone' >> kprobe_events
echo 1 > events/kprobes/enable
sleep 0.2
( true )
is "a kretprobe and a kprobe on its site stay int3" \
	"r kernel_clone+0x5    |k kernel_clone+0x5    " \
	"$(awk '{ print $2, substr($0, index($0, $3)) }' $L | sort -r | tr '\n' '|' | sed 's/|$//')"
echo 0 > events/kprobes/enable
echo > kprobe_events

# The same records optimized or not, while 4 CPUs run other work.
# (the hog is killed once the rounds below are done: up to 30 s is a bound)
cpuhog 4 30000 &
hog=$!
kmalloc-storm 2 200000 128 &
(while [ ! -e /tmp/stop ]; do forkloop 5 > /dev/null; cat /proc/version > /dev/null; done) &
set -- $opt
mid=$(for i in $opt; do [ $i -gt 5 ] && echo $i; done | head -n 1)
echo "p:kc kernel_clone flags=+0(\$arg1):x64 comm=\$comm" > kprobe_events
echo "p:km kernel_clone+$mid comm=\$comm" >> kprobe_events
echo 'p:rd vfs_read cnt=$arg3:u32 comm=$comm' >> kprobe_events
echo 'p:wr vfs_write cnt=$arg3:u32 s=+0($arg2):string' >> kprobe_events
echo 'r64:rr vfs_read ret=$retval:s32' >> kprobe_events
echo "common_pid == $$" > events/kprobes/kc/filter
echo "common_pid == $$" > events/kprobes/km/filter
echo 'cnt == 7' > events/kprobes/rd/filter
echo 'cnt == 7' > events/kprobes/wr/filter
echo 'ret == 7' > events/kprobes/rr/filter
# workload OUT TRIES: 10 forks and a dd (an 11th) of 5 reads and writes of 7 bytes, traced
workload() {
	echo 1 > events/kprobes/enable
	wait_list "kernel_clone+0x$(printf %x $mid) .*OPTIMIZED" $2
	cp $L $1.list
	# the forks waiting made are not the workload's
	echo > trace
	for i in 1 2 3 4 5 6 7 8 9 10; do ( true ); done
	dd if=/proc/version of=/dev/null bs=7 count=5 2>/dev/null
	echo 0 > events/kprobes/enable
	grep -v '^#' trace | sed 's/^.*: \([a-z]*\): /\1: /' > $1
}
echo 0 > $O
workload /tmp/int3 10
echo 1 > $O
workload /tmp/jmp 250
sed 's/^/# /' /tmp/jmp.list
is "with optimization off nothing is optimized" 0 "$(grep -c OPTIMIZED /tmp/int3.list)"
is "kernel_clone+$mid was optimized" 1 \
	"$(grep -c "kernel_clone+0x$(printf %x $mid) .*OPTIMIZED" /tmp/jmp.list)"
# the reads dd made that returned 7 bytes, and its writes, are as many
n() { echo $(grep -c '^k[cm]:' $1) $(grep -c '^rd:' $1) $(($(grep -c '^rr:' $1) - $(grep -c '^wr:' $1))); }
is "the records hold every hit: 11+11 forks, 5 reads, a write per 7-byte read" \
	"22 5 0|22 5 0" "$(n /tmp/int3)|$(n /tmp/jmp)"
check "and are the same as through int3" diff /tmp/int3 /tmp/jmp

# Optimize and unoptimize 20 times while the other CPUs hit the probes.
echo 1 > events/kprobes/enable
bad=0
for i in $(seq 1 20); do
	echo 0 > $O || bad=1
	grep -q OPTIMIZED $L && bad=1
	echo 1 > $O || bad=1
	wait_list OPTIMIZED || bad=1
done
hits=$(awk '$1 == "kc" || $1 == "km" { h += $2 } END { print h }' kprobe_profile)
echo 0 > events/kprobes/enable
echo > kprobe_events
# And an optimized probe added and removed 20 times under the same load.
for i in $(seq 1 20); do
	echo "p:km kernel_clone+$mid" > kprobe_events || bad=1
	echo 1 > events/kprobes/km/enable || bad=1
	wait_list OPTIMIZED || bad=1
	echo 0 > events/kprobes/km/enable || bad=1
	echo > kprobe_events || bad=1
done
touch /tmp/stop
kill $hog
wait
is "20 rounds of both under load" 0 $bad

# debug/kprobes/enabled: 0 takes the probes out of the text (listed still), 1 puts them
# back and the optimizer at them again.
E=/sys/kernel/debug/kprobes/enabled
echo "p:km kernel_clone+$mid" > kprobe_events
echo 1 > events/kprobes/km/enable
wait_list OPTIMIZED
hits() { awk '$1 == "km" { print $2 }' kprobe_profile; }
bad=0
echo maybe > $E 2>/dev/null && bad=1
echo 0 > $E || bad=1
h0=$(hits)
( true )
h1=$(hits)
listed=$(grep -c "kernel_clone+0x$(printf %x $mid) " $L)
echo 1 > $E || bad=1
wait_list "kernel_clone+0x$(printf %x $mid) .*OPTIMIZED" || bad=1
( true )
h2=$(hits)
echo 0 > events/kprobes/km/enable
echo > kprobe_events
# (waiting forks too: more than one hit after)
is "enabled 0: no hits, still listed; 1: hit and optimized again" "0 0 1 yes" \
	"$bad $((h1 - h0)) $listed $([ $((h2 - h1)) -ge 1 ] && echo yes)"
is "enabled reads 1" 1 "$(cat $E)"
check "the load's forks hit the probes meanwhile ($hits)" test "$hits" -gt 100
is "nothing is left in the listing" "" "$(cat $L)"
