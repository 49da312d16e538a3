#!/bin/sh
# mkiso.sh KERNEL INITRD ISO [CMDLINE]: a GRUB (multiboot2) rescue image of
# Spoor, booting KERNEL with INITRD as its module and CMDLINE (if any) as
# its command line. The menu is images/grub.cfg, next to this script; the
# build makes build/spoor.iso with it, `spoor exec --iso` its own images.
set -e
kernel=$1 initrd=$2 iso=$3 cmdline=${4:-}
here=$(dirname "$0")
stage=$(mktemp -d "${TMPDIR:-/tmp}/spoor-iso.XXXXXX")
log=$(mktemp "${TMPDIR:-/tmp}/spoor-iso-log.XXXXXX")	# not in the stage: it is packed
trap 'rm -rf "$stage" "$log"' EXIT INT TERM
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/spoor.elf"
cp "$initrd" "$stage/boot/initrd.cpio"
# The command line goes after the kernel's path on the multiboot2 line.
sed "s|^\([[:space:]]*multiboot2 /boot/spoor.elf\)\$|\1${cmdline:+ $cmdline}|" \
	"$here/grub.cfg" > "$stage/boot/grub/grub.cfg"
if ! grub-mkrescue -o "$iso" "$stage" >"$log" 2>&1; then
	cat "$log" >&2
	echo "mkiso.sh: grub-mkrescue failed (tools/setup.sh installs it)" >&2
	exit 1
fi
