# Linux 6.12's own user_events selftests ftrace_test, dyn_test, abi_test and perf_test,
# compiled unchanged from Debian's linux-source-6.12 by the build (configure,
# tools/linux-selftests.sh) into /bin/ue_NAME: one TAP line per test case and
# one per program's exit status. Linux passes dyn_test and abi_test only by
# timing (it destroys events from a workqueue); Spoor must pass every time.
# spoor-exec: --smp 4 --timeout 240
. /spoor/lib/tap.sh
echo 1..22
for t in ftrace_test dyn_test abi_test perf_test; do
	/bin/ue_$t > /tmp/$t.out 2>&1
	st=$?
	grep -E '^(not )?ok [0-9]+ ' /tmp/$t.out > /tmp/$t.tap
	while read -r verdict a b c; do
		if [ "$verdict" = ok ]; then ok "$t: $b"; else not_ok "$t: $c"; fi
	done < /tmp/$t.tap
	is "$t: exit status" 0 $st
	[ $st = 0 ] || sed 's/^/# /' /tmp/$t.out
done
