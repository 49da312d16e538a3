/* Machine exits. */
#include <kernel/types.h>
#include <asm/io.h>
#include <asm/reboot.h>

void machine_panic_exit(void)
{
	outb(DEBUG_EXIT_PORT, PANIC_EXIT_VALUE);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}
