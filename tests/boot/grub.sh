# The same kernel booted by GRUB from the ISO (multiboot2): memory map,
# command line, initrd module and ACPI all come through the loader.
# spoor-exec: --iso --smp 4
# expect: Spoor booting \(loader magic 0x36d76289
# expect: smp: brought up 4 of 4 CPUs$
. /spoor/lib/tap.sh
echo 1..2
is "4 CPUs" 4 "$(nproc)"
check "the initrd with this script arrived" test -f /spoor/exec/1.sh
