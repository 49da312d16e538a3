/* start_kernel: the boot CPU's path from the loader to a running system. */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <asm/serial.h>
#include <asm/segment.h>
#include <asm/idt.h>
#include <kernel/fs/fs_boot.h>

void start_kernel(u32 magic, u32 info_phys);

void start_kernel(u32 magic, u32 info_phys)
{
	serial_init();
	printk(KERN_INFO "Spoor booting (loader magic %#x, info at %#x)\n", magic, info_phys);
	gdt_init_cpu();
	idt_init();
	/* After memory and SMP bring-up, before init opens /dev/console. */
	fs_init();
	for (;;)
		__asm__ __volatile__("cli; hlt");
}
