/* The COM1 16550 UART (arch/x86_64/serial.c). */
#ifndef ASM_SERIAL_H
#define ASM_SERIAL_H

#include <kernel/types.h>

#define SERIAL_IRQ 4

void serial_init(void);
void serial_putc(char c);
/* Writes n bytes, turning \n into \r\n. Polled: safe in any context. */
void serial_write(const char *s, size_t n);
/* A received byte, or -1 if none is waiting. */
int serial_getc_nowait(void);
void serial_enable_rx_irq(void);

#endif
