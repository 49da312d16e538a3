/* start_kernel: the boot CPU's path from the loader to a running system. */
#include <kernel/types.h>
#include <kernel/time.h>
#include <kernel/printk.h>
#include <asm/serial.h>
#include <asm/segment.h>
#include <asm/idt.h>
#include <asm/setup.h>
#include <kernel/fs/fs_boot.h>
#include <kernel/console.h>
#include <kernel/string.h>
#include <kernel/cmdline.h>
#include <kernel/bootinfo.h>
#include <kernel/sched.h>
#include <kernel/futex.h>
#include <kernel/smp.h>
#include <kernel/selftest.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/tsc.h>
#include <kernel/jump_label.h>
#include <trace/trace.h>
#include <trace/trace_events_hist.h>
#include <trace/user_events.h>
#include <trace/trace_kprobe.h>
#include <kernel/kprobes.h>
#include <kernel/shell/init.h>
#include <kernel/ftrace.h>
#include <trace/trace_functions.h>
#include <trace/trace_functions_graph.h>
#include <trace/trace_latency.h>

void start_kernel(u32 magic, u32 info_phys);

/*
 * pid 1: the boot self-checks the command line asks for (selftest=base),
 * then the shell (kernel/shell/init.c): spoor.exec scripts or the console.
 */
static int kernel_init(void *unused)
{
	const char *selftest = cmdline_get(&boot_cmdline, "selftest");

	if (selftest && !strcmp(selftest, "base"))
		selftest_base();
	shell_init();	/* returns only if the shell cannot start */
	for (;;)
		schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	return 0;
}

/* Early boot: runs before per-CPU data (and so the tracer) works. */
notrace void start_kernel(u32 magic, u32 info_phys)
{
	serial_init();
	gdt_init_cpu();
	idt_init();
	setup_arch(magic, info_phys);
	/* Static branches can be patched once text can be aliased (paging, memory). */
	jump_label_init();
	/* Function-tracer sites: read once kmalloc works, before tracefs files use them. */
	if (ftrace_init() || trace_functions_init() || trace_preemptirq_init() ||
	    trace_irqsoff_init() || trace_wakeup_init() || trace_functions_graph_init())
		printk(KERN_ERR "ftrace: no function tracer\n");
	/* CPUs, time and the scheduler: needs memory and boot_info/boot_cmdline. */
	acpi_init(boot_info.rsdp_len ? boot_info.rsdp : NULL);
	apic_init();
	console_init_irq();
	setup_per_cpu_areas();
	lapic_setup();
	tsc_calibrate();
	sched_init();
	futex_init();
	tick_start_cpu();
	arch_local_irq_enable();
	smp_init();
	/* After memory and SMP bring-up, before init opens /dev/console. */
	fs_init();
	/* The tracing arrays and their tracefs files: after fs_init made tracefs. */
	if (tracing_init())
		printk(KERN_ERR "tracing: init failed\n");
	/* Hist triggers and synthetic events: on top of the tracing core's files. */
	else if (trace_hist_init())
		printk(KERN_ERR "tracing: hist triggers failed to start\n");
	else if (trace_user_events_init())
		printk(KERN_ERR "tracing: no user_events\n");
	else if (trace_kprobe_init())
		printk(KERN_ERR "tracing: no kprobe_events\n");
	/* /sys/kernel/debug/static_keys: tracefs_init made /sys/kernel/debug. */
	if (jump_label_debugfs_init())
		printk(KERN_ERR "jump_label: no /sys/kernel/debug/static_keys\n");
	if (kprobes_debugfs_init())
		printk(KERN_ERR "kprobes: no /sys/kernel/debug/kprobes\n");
	sched_start_init(kernel_init, NULL);
}
