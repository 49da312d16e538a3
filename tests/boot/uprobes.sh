# Uprobe events (trace/trace_uprobe.c, kernel/uprobes.c, arch/x86_64/uprobes.c):
# probes on user/uprobed's functions, their file offsets found by the program
# in its own ELF symbol table; the listing, formats and errors as Linux 6.12
# prints them (the linux-ref rig, same binary); records checked against what
# the program did (arguments, return values, strings, @+OFFSET memory);
# uretprobes, fork, probes added to and removed from running processes, a
# probe inside an instruction; the file itself never changes.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
echo 1..36
cd /sys/kernel/tracing
U=/bin/uprobed
A=$(uprobed offset uprobed_add)
B=$(uprobed offset uprobed_bump)
G=$(uprobed offset uprobed_greet)
AA=$(uprobed addr uprobed_add)
# @+OFFSET is read where the probed text's mapping puts that offset
# (Linux's rule: probe address - probe offset + OFFSET), which is the
# counter's own file offset only when the data segment sits at the text's
# displacement: the counter's offset as that rule sees it.
C=$(printf 0x%x $(($(uprobed addr uprobed_counter) - $(uprobed addr uprobed_bump) + B)))
cp $U /tmp/uprobed.orig

echo "p $U:$A" >> uprobe_events
echo "p:grp/add $U:$A a=%di b=%si ret=\$stack0 cm=\$comm ip=%ip" >> uprobe_events
echo "r:grp/addret $U:$A r=\$retval:s64" >> uprobe_events
echo "p:grp/bump $U:$B c=@+$C" >> uprobe_events
echo "p:grp/greet $U:$G n=+0(%di):string u=+u0(%di):ustring c0=+0(%di):char" >> uprobe_events
echo "p:grp/gret $U:$G%return r=\$retval:s32" >> uprobe_events
off() { printf '0x%016x' $(($1)); }
is "the listing, as Linux 6.12's" \
	"p:uprobes/p_uprobed_$A $U:$(off $A)|p:grp/add $U:$(off $A) a=%di b=%si ret=\$stack0 cm=\$comm ip=%ip|r:grp/addret $U:$(off $A) r=\$retval:s64|p:grp/bump $U:$(off $B) c=@+$C|p:grp/greet $U:$(off $G) n=+0(%di):string u=+u0(%di):ustring c0=+0(%di):char|r:grp/gret $U:$(off $G) r=\$retval:s32" \
	"$(tr '\n' '|' < uprobe_events | sed 's/|$//')"
is "dynamic_events lists them too" "$(cat uprobe_events)" "$(grep -E '^[pr]:' dynamic_events)"
is "an entry's format: __probe_ip, then the arguments" \
	"field:unsigned long __probe_ip;	offset:8;	size:8;	signed:0;|field:u64 a;	offset:16;	size:8;	signed:0;|field:u64 b;	offset:24;	size:8;	signed:0;|field:u64 ret;	offset:32;	size:8;	signed:0;|field:__data_loc char[] cm;	offset:40;	size:4;	signed:1;|field:u64 ip;	offset:44;	size:8;	signed:0;|print fmt: \"(%lx) a=0x%Lx b=0x%Lx ret=0x%Lx cm=\\\"%s\\\" ip=0x%Lx\", REC->__probe_ip, REC->a, REC->b, REC->ret, __get_str(cm), REC->ip" \
	"$(grep -E 'field:(unsigned long __|u64|__data)|print fmt' events/grp/add/format | sed 's/^[[:space:]]*//' | tr '\n' '|' | sed 's/|$//')"
is "a return's format: __probe_func, __probe_ret_ip" \
	"field:unsigned long __probe_func;	offset:8;	size:8;	signed:0;|field:unsigned long __probe_ret_ip;	offset:16;	size:8;	signed:0;|print fmt: \"(%lx <- %lx) r=%Ld\", REC->__probe_func, REC->__probe_ret_ip, REC->r" \
	"$(grep -E '__probe|print fmt' events/grp/addret/format | sed 's/^[[:space:]]*//' | tr '\n' '|' | sed 's/|$//')"

# --- hits -------------------------------------------------------------------------------------
for e in uprobes/p_uprobed_$A grp/add grp/addret grp/bump grp/greet grp/gret; do
	echo 1 > events/$e/enable
done
uprobed run 5 bob > /tmp/run.out
is "uprobed computed right under 6 probes" "uprobed: 5 rounds, sum 45, counter 1005" "$(cat /tmp/run.out)"
is "every probe hit once a round (uprobe_profile)" \
	"$U p_uprobed_$A 5|$U add 5|$U addret 5|$U bump 5|$U greet 5|$U gret 5" \
	"$(awk '{ print $1, $2, $3 }' uprobe_profile | tr '\n' '|' | sed 's/|$//')"
