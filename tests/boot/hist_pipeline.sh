# The wakeup-latency pipeline end to end: sched_waking saves a timestamp,
# sched_switch computes the latency and generates wakeup_latency events
# that land in `trace` and feed a histogram of their own; then onmax()
# with save() and snapshot(), enable_hist/disable_hist, dynamic_events
# and error_log entries for bad commands.
# spoor-exec: --smp 4
. /spoor/lib/tap.sh
has() {		# has FILE TEXT: the file holds the text (fixed string)
	grep -F -q -e "$2" "$1"
}
echo 1..21
cd /sys/kernel/tracing
W=events/sched/sched_waking
S=events/sched/sched_switch
L=events/synthetic/wakeup_latency

echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events &&
	test "$(cat synthetic_events)" = "$(printf 'wakeup_latency\tu64 lat; pid_t pid; char[16] comm')"
result $? "synthetic_events defines and lists wakeup_latency"
has $L/format 'print fmt: "lat=%llu, pid=%d, comm=%s", REC->lat, REC->pid, REC->comm' &&
	has $L/format "	field:u64 lat;	offset:8;	size:8;	signed:0;" &&
	has $L/format "	field:pid_t pid;	offset:16;	size:4;	signed:1;"
result $? "its format file"
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> $W/trigger &&
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)' >> $S/trigger &&
	echo 'hist:keys=comm,lat.log2:sort=comm,lat' >> $L/trigger
result $? "the three triggers"
echo 1 > $L/enable && echo > trace && pingpong 2 200
result $? "pingpong with the synthetic event enabled"
grep -q ' wakeup_latency: lat=[0-9][0-9]* pid=[0-9][0-9]* comm=pingpong/[0-9]$' trace
result $? "wakeup_latency records in trace"
grep -q '^{ comm: pingpong/0  *, lat: ~ 2^[0-9][0-9]* *} hitcount: *[0-9][0-9]*$' $L/hist
result $? "and in their own histogram"
test "$(cat $S/trigger)" = 'hist:keys=next_pid:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:sort=hitcount:size=2048:clock=global:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm) [active]'
result $? "sched_switch's trigger reads back canonically"
echo '!wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events 2>/dev/null
test $? -ne 0
result $? "a synthetic event in use cannot be deleted"
echo 0 > $L/enable && echo '!hist:keys=comm,lat.log2:sort=comm,lat' >> $L/trigger &&
	echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)' >> $S/trigger &&
	echo '!wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events &&
	test ! -e $L
result $? "torn down: the event directory is gone"

# onmax() with save() and snapshot()
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)' >> $S/trigger
result $? "onmax(\$wakeup_lat).save(...)"
pingpong 1 50
grep -q '^	max: *[0-9][0-9]*  next_comm: [^ ].*  prev_pid: *[0-9][0-9]*  prev_prio: *[0-9][0-9]*  prev_comm: ' $S/hist
result $? "max: lines with the saved fields"
# switches are recorded from before the first max: each snapshot then holds
# at least the switch that set the previous max
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)' >> $S/trigger &&
	echo 1 > $S/enable &&
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).snapshot()' >> $S/trigger
result $? "onmax(\$wakeup_lat).snapshot()"
pingpong 1 50 && echo 0 > $S/enable
test "$(grep '^Snapshot taken' $S/hist)" = 'Snapshot taken (see tracing/snapshot).  Details:' &&
	test "$(grep '^	triggering value' $S/hist | cut -d '}' -f 1)" = '	triggering value { onmax($wakeup_lat) ' &&
	grep -q '^	triggering value .*: *[0-9][0-9]*	triggered by event with key: .*next_pid: *[0-9][0-9]* .$' $S/hist
result $? "the snapshot block"
test "$(head -n 1 snapshot)" = "# tracer: nop" && grep -q '^# entries-in-buffer/entries-written: ' snapshot
result $? "the snapshot buffer exists and reads as a trace"
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).snapshot()' >> $S/trigger &&
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> $W/trigger
result $? "removed"

# enable_hist / disable_hist
echo 'hist:keys=common_pid:pause' >> $W/trigger &&
	echo 'enable_hist:sched:sched_waking' >> $S/trigger &&
	has $S/trigger "enable_hist:sched:sched_waking:unlimited"
result $? "enable_hist on sched_switch continues sched_waking's paused histogram"
pingpong 1 20
has $W/hist " [active]" && grep -q '^    Hits: [1-9]' $W/hist
result $? "... once sched_switch fires"
echo '!enable_hist:sched:sched_waking' >> $S/trigger && echo 'disable_hist:sched:sched_waking:1' >> $S/trigger &&
	pingpong 1 5 && has $W/hist " [paused]" && has $S/trigger "disable_hist:sched:sched_waking:count=0"
result $? "disable_hist:...:1 pauses it once"
echo '!disable_hist:sched:sched_waking:1' >> $S/trigger && echo '!hist:keys=common_pid' >> $W/trigger &&
	has $W/trigger "# Available triggers:" && has $S/trigger "# Available triggers:"
result $? "removed"

# dynamic_events and error_log
echo 's:synthetic/lat2 u64 lat; char name[]' >> dynamic_events &&
	test "$(cat dynamic_events)" = "$(printf 's:synthetic/lat2\tu64 lat; char[] name')" &&
	test -d events/synthetic/lat2 && echo '-:synthetic/lat2' >> dynamic_events && test ! -e events/synthetic/lat2
result $? "s: and -: in dynamic_events"
echo > error_log
echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$nosuch' >> $S/trigger 2>/dev/null
test $? -ne 0 && has error_log "hist:sched:sched_switch: error: Couldn't find variable" &&
	has error_log "  Command: hist:keys=next_pid:lat=common_timestamp.usecs-\$nosuch" &&
	test "$(tail -n 1 error_log)" = "$(printf '%58s' '^')"
result $? "a bad variable: error_log entry with the caret under \$nosuch"
