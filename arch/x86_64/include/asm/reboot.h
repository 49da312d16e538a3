/* Leaving the machine. */
#ifndef ASM_REBOOT_H
#define ASM_REBOOT_H

/*
 * QEMU's isa-debug-exit device (iobase 0xf4) ends QEMU with status
 * (value << 1) | 1; panic writes PANIC_EXIT_VALUE, so QEMU exits with 33.
 */
#define DEBUG_EXIT_PORT		0xf4
#define PANIC_EXIT_VALUE	0x10

/* After a panic: tell QEMU (if it listens), then halt this CPU forever. */
__attribute__((noreturn)) void machine_panic_exit(void);

#endif
