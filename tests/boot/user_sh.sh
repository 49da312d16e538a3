# /bin/sh: Spoor's shell built as a ring-3 program (user/sh). The same
# interpreter and commands as the console's, but each command a fork()ed
# process and each file operation a system call a tracer sees, as a Linux
# shell's.
. /spoor/lib/tap.sh
echo 1..27

S=/bin/sh
is "a pipeline through commands" "2" "$($S -c 'printf "a\nb\nab\n" | grep b | wc -l')"
is "command substitution and awk" "x=b" "$($S -c 'x=$(echo a b | awk "{print \$2}"); echo "x=$x"')"
is "sed ranges" "2 3 4" "$($S -c 'seq 1 6 | sed -n "2,4p"' | tr '\n' ' ' | sed 's/ $//')"
is "a missing command's message follows 2>&1 into the pipe" "sh: nosuchcmd: not found" \
	"$($S -c 'nosuchcmd 2>&1 | cat' 2>/dev/null)"
is "... its status is 127" "127" "$($S -c 'nosuchcmd 2>/dev/null; echo $?')"
is "a trap runs on a signal sent to the shell" "got USR1 after" \
	"$($S -c 'trap "echo got USR1" USR1; kill -USR1 $$; echo after' | tr '\n' ' ' | sed 's/ $//')"
# ftracetest reports results with realtime signals (SIGRTMIN+N)
is "... a realtime one too" "rt" "$($S -c 'trap "echo rt" 40; kill -s 40 $$')"
is "a command killed by a signal: 128+N" "143" "$($S -c 'sleep 10 & kill -TERM $!; wait $!; echo $?')"
is "\$\$ is the shell's pid, a process of its own" "sh" \
	"$($S -c 'read pid comm rest < /proc/$$/stat; echo $comm' | tr -d '()')"
is "a command's parent is the shell" "yes" \
	"$($S -c 'set -- $(cat /proc/self/stat); [ $4 = $$ ] && echo yes')"
is "redirections and here-documents" "one two" \
	"$($S -c 'cd /tmp && echo one > f && cat <<END >> f
two
END
cat f' | tr '\n' ' ' | sed 's/ $//')"
is "test -t: a pipe is no terminal" "1" "$($S -c '[ -t 1 ]; echo $?' | cat)"
is "a script file with arguments" "b 2" "$(printf 'echo $2 $#\n' > /tmp/s.sh; $S /tmp/s.sh a b)"
is "its exit status" "3" "$($S -c 'exit 3'; echo $?)"

is "command -v: a program's path, a command's name" "/bin/hello grep" "$(command -v hello grep | tr '\n' ' ' | sed 's/ $//')"
# In ring 3 a program in PATH comes before the command of that name, as on Linux.
is "... in /bin/sh, /bin/ping before the ping command" "/bin/ping /bin/sh cd" \
	"$($S -c 'command -v ping sh cd' | tr '\n' ' ' | sed 's/ $//')"

# '#!' scripts: execve runs the interpreter the first line names (kernel/exec/exec_script.c).
cd /tmp
printf '#!/bin/sh\necho "[$0] [$1] [$#]"; read pid comm rest < /proc/$$/stat; echo $comm\n' > hb
chmod +x hb
is "a '#!/bin/sh' script run from the console shell: argv as Linux builds it" "[./hb] [a] [2] (hb)" \
	"$(./hb a b | tr '\n' ' ' | sed 's/ $//')"
is "... and from /bin/sh" "[/tmp/hb] [x] [1] (hb)" "$($S -c '/tmp/hb x' | tr '\n' ' ' | sed 's/ $//')"
printf '#!/bin/sh -e  \nfalse\necho not reached\n' > hb
is "the line's one argument, blanks trimmed (-e stops at false)" "1" "$(./hb; echo $?)"
printf '#!/nonexistent\n' > hb
is "a missing interpreter: ENOENT" "sh: ./hb: No such file or directory|127" "$( (./hb 2>&1; echo "|$?") | tr -d '\n')"
printf '#!/tmp/hb\n' > hb
is "a script that is its own interpreter: ELOOP" "sh: ./hb: Too many levels of symbolic links|126" \
	"$( (./hb 2>&1; echo "|$?") | tr -d '\n')"
printf 'echo no line: $1\n' > hb
is "no '#!': the shell runs it itself" "no line: z" "$(./hb z)"
chmod 644 hb
is "chmod took the execute bits away" "sh: ./hb: not found|127" "$( (./hb 2>&1; echo "|$?") | tr -d '\n')"
cd /

# What a tracer sees: the shell's commands make system calls.
cd /sys/kernel/tracing
echo > trace
echo 1 > events/syscalls/sys_enter_openat/enable
$S -c 'ls /bin > /dev/null; cat /proc/version > /dev/null'
echo 0 > events/syscalls/sys_enter_openat/enable
check "ls opens its directory with openat, as a Linux ls" grep -q "ls-[0-9]* .*sys_openat(dfd: ffffffffffffff9c, filename: [0-9a-f]*, flags: " trace
check "... and cat its file" grep -q "cat-[0-9]* .*sys_openat(" trace
echo > trace
echo 1 > events/sched/sched_process_exec/enable
$S -c 'ping -c 1 127.0.0.1 > /dev/null; grep -q x /dev/null'
echo 0 > events/sched/sched_process_exec/enable
check "ping from /bin/sh is a program: an exec" grep -q "ping-[0-9]* .*sched_process_exec: filename=/bin/ping" trace
is "... grep is a command: no exec" "0" "$(grep -c 'filename=.*grep' trace)"
echo > trace
