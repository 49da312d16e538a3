#!/bin/sh
# mkiso.sh KERNEL INITRD ISO: a GRUB (multiboot2) rescue image.
set -e
kernel=$1 initrd=$2 iso=$3
stage=$(dirname "$iso")/iso
rm -rf "$stage"
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/spoor.elf"
cp "$initrd" "$stage/boot/initrd.cpio"
cp images/grub.cfg "$stage/boot/grub/grub.cfg"
grub-mkrescue -o "$iso" "$stage" >"$iso.log" 2>&1 || { cat "$iso.log" >&2; exit 1; }
