# spoor exec keeps the guest's stderr apart from its stdout (kernel/console_frame.h):
# the stdout:/stderr: lines check each stream on the host, the expect: line that
# 2>&1 keeps them in the order they were written, one partial line at a time.
# stdout: ^o1-o2-o3$
# stdout: ^child-out$
# stdout: ^bg-out$
# stdout: ^merged-err$
# stdout: ^esc2:..:end$
# stdout: !(e1|e2|ls: |usage: exitcode|child-err|bg-err|esc1)
# stderr: ^e1-e2$
# stderr: ^ls: /no/such/file: No such file or directory$
# stderr: ^usage: exitcode
# stderr: ^child-err$
# stderr: ^bg-err$
# stderr: ^esc1:.:end$
# stderr: !(o1|o2|o3|ok [0-9]|child-out|bg-out|merged-err|esc2)
# expect: ^o1-e1-o2-e2$
# expect: ^o3$
. /spoor/lib/tap.sh
echo "1..3"
# Partial lines, alternating: with 2>&1 the host must show o1-e1-o2-e2 on one line.
printf 'o1-'; printf 'e1-' >&2; printf 'o2-'; printf 'e2\n' >&2; printf 'o3\n'
ls /no/such/file
test $? -ne 0
result $? "a command's error message (the shell's stderr)"
/bin/exitcode nonsense
test $? -eq 2
result $? "a ring-3 program's stderr (musl's fprintf(stderr))"
sh -c 'echo child-err >&2; echo child-out'
( echo bg-out; echo bg-err >&2 ) &
wait
# Redirected in the guest, stderr is whatever 2>&1 made it: here stdout.
echo merged-err 2>&1 >&2
test "$(ls /no/such/file 2>&1)" = "ls: /no/such/file: No such file or directory"
result $? "2>&1 into a pipe inside the guest still captures stderr"
# The framing escape byte (DLE, 0x10) is data on either stream.
printf 'esc1:\020:end\n' >&2
printf 'esc2:\020\020:end\n'
