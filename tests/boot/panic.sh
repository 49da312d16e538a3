# A deliberate kernel fault: an oops report with registers and a symbolized
# call trace, then a panic that stops every CPU and ends QEMU with the
# panic status, which spoor exec turns into 125.
# spoor-exec-status: 125
# expect: ^\[ *[0-9]+\.[0-9]{6}\] BUG: kernel NULL pointer dereference, address: 0000000000000000$
# expect: #PF: supervisor write access in kernel mode
# expect: ^\[ *[0-9]+\.[0-9]{6}\] RIP: 0008:sysrq_crash\+0x[0-9a-f]+/0x[0-9a-f]+$
# expect: ^\[ *[0-9]+\.[0-9]{6}\] RAX: [0-9a-f]{16} RBX: [0-9a-f]{16} RCX: [0-9a-f]{16}$
# expect: ^\[ *[0-9]+\.[0-9]{6}\]  sysrq_write\+0x
# expect: Kernel panic - not syncing: Fatal exception
echo c > /proc/sysrq-trigger
echo "not reached"