grep -v '^#' trace > /tmp/t.out
want=""
for i in 1 2 3 4 5; do
	want="$want add: ($AA) a=$(printf 0x%x $i) b=$(printf 0x%x $((2 * i)))"
done
got=$(grep ' add: ' /tmp/t.out | sed 's/^.* add: /add: /; s/ ret=.*//' | tr '\n' ' ' | sed 's/ $//')
is "add: its arguments (%di, %si) at each call, at its address" "${want# }" "$got"
is "add: \$comm and %ip (the probed address)" 5 \
	"$(grep -c " add: .* cm=\"uprobed\" ip=$AA\$" /tmp/t.out)"
is "add: \$stack0 is the return address, and addret returns there" \
	"$(grep ' add: ' /tmp/t.out | sed 's/.* ret=\(0x[0-9a-f]*\) .*/\1/' | sort -u)" \
	"$(grep ' addret: ' /tmp/t.out | sed 's/.* (\(0x[0-9a-f]*\) <- .*/\1/' | sort -u)"
is "addret: \$retval of each call, from add" \
	"addret: r=3 addret: r=6 addret: r=9 addret: r=12 addret: r=15" \
	"$(grep ' addret: ' /tmp/t.out | sed "s/^.* addret: ([0-9a-fx]* <- $AA)/addret:/" | tr '\n' ' ' | sed 's/ $//')"
is "bump: @+OFFSET reads the counter before each increment" "c=0x3e8 c=0x3e9 c=0x3ea c=0x3eb c=0x3ec" \
	"$(grep ' bump: ' /tmp/t.out | sed 's/^.* c=/c=/' | tr '\n' ' ' | sed 's/ $//')"
is "greet: the string argument, by +0 and +u0, and its first char" 5 \
	"$(grep -c ' greet: .* n="bob" u="bob" c0=.b.$' /tmp/t.out)"
is "gret: greet tail-jumps to strlen (jmp emulated): its return is greet's, 3" 5 \
	"$(grep -c ' gret: (0x[0-9a-f]* <- 0x[0-9a-f]*) r=3$' /tmp/t.out)"
for e in uprobes/p_uprobed_$A grp/add grp/addret grp/bump grp/greet grp/gret; do
	echo 0 > events/$e/enable
done
is "disabled, the file is as it was (the breakpoints were in private copies)" "" \
	"$(cmp $U /tmp/uprobed.orig)"

# --- filter, hist, fork -----------------------------------------------------------------------
echo > trace
echo 'a > 2' > events/grp/add/filter
echo 'hist:keys=common_pid:vals=hitcount' > events/grp/addret/trigger
with_add() { # with_add CMD...: CMD's status, run with add and addret traced
	local st
	echo 1 > events/grp/add/enable
	echo 1 > events/grp/addret/enable
	"$@"
	st=$?
	echo 0 > events/grp/add/enable
	echo 0 > events/grp/addret/enable
	return $st
}
with_add uprobed fork 4 > /tmp/fork.out
status=$?
is "fork: parent and child computed right" "0 2" "$status $(grep -c 'rounds, sum 30' /tmp/fork.out)"
is "fork: the filter kept a=3 and a=4 of each process" 4 "$(grep -c ' add: .* a=0x[34] ' trace)"
is "fork: two processes hit it" 2 "$(grep ' add: ' trace | awk '{print $1}' | sort -u | wc -l)"
is "fork: hist counts each process's 4 returns (the child's hijacked returns survive fork)" \
	"4 4" "$(grep '^{' events/grp/addret/hist | sed 's/.*hitcount: *\([0-9]*\).*/\1/' | tr '\n' ' ' | sed 's/ $//')"
echo '!hist:keys=common_pid:vals=hitcount' > events/grp/addret/trigger
echo 0 > events/grp/add/filter

# --- signals: a 1 ms SIGALRM handler calls add() while the main loop does --------------------
with_add uprobed alarm 400 > /tmp/alarm.out
status=$?
sed 's/^/# /' /tmp/alarm.out
is "alarm: main loop and handler computed right" "0 1" \
	"$status $(grep -c '^uprobed: [1-9][0-9]* alarms, 0 wrong$' /tmp/alarm.out)"
is "alarm: every hijacked return came back once, nested ones too (hits of add = of addret)" \
	"$(awk '$2 == "add" { print $3 }' uprobe_profile)" "$(awk '$2 == "addret" { print $3 }' uprobe_profile)"

