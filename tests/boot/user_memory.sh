# Programs give back what they take: after 1000 fork/exit/wait cycles (a
# whole address space built and torn down each time), a malloc run over
# brk and mmap, and threads, MemFree is back within a few pages.
. /spoor/lib/tap.sh
echo 1..5

# at_most WHAT LIMIT GROWTH
at_most() {
	if [ "$3" -le "$2" ]; then ok "$1: $3"; else not_ok "$1: $3, more than $2"; fi
}

forkloop 20 > /dev/null	# warm up: caches the first runs fill may stay filled
malloc_stress 200 > /dev/null
threads 2 > /dev/null
f0=$(meminfo MemFree)
forkloop > /tmp/fl.out
is "forkloop: status" 0 $?
is "forkloop: all cycles" "forkloop: 1000 of 1000 cycles" "$(cat /tmp/fl.out)"
f1=$(meminfo MemFree)
at_most "MemFree kB lost over 1000 fork/exit/wait cycles" 64 $((f0 - f1))
malloc_stress > /dev/null
threads > /dev/null
f2=$(meminfo MemFree)
at_most "MemFree kB lost over malloc_stress and threads" 64 $((f1 - f2))
at_most "MemFree kB lost in all" 64 $((f0 - f2))
