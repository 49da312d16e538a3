# The same kernel booted by GRUB from the ISO (multiboot2): memory map,
# command line, initrd module and ACPI all come through the loader.
# spoor-exec: --iso --smp 4
# expect: Spoor booting \(loader magic 0x36d76289
# expect: smp: brought up 4 of 4 CPUs$
echo 1..2
[ "$(nproc)" = 4 ] && echo "ok 1 - 4 CPUs" || echo "not ok 1 - $(nproc) CPUs"
[ -f /spoor/exec/1.sh ] && echo "ok 2 - the initrd with this script arrived" || echo "not ok 2 - no initrd"
