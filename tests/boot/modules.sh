# Modules from ring 3: /bin/modprobe and /bin/rmmod (user/modprobe) find a
# module file through /lib/modules/RELEASE/modules.dep and call Linux's
# finit_module and delete_module (kernel/module.c); the file's .modinfo
# names a module built into Spoor, and loading it runs that module.
. /spoor/lib/tap.sh
echo 1..14

rel=$(uname -r)
is "modules.dep lists the module files" "kernel/preemptirq_delay_test.ko:" "$(cat /lib/modules/$rel/modules.dep)"
is "/proc/modules is empty at boot" "" "$(cat /proc/modules)"

cd /sys/kernel/tracing
echo irqsoff > current_tracer
# Under tracing_thresh every section above it is reported, the last one
# staying: a host that stalls a vCPU with interrupts off makes sections of
# any length (a loaded run saw one of 17 ms come after the module's), so the
# module is loaded again, up to three times, until the reported section is
# its own: 20 ms started in preemptirq_delay_init.
echo 15000 > tracing_thresh
seen=no
for try in 1 2 3; do
	echo 0 > tracing_max_latency
	out=$(/bin/sh -c 'modprobe preemptirq_delay_test test_mode=irq delay=20000 2>&1; echo $?')
	[ $try = 1 ] && first=$out
	max=$(cat tracing_max_latency)
	grep -q '=> started at: preemptirq_delay_init$' trace && [ "$max" -ge 20000 ] && seen=yes
	[ $seen = yes ] && break
	[ $try = 3 ] || /bin/sh -c 'rmmod preemptirq_delay_test'
done
echo 0 > tracing_thresh
is "modprobe with parameters, from /bin/sh" "0" "$first"
is "... the module ran: irqsoff saw its 20000 us section ($max us, load $try)" yes $seen
is "/proc/modules lists it as Linux does" "preemptirq_delay_test 16384 0 - Live 0x0000000000000000" \
	"$(cat /proc/modules)"
echo 0 > tracing_max_latency
is "a second modprobe succeeds ('-' for '_')" "0" \
	"$(/bin/sh -c 'modprobe preemptirq-delay-test delay=30000 2>&1; echo $?')"
# (other code keeps interrupts off for a few ms now and then: not 30000 us)
check "... without running the module again ($(cat tracing_max_latency) us)" \
	[ "$(cat tracing_max_latency)" -lt 30000 ]
echo nop > current_tracer
is "rmmod unloads it" "0|" "$(/bin/sh -c 'rmmod preemptirq_delay_test 2>&1; echo $?')|$(cat /proc/modules)"
is "... twice is ENOENT" "rmmod: can't unload module 'preemptirq_delay_test': No such file or directory|1" \
	"$(/bin/sh -c 'rmmod preemptirq_delay_test 2>&1; echo "|$?"' | tr -d '\n')"
is "an unknown module is not in modules.dep" "modprobe: module nosuch not found in modules.dep|1" \
	"$(/bin/sh -c 'modprobe nosuch 2>&1; echo "|$?"' | tr -d '\n')"
is "a bad parameter is EINVAL, nothing loaded" \
	"modprobe: bad parameter 'bogus=1'|modprobe: can't load module preemptirq_delay_test (/lib/modules/$rel/kernel/preemptirq_delay_test.ko): Invalid argument|1|" \
	"$(/bin/sh -c 'modprobe preemptirq_delay_test bogus=1 2>&1; echo "|$?"' | tr '\n' '|' | sed 's/||/|/')$(cat /proc/modules)"
# A file that is no module object: finit_module says ENOEXEC.
cp /bin/hello /lib/modules/$rel/kernel/hello.ko
echo "kernel/hello.ko:" >> /lib/modules/$rel/modules.dep
is "a program is no module: Exec format error" \
	"modprobe: can't load module hello (/lib/modules/$rel/kernel/hello.ko): Exec format error" \
	"$(/bin/sh -c 'modprobe hello' 2>&1)"
cd /sys/kernel/tracing
echo > trace
echo 1 > events/syscalls/sys_enter_delete_module/enable
/bin/sh -c 'rmmod preemptirq_delay_test' 2>/dev/null
echo 0 > events/syscalls/sys_enter_delete_module/enable
check "tracing sees rmmod's delete_module" \
	grep -q "rmmod-[0-9]* .*sys_delete_module(name_user: [0-9a-f]*, flags: 800)" trace
is "the console shell's modprobe loads the same module" "preemptirq_delay_test" \
	"$(modprobe preemptirq_delay_test delay=10; cut -d' ' -f1 /proc/modules)"
