# Ring-3 programs (user/NAME, static musl binaries in /bin) run from the
# shell: by path and through PATH, with argv and the environment as execve
# hands them over, a static PIE that relocates itself, exit statuses and
# fatal signals as $? (128 + the signal; the shell names a segfault).
# expect: Segmentation fault
. /spoor/lib/tap.sh
echo 1..32

is "/bin/hello" "hello, world" "$(/bin/hello)"
is "hello through PATH" "hello, world" "$(hello)"
hello > /dev/null
is "hello exits 0" 0 $?

hello_pie > /tmp/pie.out
is "static PIE exits 0 (it was loaded away from base 0)" 0 $?
is "static PIE prints through relocated stdio" "hello, world (static pie)" "$(head -n 1 /tmp/pie.out)"
is "static PIE relocated" "relocated: yes" "$(tail -n 1 /tmp/pie.out)"

# glibc's start-up: rseq (ENOSYS), prlimit64, readlink /proc/self/exe, getrandom; sendfile, threads
hello_glibc > /tmp/glibc.out
is "glibc static program exits 0" 0 $?
is "glibc: exe, getrandom, rlimit, thread, fork, sendfile" "hello_glibc: 0 failed" "$(tail -n 1 /tmp/glibc.out)"

export SPOOR_EXPORTED=yes
SPOOR_LOCAL=no
SPOOR_PREFIX='a b' /bin/args one 'two words' '' > /tmp/args.out
is "args exits 0 (argv ends in NULL)" 0 $?
is "argc" "argc=4" "$(sed -n 1p /tmp/args.out)"
is "argv[0] is the path run" "argv[0]=/bin/args" "$(sed -n 2p /tmp/args.out)"
is "argv[1]" "argv[1]=one" "$(sed -n 3p /tmp/args.out)"
is "argv[2] keeps its space" "argv[2]=two words" "$(sed -n 4p /tmp/args.out)"
is "argv[3] is empty" "argv[3]=" "$(sed -n 5p /tmp/args.out)"
is "an exported variable is passed" 1 "$(grep -c '^env SPOOR_EXPORTED=yes$' /tmp/args.out)"
is "a prefix assignment is passed" 1 "$(grep -c '^env SPOOR_PREFIX=a b$' /tmp/args.out)"
is "an unexported variable is not" 0 "$(grep -c SPOOR_LOCAL /tmp/args.out)"
is "PATH is passed" 1 "$(grep -c '^env PATH=' /tmp/args.out)"
is "argv[0] through PATH is the name typed" "argv[0]=args" "$(args | sed -n 2p)"
args $(seq 1 1000) > /tmp/args.out
is "1000 arguments: argc" "argc=1001" "$(head -n 1 /tmp/args.out)"
is "1000 arguments: the last" "argv[1000]=1000" "$(grep '^argv\[1000\]=' /tmp/args.out)"

/bin/maps > /tmp/maps.out
is "/proc/self/maps lists the text and the [stack]" 0 $?

for n in 0 1 42 255; do
	exitcode $n
	is "exit($n) gives \$? $n" $n $?
done
exitcode 256
is "exit(256) keeps the low 8 bits" 0 $?
exitcode segv
is "a NULL write: SIGSEGV, 128+11" 139 $?
exitcode abort
is "abort(): SIGABRT, 128+6" 134 $?
exitcode ill
is "ud2: SIGILL, 128+4" 132 $?
exitcode fpe
is "divide by zero: SIGFPE, 128+8" 136 $?
/bin/no_such_program 2> /dev/null
is "a missing program: 127" 127 $?
