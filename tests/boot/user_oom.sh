# spoor-exec: --smp 2 --mem 128
# The OOM killer: page faults that find no free page kill the process with
# the most memory (SIGKILL, Linux's "Out of memory: Killed process" line)
# and are retried, instead of failing the access with SIGBUS. Processes
# faulting next to the hog keep running, the shell survives, and the
# memory comes back.
. /spoor/lib/tap.sh
echo 1..8

memhog 4 > /tmp/small.out
is "memhog 4: fits, status 0" "0 memhog: 4 MiB touched" "$? $(cat /tmp/small.out)"

f0=$(meminfo MemFree)
memhog 512 > /tmp/hog.out
is "memhog 512 on 128 MiB: killed by SIGKILL" 137 $?
is "memhog 512: never got to print" "" "$(cat /tmp/hog.out)"
dmesg > /tmp/dmesg.out
grep -q 'memhog invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), order=0' /tmp/dmesg.out
is "the kernel log says who invoked the OOM killer" 0 $?
kills=$(grep -c 'Out of memory: Killed process [0-9]* (memhog) total-vm:5[0-9]*kB, anon-rss:[0-9]*kB' /tmp/dmesg.out)
is "one kill, of memhog, in Linux's format" 1 "$kills"
f1=$(meminfo MemFree)
d=$((f0 - f1))
if [ "$d" -le 256 ]; then ok "MemFree back after the kill: $d kB"; else not_ok "MemFree back after the kill: $d kB lost"; fi

# A hog and a small process faulting at the same time: the hog goes, the
# small one finishes its work (its faults wait for the hog's pages).
memhog 512 > /tmp/hog2.out &
hog=$!
malloc_stress 400 > /tmp/ms.out
is "malloc_stress next to a hog: status 0, no pattern errors" 0 $?
wait $hog
is "the hog next to it: killed by SIGKILL" 137 $?
