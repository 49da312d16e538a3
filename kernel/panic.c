/*
 * panic: say why, show where, stop every CPU, and tell QEMU (exit status
 * 33 through isa-debug-exit) so a test run ends at once with a distinct
 * status. A panic inside a panic (a fault while printing the report) just
 * stops the CPU.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/console.h>
#include <kernel/string.h>
#include <kernel/stacktrace.h>
#include <kernel/percpu.h>
#include <asm/irqflags.h>
#include <asm/reboot.h>
#include <kernel/smp.h>
#include <trace/trace.h>

static int panic_cpu = -1;

void panic(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int cpu, old = -1;

	arch_local_irq_disable();
	cpu = smp_processor_id();
	if (!__atomic_compare_exchange_n(&panic_cpu, &old, cpu, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		/* Another CPU (or this one, recursively) is already panicking. */
		for (;;)
			__asm__ __volatile__("cli; hlt");
	}
	/* The CPUs stopped below may hold the console lock: never wait for it. */
	console_bust_lock();
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", buf);
	printk(KERN_EMERG "CPU: %d\n", cpu);
	dump_stack();
	trace_boot_dump_on_oops();
	smp_send_stop();
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", buf);
	machine_panic_exit();
}
