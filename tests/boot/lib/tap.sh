# TAP helpers for boot tests. tools/run-boot-test.sh puts this file in every
# guest at /spoor/lib/tap.sh; a test sources it (. /spoor/lib/tap.sh), prints
# its plan (echo 1..N) and reports each check through one of these, which
# number the lines in order. The runner compares the plan with what ran.
tap_n=0

ok() {		# ok WHAT
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

not_ok() {	# not_ok WHAT
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1"
}

# check WHAT COMMAND...: the command's exit status is the verdict.
check() {
	local tap_what=$1
	shift
	if "$@"; then ok "$tap_what"; else not_ok "$tap_what"; fi
}

# result STATUS WHAT: for a status already in hand, e.g. result $? "what".
result() {
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}

# is WHAT WANT GOT: the strings must be equal; a failure shows both.
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: want [$2], got [$3]"; fi
}

# meminfo FIELD: the value (kB) of one /proc/meminfo line, for tests that
# check memory comes back (MemFree, Slab, PageTables).
meminfo() {
	local k v u
	while read -r k v u; do
		[ "$k" = "$1:" ] && echo "$v"
	done < /proc/meminfo
}
