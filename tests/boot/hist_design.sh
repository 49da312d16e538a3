# The histogram design notes' commands, in order and as written (the
# examples the notes wrap over several lines joined into one), each set
# checked against what the notes show and then cleaned up as they say.
# spoor-exec: --smp 2
. /spoor/lib/tap.sh
has() {		# has FILE TEXT: the file holds the text (fixed string)
	grep -F -q -e "$2" "$1"
}
no_triggers() {	# no_triggers EVENT-DIR: nothing left on it
	has "$1/trigger" "# Available triggers:"
}
echo 1..37
cd /sys/kernel/debug/tracing

# Basic histograms
echo 'hist:keys=pid' >> events/sched/sched_waking/trigger
result $? "hist:keys=pid on sched_waking"
pingpong 2 50
has events/sched/sched_waking/hist "# trigger info: hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]" &&
	grep -q '^{ pid: *[0-9][0-9]* } hitcount: *[0-9][0-9]*$' events/sched/sched_waking/hist &&
	grep -q '^    Hits: [1-9][0-9]*$' events/sched/sched_waking/hist
result $? "its hist: entries and totals"
echo '!hist:keys=pid' >> events/sched/sched_waking/trigger && no_triggers events/sched/sched_waking
result $? "removed"

# hist_debug of a two-key, two-value histogram
echo 'hist:keys=common_pid,call_site.sym:values=bytes_req,bytes_alloc,hitcount' >> events/kmem/kmalloc/trigger
result $? "kmalloc keys=common_pid,call_site.sym"
kmalloc-storm 1 100
d=events/kmem/kmalloc/hist_debug
has $d "  n_vals: 3" && has $d "  n_keys: 2" && has $d "  n_fields: 5" &&
	has $d "        VAL: HIST_FIELD_FL_HITCOUNT" && has $d "      ftrace_event_field name: bytes_req" &&
	has $d "    hist_data->fields[3]:" && has $d "      ftrace_event_field name: call_site"
result $? "hist_debug: counts, value and key fields"
grep -q '^{ common_pid: *[0-9]*, call_site: \[[0-9a-f]*\] [_a-zA-Z]' events/kmem/kmalloc/hist
result $? "call_site.sym resolves through kallsyms"
echo '!hist:keys=common_pid,call_site.sym:values=bytes_req,bytes_alloc,hitcount' >> events/kmem/kmalloc/trigger &&
	no_triggers events/kmem/kmalloc
result $? "removed"

# Variables
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0' >> events/sched/sched_switch/trigger
result $? "ts0 on sched_waking, wakeup_lat on sched_switch"
has events/sched/sched_waking/hist_debug "      var.name: ts0" &&
	has events/sched/sched_switch/hist_debug "  variable reference fields:" &&
	has events/sched/sched_switch/hist_debug "      name: ts0"
result $? "hist_debug: the variable and its reference"
echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger 2>/dev/null
test $? -ne 0
result $? "a referenced variable's trigger cannot go first"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0' >> events/sched/sched_switch/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	no_triggers events/sched/sched_switch && no_triggers events/sched/sched_waking
result $? "removed in order"

# Synthetic event, onmatch() with a field variable
echo 'wakeup_latency u64 lat; pid_t pid' >> synthetic_events &&
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid)' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger
result $? "wakeup_latency from onmatch(sched.sched_waking)"
has events/sched/sched_switch/hist_debug "  field variables:" &&
	has events/sched/sched_switch/hist_debug "      field_vars[0].var:"
result $? "next_pid became a field variable"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid)' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger
result $? "onmatch trigger removed"

# ... or onmax() with save() or snapshot()
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger
result $? "onmax().save()"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)' >> events/sched/sched_switch/trigger &&
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).snapshot()' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger
result $? "onmax().snapshot()"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).snapshot()' >> events/sched/sched_switch/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	echo '!wakeup_latency u64 lat; pid_t pid' >> synthetic_events &&
	no_triggers events/sched/sched_switch && test -z "$(cat synthetic_events)"
result $? "cleaned up"

# Test of the wakeup pipeline with next_comm
echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
result $? "wakeup_latency with comm"
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger
result $? "sched_waking ts0"
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger
result $? "sched_switch onmatch"
has events/sched/sched_switch/hist_debug "    hist_data->actions[0].match_data.event_system: sched" &&
	has events/sched/sched_switch/hist_debug "    hist_data->actions[0].match_data.event: sched_waking"
result $? "hist_debug: the action's matching event"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	echo '!wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
result $? "cleaned up"

# save() action field variable test
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger
result $? "sched_waking ts0"
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)' >> events/sched/sched_switch/trigger
result $? "onmax save"
d=events/sched/sched_switch/hist_debug
has $d "    hist_data->actions[0].track_data.var_ref:" && has $d "      var.name: __max" &&
	has $d "  save action variables" && has $d "      var.name: prev_comm"
result $? "hist_debug: tracking and save variables"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)' >> events/sched/sched_switch/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger
result $? "cleaned up"

# Test of field variables on other histograms
echo 'wakeup_latency u64 lat; pid_t pid; int prio' >> synthetic_events &&
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger
result $? "wakeup_latency with prio, sched_waking ts0"
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio)' >> events/sched/sched_switch/trigger
result $? "prio, a field of sched_waking"
has events/sched/sched_waking/hist_debug "# trigger info: hist:keys=pid:vals=hitcount:synthetic_prio=prio:sort=hitcount:size=2048 [active]" &&
	has events/sched/sched_waking/hist_debug "      var.name: synthetic_prio"
result $? "a second sched_waking histogram holds synthetic_prio"
has events/sched/sched_switch/hist_debug "      name: synthetic_prio"
result $? "sched_switch references it"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio)' >> events/sched/sched_switch/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	echo '!wakeup_latency u64 lat; pid_t pid; int prio' >> synthetic_events &&
	no_triggers events/sched/sched_waking
result $? "cleaned up, the extra histogram too"

# Alias test
echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events &&
	echo 'hist:keys=pid:waking_pid=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger
result $? "sched_waking waking_pid"
echo 'hist:keys=next_pid:woken_pid=$waking_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$woken_pid,next_comm)' >> events/sched/sched_switch/trigger
result $? "alias woken_pid=\$waking_pid"
has events/sched/sched_switch/hist_debug "        HIST_FIELD_FL_ALIAS" &&
	has events/sched/sched_switch/hist_debug "      var.name: woken_pid"
result $? "hist_debug: the alias"
echo '!hist:keys=next_pid:woken_pid=$waking_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$woken_pid,next_comm)' >> events/sched/sched_switch/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	echo '!wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
result $? "the notes' cleanup runs"
has events/sched/sched_waking/trigger "hist:keys=pid:vals=hitcount:waking_pid=pid,ts0=common_timestamp.usecs:"
result $? "... and, as on Linux, leaves the waking_pid trigger (its removal names another trigger)"
echo '!hist:keys=pid:waking_pid=pid:ts0=common_timestamp.usecs' >> events/sched/sched_waking/trigger &&
	no_triggers events/sched/sched_waking && no_triggers events/sched/sched_switch &&
	test -z "$(cat synthetic_events)"
result $? "cleaned up"
