# The file tree as a user meets it: a writable / and /tmp, /dev and /proc,
# tracefs at /sys/kernel/tracing and /sys/kernel/debug/tracing, and Unix
# file semantics (offsets, append, truncate, short reads) for big files.
. /spoor/lib/tap.sh
j() { tr '\n' ' ' | sed 's/ $//'; }
echo 1..25

is "the root holds the usual directories" "dev proc sys tmp" "$(ls / | grep -e '^dev$' -e '^proc$' -e '^sys$' -e '^tmp$' | j)"
echo root > /rootfile
is "/ is writable" "root" "$(cat /rootfile)"
rm /rootfile
is "/tmp is writable" "0" "$(echo x > /tmp/w && rm /tmp/w; echo $?)"
is "/dev/null swallows writes and reads empty" "0" "$(echo gone > /dev/null; wc -c < /dev/null)"
is "/dev/zero reads zeros" "3018728591 4096" "$(head -c 4096 /dev/zero | cksum)"
is "/dev/console is there" "yes" "$([ -e /dev/console ] && echo yes)"
is "/proc/cpuinfo lists every CPU" "4" "$(grep -c '^processor' /proc/cpuinfo)"
is "/proc/meminfo" "1" "$(grep -c '^MemTotal: *[0-9]* kB$' /proc/meminfo)"
is "/proc/interrupts has a LOC line" "1" "$(grep -c '^ *LOC:' /proc/interrupts)"
is "/proc/uptime" "1" "$(grep -c '^[0-9]*\.[0-9][0-9] [0-9]*\.[0-9][0-9]$' /proc/uptime)"
is "/proc/PID/comm of the shell" "sh" "$(cat /proc/$$/comm)"
is "/proc/self/stat names the reader" "(cut)" "$(cut -d ' ' -f 2 /proc/self/stat)"
is "/proc/mounts names tracefs" "/sys/kernel/tracing" "$(grep tracefs /proc/mounts | cut -d ' ' -f 2)"
is "the kernel log" "1" "$(grep -c 'Spoor ready' /proc/kmsg)"

T=/sys/kernel/tracing
for f in README available_events buffer_size_kb error_log events per_cpu set_event trace trace_pipe tracing_on; do
	[ -e $T/$f ] || missing="$missing $f"
done
is "the tracefs skeleton" "" "$missing"
is "per_cpu/cpuN for each CPU" "cpu0 cpu1 cpu2 cpu3" "$(ls $T/per_cpu | j)"
is "/sys/kernel/debug/tracing is the same tree" "$(ls $T | j)" "$(ls /sys/kernel/debug/tracing | j)"
echo 0 > /sys/kernel/debug/tracing/tracing_on
is "a write through one path shows through the other" "0" "$(cat $T/tracing_on)"
echo 1 > $T/tracing_on

seq 40000 > /tmp/big
is "a 229 kB generated file has the right size" "228894" "$(wc -c < /tmp/big)"
is "and the content (POSIX cksum as on Linux)" "4038560838 228894" "$(cksum < /tmp/big)"
is "cat of it is exact" "4038560838 228894" "$(cat /tmp/big | cksum)"
cp /tmp/big /tmp/big2
is "cp copies it exactly" "4038560838 228894" "$(cksum < /tmp/big2)"
seq 40000 >> /tmp/big2
is ">> appends at the end" "80000 40000" "$(wc -l < /tmp/big2) $(tail -n 1 /tmp/big2)"
seq 5 > /tmp/big2
is "> truncates a big file" "10" "$(wc -c < /tmp/big2)"
# Three jobs writing one open file at once share its offset (a redirection's
# file, as after fork): each write moves it whole, none lands on another's.
w() { i=0; while [ $i -lt 300 ]; do echo "$1 $i"; i=$((i + 1)); done; }
{ w a & w b & w c & wait; } > /tmp/shared
is "writers sharing an open file lose no line" "900 300 300 300" \
	"$(wc -l < /tmp/shared) $(grep -c '^a ' /tmp/shared) $(grep -c '^b ' /tmp/shared) $(grep -c '^c ' /tmp/shared)"