# --- running processes ------------------------------------------------------------------------
echo > trace
uprobed spin 3000 > /tmp/spin.out &
spin=$!
sleep 0.3
hits() { awk '$2 == "add" { print $3 }' uprobe_profile; }
h0=$(hits)
echo 1 > events/grp/add/enable
i=0
# two hits: the first's slot page was mapped before the second (one thread)
while [ "$(hits)" -lt $((h0 + 2)) ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q uprobes /proc/$spin/maps
status=$?
[ $status -eq 0 ] || { echo "# $i waits, $(($(hits) - h0)) hits"; sed 's/^/# /' /proc/$spin/maps; }
result $status "a process running before the probe came hits it, from its [uprobes] slot page"
echo 0 > events/grp/add/enable
n1=$(grep -c " add: " trace)
sleep 0.2
n2=$(grep -c " add: " trace)
echo 1 > events/grp/add/enable
sleep 0.2
echo 0 > events/grp/add/enable
echo "-:grp/add" >> uprobe_events
is "removed while the process runs" "" "$(grep ' grp/add ' uprobe_events)"
wait $spin
is "the spinner ran on, right, through enable, disable and removal" "0 1" \
	"$? $(grep -c '^uprobed: spun [0-9]* calls$' /tmp/spin.out)"
check "it hit the probe while enabled ($n1 hits)" test "$n1" -gt 10
is "and not while disabled" "$n1" "$n2"
is "the file is still as it was" "" "$(cmp $U /tmp/uprobed.orig)"

# --- a reference counter (an SDT semaphore) -----------------------------------------------------
# on main: a place no other event probes (one place, one counter)
S=$(uprobed offset uprobed_semaphore)
M=$(uprobed offset main)
echo "p:grp/sem $U:$M($S)" >> uprobe_events
is "the listing shows the counter's offset" "p:grp/sem $U:$(off $M)($S)" "$(grep grp/sem uprobe_events)"
uprobed sema 600 > /tmp/sema1.out &
sema1=$!
i=0
while ! grep -q semaphore /tmp/sema1.out && [ $i -lt 50 ]; do
	sleep 0.05
	i=$((i + 1))
done
echo 1 > events/grp/sem/enable
uprobed sema 0 > /tmp/sema2.out
wait $sema1
echo 0 > events/grp/sem/enable
uprobed sema 0 > /tmp/sema3.out
is "the semaphore: 0 then 1 in a process running at enable, 1 in one started after, 0 once off" \
	"uprobed: semaphore 0 1|uprobed: semaphore 1 1|uprobed: semaphore 0 0" \
	"$(cat /tmp/sema1.out /tmp/sema2.out /tmp/sema3.out | tr '\n' '|' | sed 's/|$//')"
is "a second probe of that place with another counter: EINVAL, unlogged, as Linux" "1 0" \
	"$(echo > error_log; echo "p:grp/sem2 $U:$M(0x10)" >> uprobe_events 2> /dev/null; echo $? $(grep -c . error_log))"

# --- a place inside an instruction ------------------------------------------------------------
echo > trace
echo "p:bad $U:$(printf 0x%x $((A + 1)))" >> uprobe_events
echo 1 > events/uprobes/bad/enable
uprobed run 2 x > /tmp/bad.out
echo "ran $?" >> /tmp/bad.out
echo 0 > events/uprobes/bad/enable
is "a probe inside lea (its tail decodes as a 32-bit lea): the process is hit, runs on" \
	"2 uprobed: 2 rounds, sum 9, counter 1002|ran 0" \
	"$(grep -c ' bad: ' trace) $(tr '\n' '|' < /tmp/bad.out | sed 's/|$//')"

# --- errors, as Linux 6.12 logs them ----------------------------------------------------------
err() {	# err COMMAND: error_log's message and the caret's column in the command
	echo > error_log
	echo "$1" >> uprobe_events 2> /dev/null
	awk 'NR % 3 == 1 { sub(/^\[[^]]*\] /, ""); printf "%s|", $0 } NR % 3 == 0 { printf "%d", index($0, "^") - 12 }' error_log
}
p="p $U:$A a="
is "no such file" "trace_uprobe: error: Failed to find the given file|2" "$(err "p /nofile:0x10")"
is "not a regular file" "trace_uprobe: error: Not a regular file|2" "$(err "p /bin:0x10")"
is "an offset with a bad suffix" "trace_uprobe: error: Invalid probed address suffix|$((${#U} + ${#A} + 3))" \
	"$(err "p $U:$A%ret")"
is "\$argN" "trace_uprobe: error: \$arg* can be used only on function entry or exit|${#p}" \
	"$(err "${p}\$arg1")"
is "symbols and symstr" \
	"trace_uprobe: error: Symbol is not available with uprobe|${#p} trace_uprobe: error: Unknown type is specified|$((${#p} + 8))" \
	"$(err "${p}@uprobed_counter") $(err "${p}\$stack0:symstr")"
echo > uprobe_events
is "echo > uprobe_events removes them all" "" "$(cat uprobe_events)"
