# The GRUB path: spoor exec --iso packs the scripts and the command line into
# a rescue image, GRUB loads the kernel by multiboot2 with the initrd as a
# module, and the guest runs this script as it would under -kernel.
# spoor-exec: --iso
# expect: Booting `Spoor'
echo "1..3"
if dmesg | grep -q 'loader magic 0x36d76289'; then
	echo "ok 1 - booted by a multiboot2 loader"
else
	echo "not ok 1 - booted by a multiboot2 loader"
fi
if [ -f /spoor/exec/1.sh ]; then
	echo "ok 2 - the exec initrd arrived as a multiboot2 module"
else
	echo "not ok 2 - the exec initrd arrived as a multiboot2 module"
fi
if [ "$(nproc)" = 4 ]; then
	echo "ok 3 - all 4 CPUs are up"
else
	echo "not ok 3 - all 4 CPUs are up (nproc says $(nproc))"
fi
