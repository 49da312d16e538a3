# The small tools ftracetest-style scripts lean on, in the guest: job
# specs for kill and wait, date from the boot-time clock, stat -c,
# readlink -f through tracefs's debug/tracing link, ln -s, grep -F and
# context, tr -c/-d/-s, printf's * widths and ${x:off:len}.
. /spoor/lib/tap.sh
echo 1..16

sleep 10 &
sleep 10 &
kill %1
wait %1
is "kill %1 ends the first job" "143" "$?"
kill -s KILL %%
wait %+
is "kill -s KILL %% ends the newest" "137" "$?"
wait %1 2>/dev/null
is "wait for a job that is gone" "127" "$?"

is "date starts at the epoch at boot" "1970-01-01" "$(date +%F)"
s=$(date +%s)
[ "$s" -ge 0 ] && [ "$s" -lt 120 ] && r=ok || r="$s"
is "date +%s counts seconds since boot" "ok" "$r"
is "date's default layout" "1" "$(date | grep -c '^Thu Jan  1 00:0[0-9]:[0-5][0-9] UTC 1970$')"

echo hello > /tmp/u.txt
is "stat -c" "/tmp/u.txt 6 regular file -rw-r--r--" "$(stat -c '%n %s %F %A' /tmp/u.txt)"
is "stat of a tracefs directory" "directory" "$(stat -c %F /sys/kernel/tracing/events)"

is "readlink of tracefs's debug link" "/sys/kernel/tracing" "$(readlink /sys/kernel/debug/tracing)"
is "readlink -f through it" "/sys/kernel/tracing/events" \
	"$(readlink -f /sys/kernel/debug/tracing/events/sched/..)"
ln -s /sys/kernel/tracing /tmp/t
rm /tmp/t
is "rm of a link leaves its target" "yes" "$([ -e /sys/kernel/tracing/trace ] && [ ! -e /tmp/t ] && echo yes)"

printf 'f(x)\nfx\na\nb\nc\nd\n' > /tmp/u.txt
is "grep -F is literal" "f(x)" "$(grep -F 'f(x)' /tmp/u.txt)"
is "grep -A1 with separators" "a b -- d" "$(grep -A1 -e '^a' -e '^d' /tmp/u.txt | tr '\n' ' ' | sed 's/ $//')"
is "tr -dc and -cs" "42 one two" "$(echo 'Hi, 42!' | tr -dc 0-9) $(printf 'one  ,two' | tr -cs a-z ' ')"
is "printf with * widths" "[  7][ab  ][xy]" "$(printf '[%*d][%-*s][%.*s]' 3 7 4 ab 2 xyz)"
x=sched_switch
is "substrings" "switch sch" "${x:6} ${x:0:3}"
