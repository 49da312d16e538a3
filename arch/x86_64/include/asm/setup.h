/* Boot-time setup of the machine (arch/x86_64/setup.c). */
#ifndef ASM_SETUP_H
#define ASM_SETUP_H

#include <kernel/types.h>

/*
 * Parses the loader's info (boot_info, boot_cmdline; applies loglevel=),
 * builds the final page tables and brings up the page allocator and
 * kmalloc. Boot CPU, once, after the IDT is loaded.
 */
void setup_arch(u32 magic, u32 info_phys);

#endif
