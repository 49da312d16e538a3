#!/bin/sh
# setup.sh: install the Debian 12 packages Spoor's build, run and tests need.
# Idempotent, and silent when nothing is missing. Works as root or via sudo.
set -e
pkgs="gcc binutils libc6-dev ninja-build qemu-system-x86 grub-pc-bin grub-common
xorriso mtools libcriterion-dev zlib1g-dev libzstd-dev trace-cmd valgrind cpio
musl-tools linux-source-6.12 linux-perf"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
echo "setup: installing$missing"
log=$(mktemp)
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
	cat "$log" >&2
	rm -f "$log"
	exit 1
fi
rm -f "$log"
