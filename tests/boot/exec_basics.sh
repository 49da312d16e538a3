# The spoor exec contract seen from inside the guest: where the scripts and
# --file extras land, the runner's options, a writable /tmp, the tracefs mount.
# spoor-exec: --smp 2 --file tests/boot/exec_basics.sh --file tests/boot/exec_basics.sh:/etc/exec_copy
. /spoor/lib/tap.sh
echo "1..8"
test -f /spoor/exec/1.sh
result $? "this script is /spoor/exec/1.sh"
diff /spoor/exec/1.sh /tmp/exec_basics.sh
result $? "--file HOST lands in /tmp/BASENAME, byte for byte"
diff /spoor/exec/1.sh /etc/exec_copy
result $? "--file HOST:GUEST lands at GUEST"
echo written > /tmp/exec_basics.out && test "$(cat /tmp/exec_basics.out)" = written
result $? "/tmp is writable"
test "$(nproc)" = 2
result $? "--smp 2 from the spoor-exec line gives 2 CPUs"
test -d /bin && test -d /dev && test -d /proc
result $? "the standard initrd and the pseudo file systems are there"
test -f /sys/kernel/tracing/trace && test -d /sys/kernel/debug/tracing/events
result $? "tracefs at /sys/kernel/tracing and /sys/kernel/debug/tracing"
! false
result $? "! inverts a status"
