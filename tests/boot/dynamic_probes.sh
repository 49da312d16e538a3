# Dynamic probe events beyond kprobes (trace/trace_fprobe.c, trace/trace_eprobe.c,
# trace/trace_probe_event.c): fprobes (f:, entry and %return) on the function
# tracer, tprobes (t:) on tracepoints, eprobes (e:) on other events, through
# dynamic_events: listing, format files and error_log texts/carets as Linux 6.12's
# on the linux-ref rig (fprobes and tprobes from its Debian cloud kernel: the ue
# kernel has no fprobe events), values checked against what the probed code
# really had, removal, enable/filter/hist, the kprobe leftovers (%return,
# immediates, symstr) and garbage that must be refused without harm.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
echo 1..38
cd /sys/kernel/tracing

fields() {	# fields EVENT-DIR: its own fields as type;offset;size;signed, then the print fmt
	grep -v 'common_' "$1/format" | sed -n 's/^\tfield:\(.*\);\toffset:\(.*\);\tsize:\(.*\);\tsigned:\(.*\);$/\1;\2;\3;\4/p; s/^print fmt: //p' |
		tr '\n' '|' | sed 's/|$//'
}
storm_values() {	# storm_values EVENT FIELD: FIELD of the storm threads' EVENT records, sorted
	grep "^ *kmalloc/[01]-.* $1: .* $2=" trace | sed "s/.* $2=\\([0-9]*\\) .*/\\1/" | sort -n | tr '\n' ' '
}
errlog() {	# errlog LINE: write it to dynamic_events, print its status and error_log
	echo > error_log
	echo "$1" >> dynamic_events 2>/dev/null
	echo "rc=$?"
	sed 's/^\[ *[0-9.]*\] //' error_log
}

# --- fprobes ---------------------------------------------------------------------------------
echo 'f:myf vfs_read $arg1 cnt=$arg3:u32 comm=$comm' >> dynamic_events
echo 'f vfs_read%return $retval:s32' >> dynamic_events
echo 'f vfs_write' >> dynamic_events
is "fprobes are listed as Linux lists them (default names FUNC__entry/FUNC__exit)" \
	'f:fprobes/myf vfs_read arg1=$arg1 cnt=$arg3:u32 comm=$comm|f:fprobes/vfs_read__exit vfs_read%return arg1=$retval:s32|f:fprobes/vfs_write__entry vfs_write' \
	"$(grep '^f' dynamic_events | tr '\n' '|' | sed 's/|$//')"
is "an fprobe's format: __probe_ip then the arguments" \
	'unsigned long __probe_ip;8;8;0|u64 arg1;16;8;0|u32 cnt;24;4;0|__data_loc char[] comm;28;4;1|"(%lx) arg1=0x%Lx cnt=%u comm=\"%s\"", REC->__probe_ip, REC->arg1, REC->cnt, __get_str(comm)' \
	"$(fields events/fprobes/myf)"
is "a %return fprobe's format: __probe_func, __probe_ret_ip, the return value" \
	'unsigned long __probe_func;8;8;0|unsigned long __probe_ret_ip;16;8;0|s32 arg1;24;4;1|"(%lx <- %lx) arg1=%d", REC->__probe_func, REC->__probe_ret_ip, REC->arg1' \
	"$(fields events/fprobes/vfs_read__exit)"
echo 1 > events/fprobes/enable
dd if=/proc/version of=/dev/null bs=7 count=1 2>/dev/null
echo 0 > events/fprobes/enable
check "the entry records the function, \$arg3 and \$comm of a real read" \
	grep -q 'dd-[0-9]* .* myf: (vfs_read+0x0/0x[0-9a-f]*) arg1=0xffff[0-9a-f]* cnt=7 comm="dd"$' trace
check "the exit records the caller and the return value" \
	grep -q 'dd-[0-9]* .* vfs_read__exit: (ksys_read+0x[0-9a-f]*/0x[0-9a-f]* <- vfs_read) arg1=7$' trace
check "an fprobe record shows no irqs-off flag (the function tracer's callback, not an int3)" \
	grep -q 'dd-[0-9]* *\[[0-9]*\] \.\.\.\.\. .* myf: ' trace
is "every traced entry has its exit" "$(grep -c ' myf: ' trace)" "$(grep -c ' vfs_read__exit: ' trace)"

# With function_graph hooking the same calls, the fprobe still sees its returns (one shared frame).
echo > trace
echo vfs_read > set_ftrace_filter
echo function_graph > current_tracer
echo 1 > events/fprobes/vfs_read__exit/enable
dd if=/proc/version of=/dev/null bs=9 count=1 2>/dev/null
echo 0 > events/fprobes/vfs_read__exit/enable
cat trace > /tmp/graph.txt
echo nop > current_tracer
echo > set_ftrace_filter
check "%return fprobes and function_graph share the hook: the exit is still recorded" \
	grep -q '/\* vfs_read__exit: (ksys_read+0x[0-9a-f]*/0x[0-9a-f]* <- vfs_read) arg1=9 \*/$' /tmp/graph.txt
