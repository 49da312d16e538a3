#!/bin/sh
# linux-selftests.sh DIR: put Linux 6.12's user_events selftests (tools/testing/
# selftests/user_events, kselftest_harness.h, kselftest.h), ftracetest (tools/testing/
# selftests/ftrace: the driver and test.d) and the uapi headers they
# need (linux/user_events.h, linux/perf_event.h) in DIR, from Debian's
# linux-source-6.12 (tools/setup.sh installs it; without it the package is
# downloaded into DIR). Their code is GPL-2.0 and never part of this tree: the
# build compiles it from DIR. DIR/sysinc gets the host's kernel headers (linux/,
# asm/, asm-generic/), which musl's include folder lacks.
set -e
out=$1
# The marker names what was extracted: a tree from before ftracetest is redone.
[ -f "$out/.complete" ] && [ -d "$out/tools/testing/selftests/ftrace" ] && exit 0
mkdir -p "$out"
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
	( cd "$out" && { ls ./linux-source-6.12_*.deb >/dev/null 2>&1 || apt-get download linux-source-6.12 >/dev/null; } )
	dpkg-deb -x "$out"/linux-source-6.12_*.deb "$out/deb"
	tarball=$(ls "$out"/deb/usr/src/linux-source-6.12.tar.*)
fi
top=$(basename "$tarball" | sed 's/\.tar\..*//')
tar -xaf "$tarball" -C "$out" --strip-components=1 \
	"$top/tools/testing/selftests/user_events" "$top/tools/testing/selftests/ftrace" \
	"$top/tools/testing/selftests/kselftest_harness.h" "$top/tools/testing/selftests/kselftest.h" \
	"$top/include/uapi/linux/user_events.h" "$top/include/uapi/linux/perf_event.h"
rm -rf "$out/deb" "$out"/linux-source-6.12_*.deb "$out/sysinc"
mkdir -p "$out/sysinc"
for d in linux asm-generic; do ln -s "/usr/include/$d" "$out/sysinc/$d"; done
ln -s "/usr/include/$(gcc -print-multiarch)/asm" "$out/sysinc/asm"
touch "$out/.complete"
