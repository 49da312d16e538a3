/* panic: report and stop. */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/string.h>

void panic(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	__asm__ __volatile__("cli");
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", buf);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

void preempt_schedule(void)
{
}
