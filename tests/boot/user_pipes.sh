# Ring-3 programs in pipelines, redirections, command substitution and the
# background, next to the shell's own commands; kill reaches them.
. /spoor/lib/tap.sh
echo 1..20

echo x | pipeio | cat > /tmp/p.out
is "echo x | pipeio | cat: the data" "X" "$(sed -n 1p /tmp/p.out)"
is "echo x | pipeio | cat: the count" "pipeio: 1 lines, 2 bytes" "$(sed -n 2p /tmp/p.out)"
is "program | program | command" "HELLO, WORLD" "$(hello | pipeio | head -n 1)"
# 1..20000 is 9*2 + 90*3 + 900*4 + 9000*5 + 10001*6 bytes
is "20000 lines through a pipe" "pipeio: 20000 lines, 108894 bytes" "$(seq 1 20000 | pipeio | tail -n 1)"
is "upper case all the way through" 20000 "$(seq 1 20000 | pipeio | grep -c '^[0-9]*$')"
pipeio < /spoor/lib/tap.sh > /tmp/p.out
is "stdin from a file" "$(wc -l < /spoor/lib/tap.sh)" "$(tail -n 1 /tmp/p.out | sed 's/pipeio: \([0-9]*\) lines.*/\1/')"
is "\$( ) of a program" 13 "$(hello | wc -c)"
exitcode bogus 2> /tmp/err.out
is "stderr redirected: the status" 2 $?
is "stderr redirected: the text" 1 "$(grep -c '^usage: exitcode' /tmp/err.out)"
hello | exitcode 3
is "a pipeline's status is its last program's" 3 $?
exitcode 3 | cat
is "... or its last command's" 0 $?

hello > /tmp/bg.out &
wait $!
is "hello & then wait: status" 0 $?
is "hello & then wait: output" "hello, world" "$(cat /tmp/bg.out)"
exitcode 7 &
wait $!
is "exitcode 7 & wait: 7" 7 $?
exitcode segv 2> /dev/null &
wait $!
is "exitcode segv & wait: 139" 139 $?
forkloop 50 > /tmp/a.out &
forkloop 50 > /tmp/b.out &
wait
is "two programs at once: the first" "forkloop: 50 of 50 cycles" "$(cat /tmp/a.out)"
is "two programs at once: the second" "forkloop: 50 of 50 cycles" "$(cat /tmp/b.out)"

forkloop 100000000 > /dev/null &
pid=$!
sleep 0.2
kill $pid
wait $pid
is "kill ends a running program: 128+SIGTERM" 143 $?
forkloop 100000000 > /dev/null &
pid=$!
sleep 0.2
kill -9 $pid
wait $pid
is "kill -9: 128+SIGKILL" 137 $?
kill -0 $pid 2> /dev/null
is "and it is gone once waited for" 1 $?