check "and the graph tracer still closes the call" grep -q '|  vfs_read();$' /tmp/graph.txt

echo > trace
echo 'cnt == 5' > events/fprobes/myf/filter
echo 'hist:keys=cnt' > events/fprobes/myf/trigger
echo 1 > events/fprobes/myf/enable
dd if=/proc/version of=/dev/null bs=5 count=1 2>/dev/null
dd if=/proc/version of=/dev/null bs=11 count=1 2>/dev/null
echo 0 > events/fprobes/myf/enable
is "filter and hist work on an fprobe event" "1 1" \
	"$(grep -c ' myf: .*cnt=5 ' trace) $(grep -c '^{ cnt: *11 } hitcount: *1$' events/fprobes/myf/hist)"
echo '!hist:keys=cnt' > events/fprobes/myf/trigger
echo 0 > events/fprobes/myf/filter

# --- tprobes ---------------------------------------------------------------------------------
echo 't:tk kmalloc site=$arg1:symbol req=$arg3:u64 node=$arg6:s32' >> dynamic_events
echo 't kfree' >> dynamic_events
is "tprobes are listed under events/tracepoints" \
	't:tracepoints/tk kmalloc site=$arg1:symbol req=$arg3:u64 node=$arg6:s32|t:tracepoints/kfree kfree' \
	"$(grep '^t' dynamic_events | tr '\n' '|' | sed 's/|$//')"
echo > trace
echo 1 > events/kmem/kmalloc/enable
echo 1 > events/tracepoints/tk/enable
kmalloc-storm 2 50 > /dev/null
echo 0 > events/tracepoints/tk/enable
echo 0 > events/kmem/kmalloc/enable
want=$(storm_values kmalloc bytes_req)
n=$(grep -c '^ *kmalloc/[01]-.* tk: ' trace)
result $([ "$n" -ge 100 ] && [ "$want" = "$(storm_values tk req)" ]; echo $?) \
	"\$arg3 of the kmalloc tracepoint is each call's bytes_req ($n hits)"
is "\$arg6 (on the stack) is the node, -1, in every hit" "$n" "$(grep -c '^ *kmalloc/[01]-.* tk: .* node=-1$' trace)"
check "\$arg1 as a symbol: the caller kmalloc_thread" grep -q ' tk: (__tracepoint_kmalloc+0x0/0x[0-9a-f]*) site=kmalloc_thread+0x' trace

# --- eprobes ---------------------------------------------------------------------------------
echo 'e:ek kmem.kmalloc req=$bytes_req:u32 site=$call_site:symbol first=+0($ptr):x8' >> dynamic_events
echo 'e:big/ek kmem/kmalloc $bytes_req if bytes_req > 100' >> dynamic_events
echo 'e sched.sched_switch $prev_comm:string $next_pid' >> dynamic_events
is "eprobes are listed with their base event" \
	'e:eprobes/ek kmem.kmalloc req=$bytes_req:u32 site=$call_site:symbol first=+0($ptr):x8|e:big/ek kmem.kmalloc arg1=$bytes_req|e:eprobes/sched_switch sched.sched_switch arg1=$prev_comm:string arg2=$next_pid' \
	"$(grep '^e' dynamic_events | tr '\n' '|' | sed 's/|$//')"
is "an eprobe's format: only its arguments, no probe address" \
	'u32 req;8;4;0|u64 site;12;8;0|u8 first;20;1;0|" req=%u site=%pS first=0x%x", REC->req, REC->site, REC->first' \
	"$(fields events/eprobes/ek)"
echo > trace
echo 1 > events/kmem/kmalloc/enable
echo 1 > events/eprobes/ek/enable
echo 1 > events/big/ek/enable
kmalloc-storm 2 50 > /dev/null
echo 0 > events/eprobes/ek/enable
echo 0 > events/big/ek/enable
echo 0 > events/kmem/kmalloc/enable
want=$(storm_values kmalloc bytes_req)
n=$(grep -c '^ *kmalloc/[01]-.* ek: (kmem.kmalloc) req=' trace)
result $([ "$n" -ge 100 ] && [ "$want" = "$(storm_values ek req)" ]; echo $?) \
	"an eprobe reads \$FIELD from each record of its event ($n hits)"
big=$(grep '^ *kmalloc/[01]-.* kmalloc: ' trace | sed 's/.* bytes_req=\([0-9]*\) .*/\1/' | awk '$1 > 100' | wc -l)
is "its filter picks the base records it fires on (bytes_req > 100)" "$big" \
	"$(grep '^ *kmalloc/[01]-.* ek: (kmem.kmalloc) arg1=0x' trace | wc -l)"
