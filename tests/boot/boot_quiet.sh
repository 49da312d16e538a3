# quiet on the kernel command line (not spoor exec --quiet, which hides the boot
# log itself): the console shows warnings and worse only, from the first line
# on, and the kernel log keeps everything.
# spoor-exec: --smp 2 --append quiet
# stdout: !Spoor booting
# stdout: !smp: brought up
# stdout: !Spoor ready
# stdout: ^ok 1
. /spoor/lib/tap.sh
echo "1..2"
dmesg | grep -q 'Spoor booting (loader magic'
result $? "dmesg has the first boot line the console did not show"
dmesg | grep -q 'smp: brought up 2 of 2 CPUs'
result $? "dmesg has the SMP line"
