# Sourced by the bench/*_guest.sh scripts, which count guest instructions
# under QEMU -icount and compare with Linux on the linux-ref rig.

# bench_setup [BUILD_DIR]: from the repository root, configure if needed and
# build the runner, kernel and initrd. Sets build, nf (its ninja file), ref
# (the linux-ref scripts), rig (the rig's cache) and tmp (removed at exit).
bench_setup() {
	cd "$(dirname "$0")/.."
	build=${1:-build}
	ref=${LINUX_REF:-../shared/tools/linux-ref}
	rig=${RIG:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-ref}
	if [ "$build" = build ]; then nf=build.ninja; else nf=$build.ninja; fi
	[ -f "$nf" ] || BUILD=$build ./configure
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT INT TERM
	ninja -f "$nf" "$build/spoor" "$build/spoor.elf" "$build/initrd.cpio" > "$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" >&2; exit 1; }
}

# bench_qemu_icount OPTION...: spoor exec has no QEMU passthrough, so a
# qemu-system-x86_64 first in $PATH ($tmp, put there by the caller) drops
# any -icount of its own and adds these options instead.
bench_qemu_icount() {
	real=$(command -v qemu-system-x86_64)
	cat > "$tmp/qemu-system-x86_64" <<WRAPPER
#!/bin/sh
skip=
for a; do
	shift
	if [ -n "\$skip" ]; then skip=; continue; fi
	if [ "\$a" = -icount ]; then skip=1; continue; fi
	set -- "\$@" "\$a"
done
exec "$real" "\$@" $*
WRAPPER
	chmod +x "$tmp/qemu-system-x86_64"
}