echo > trace
echo 1 > events/eprobes/sched_switch/enable
base_enable=$(cat events/sched/sched_switch/enable)
sleep 0.02
echo 0 > events/eprobes/sched_switch/enable
is "the base event is soft-enabled while an eprobe rides on it" "0*" "$base_enable"
is "and back off after" "0" "$(cat events/sched/sched_switch/enable)"
check "the eprobe fires with its base event itself disabled" \
	grep -q ' sched_switch: (sched.sched_switch) arg1="[^"]*" arg2=0x' trace
is "the base's trigger file does not show it" "# Available triggers:" \
	"$(head -n 1 events/sched/sched_switch/trigger)"

# --- removal -----------------------------------------------------------------------------------
echo 1 > events/eprobes/ek/enable
is "an event being traced cannot go" "rc=1" "$(errlog '-:ek' | head -n 1)"
echo 0 > events/eprobes/ek/enable
echo '-:ek kmem.kmalloc req=$bytes_req:u32' >> dynamic_events
echo '-:big/' >> dynamic_events
echo '-:tracepoints/tk' >> dynamic_events
echo '!f:fprobes/vfs_write__entry vfs_write' >> dynamic_events
is "-: removes by name (with the definition, or a whole group), !f: by line" \
	'f:fprobes/myf vfs_read arg1=$arg1 cnt=$arg3:u32 comm=$comm|f:fprobes/vfs_read__exit vfs_read%return arg1=$retval:s32|t:tracepoints/kfree kfree|e:eprobes/sched_switch sched.sched_switch arg1=$prev_comm:string arg2=$next_pid' \
	"$(tr '\n' '|' < dynamic_events | sed 's/|$//')"
check "their directories went with them" test ! -d events/big -a ! -d events/eprobes/ek -a ! -d events/tracepoints/tk
echo > dynamic_events
is "'echo > dynamic_events' removes every probe event" "" "$(cat dynamic_events)"
echo 'myev u64 a; int b' > synthetic_events
echo 'e:es synthetic.myev $a $b:s32' >> dynamic_events
echo '!myev' >> synthetic_events 2>/dev/null
r1=$?
echo '-:es' >> dynamic_events
echo '!myev' >> synthetic_events
is "a synthetic event stays while an eprobe reads it (EBUSY), and goes after" "1 0 " "$r1 $? $(cat synthetic_events)"

# --- errors (texts and carets from the rig) --------------------------------------------------
got=$(for c in 'f:x6 vfs_read%retur' 'f3:x14 vfs_read' 'f:x4 vfs_read %ax' 'f:x1/ nosuchfunc' \
	't:y1 sched_switch+4' 't:y3 sched_switch $retval' 'e:x1 sched.nosuch' \
	'e:x26 sched.sched_switch.x' 'e:x19 sched.sched_switch $common_pid' \
	'e:x29 sched.sched_switch $prev_pid if'; do errlog "$c"; done | tr '\n' '|')
want='rc=1|trace_fprobe: error: Invalid probed address suffix|  Command: f:x6 vfs_read%retur|                        ^|'
want="${want}"'rc=1|trace_fprobe: error: Maxactive is only for function exit|  Command: f3:x14 vfs_read|            ^|'
want="${want}"'rc=1|trace_fprobe: error: Invalid $-variable specified|  Command: f:x4 vfs_read %ax|                         ^|trace_fprobe: error: Invalid fetch argument|  Command: f:x4 vfs_read %ax|                         ^|'
want="${want}"'rc=1|trace_fprobe: error: Failed to register probe event|  Command: f:x1/ nosuchfunc|                 ^|'
want="${want}"'rc=1|trace_fprobe: error: Invalid character in tracepoint name|  Command: t:y1 sched_switch+4|                            ^|'
want="${want}"'rc=1|trace_fprobe: error: $retval is not available on probe|  Command: t:y3 sched_switch $retval|                             ^|'
want="${want}"'rc=1|event_probe: error: Attached event does not exist|  Command: e:x1 sched.nosuch|                ^|'
want="${want}"'rc=1|event_probe: error: Event name must follow the same rules as C identifiers|  Command: e:x26 sched.sched_switch.x|                       ^|event_probe: error: This requires both group and event name to attach|  Command: e:x26 sched.sched_switch.x|                 ^|'
want="${want}"'rc=1|event_probe: error: Invalid $-variable specified|  Command: e:x19 sched.sched_switch $common_pid|                                    ^|'
want="${want}"'rc=1|event_probe: error: No filter rule after '"'if'"'|  Command: e:x29 sched.sched_switch $prev_pid if|                                                 ^|'
is "error_log texts and carets of fprobes, tprobes and eprobes" "$want" "$got"
is "nothing was created by the bad lines" "" "$(cat dynamic_events)"

