#!/bin/sh
# test-one.sh NAME...: run single tests, unit (tests/unit/NAME.c) or boot
# (tests/boot/NAME.sh), building what they need, and print their results
# as `ninja test` does. NINJA_FILE picks the build (default build.ninja;
# build-foo.ninja for a private BUILD=build-foo tree).
#   tools/test-one.sh trace_pipe sh_cmds
set -eu
cd "$(dirname "$0")/.."
nf=${NINJA_FILE:-build.ninja}
b=$(sed -n 's/^builddir = //p' "$nf")
results=""
for n in "$@"; do
	n=$(basename "$n" .sh)
	n=$(basename "$n" .c)
	if [ -f "tests/boot/$n.sh" ]; then
		results="$results $b/results/boot/$n.result"
	elif [ -f "tests/unit/$n.c" ]; then
		results="$results $b/results/unit/$n.result"
	else
		echo "test-one.sh: no test named $n (tests/boot/$n.sh, tests/unit/$n.c)" >&2
		exit 2
	fi
done
[ -n "$results" ] || { echo "usage: tools/test-one.sh NAME..." >&2; exit 2; }
# shellcheck disable=SC2086
ninja -f "$nf" $results
# shellcheck disable=SC2086
exec tools/test-summary.sh $results