# --- the kprobe leftovers --------------------------------------------------------------------
echo 'p:kr vfs_read%return $retval' >> dynamic_events
echo 'p:ki vfs_read \1234 \"x" s=+0(%di):u8 sym=$stack0:symstr' >> dynamic_events
is "p:...%return is a kretprobe; immediates and symstr are arguments" \
	'r10:kprobes/kr vfs_read arg1=$retval|p:kprobes/ki vfs_read arg1=\1234 arg2=\"x" s=+0(%di):u8 sym=$stack0:symstr' \
	"$(tr '\n' '|' < dynamic_events | sed 's/|$//')"
echo 1 > events/kprobes/ki/enable
dd if=/proc/version of=/dev/null bs=3 count=1 2>/dev/null
echo 0 > events/kprobes/ki/enable
check "an immediate number and string, and a symbol as a string" \
	grep -q ' ki: (vfs_read+0x[0-9a-f]*/0x[0-9a-f]*) arg1=0x4d2 arg2="x" s=[0-9]* sym="ksys_read+0x' trace
got=$(for c in 'p:m6 vfs_read a=\"abc' 'p:m4 vfs_read c=\"hello\":u32' 'p:m5 vfs_read a=\abc' 'p:m11 vfs_read%returnx'; do errlog "$c"; done | tr '\n' '|')
want='rc=1|trace_kprobe: error: String is not closed with '"'\"'"'|  Command: p:m6 vfs_read a=\"abc|                                ^|'
want="${want}"'rc=1|trace_kprobe: error: $comm and immediate-string only accepts string type|  Command: p:m4 vfs_read c=\"hello\":u32|                                     ^|'
want="${want}"'rc=1|trace_kprobe: error: Invalid immediate value|  Command: p:m5 vfs_read a=\abc|                            ^|'
want="${want}"'rc=1|trace_kprobe: error: Invalid probed address suffix|  Command: p:m11 vfs_read%returnx|                         ^|'
is "their errors, as on the rig" "$want" "$got"

# --- garbage -------------------------------------------------------------------------------------
for c in 'f' 'f:' 't' 'e' 'e:' 'f:/ vfs_read' 'e:a/b/c sched.sched_switch' 'e x.y.z' 'f vfs_read +(' \
	'f vfs_read +0(+0(' 'e sched.sched_switch +0($prev_pid' 't kmalloc $arg99999999999999999999' \
	'f vfs_read%return%return' 'e sched.sched_switch if' 'e sched.sched_switch $prev_pid:string[64]' \
	'-:' '-:/' '!f' '!e:' 'f:g/ vfs_read \"' 'e sched.sched_switch \"' 't:' "f:$(printf '%070d' 0) vfs_read"; do
	echo "$c" >> dynamic_events 2>/dev/null
done
echo 'f:ok vfs_write' >> dynamic_events
is "garbage is refused and the file still works" 'r10:kprobes/kr vfs_read arg1=$retval|p:kprobes/ki vfs_read arg1=\1234 arg2=\"x" s=+0(%di):u8 sym=$stack0:symstr|f:fprobes/ok vfs_write' \
	"$(tr '\n' '|' < dynamic_events | sed 's/|$//')"
echo > dynamic_events

# --- entry arguments at a return ($argN in r: and f:...%return, Linux 6.12's) ----------------------
check "README says return probes take \$arg<N>" grep -q 'kernel return probes support: \$retval, \$arg<N>, \$comm' README
echo 'p:kprobes/ent vfs_read fd=$arg1 n=$arg3' > dynamic_events
echo 'r:kprobes/ret vfs_read fd=$arg1 n=$arg3 r=$retval' >> dynamic_events
echo 'f:fprobes/fret vfs_read%return fd=$arg1 n=$arg3' >> dynamic_events
echo > trace
echo 1 > events/kprobes/enable
echo 1 > events/fprobes/fret/enable
cat README > /dev/null
echo 0 > events/kprobes/enable
echo 0 > events/fprobes/fret/enable
ent=$(grep -m 1 -o ' ent: .*' trace | sed 's/.*fd=//')
check "the entry probe recorded fd and n ($ent)" sh -c "echo '$ent' | grep -qE '^0x[0-9a-f]+ n=0x[0-9a-f]+$'"
is "a kretprobe's \$arg1/\$arg3 are the call's (as the entry probe saw them)" "$ent" \
	"$(grep -m 1 -o ' ret: .*' trace | sed 's/.*fd=//; s/ r=.*//')"
is "... and an fprobe %return's" "$ent" "$(grep -m 1 -o ' fret: .*' trace | sed 's/.*fd=//')"
echo 'r:kprobes/bad vfs_read x=$arg7' > dynamic_events 2>/dev/null
is "beyond the six argument registers at a return: refused" "" "$(cat dynamic_events)"
echo > dynamic_events
