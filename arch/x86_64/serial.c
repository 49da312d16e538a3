/*
 * 16550 UART on COM1: the console. Output is polled (it must work from
 * panic and NMI context); input arrives by interrupt (IRQ 4) once
 * serial_enable_rx_irq() is called and is handed to the console layer.
 */
#include <kernel/types.h>
#include <asm/io.h>
#include <asm/serial.h>

#define COM1 0x3f8

void serial_init(void)
{
	outb(COM1 + 1, 0x00);	/* no interrupts yet */
	outb(COM1 + 3, 0x80);	/* DLAB */
	outb(COM1 + 0, 0x01);	/* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);	/* 8N1 */
	outb(COM1 + 2, 0xC7);	/* FIFO on, cleared, 14-byte threshold */
	outb(COM1 + 4, 0x0B);	/* DTR, RTS, OUT2 (irq line enable) */
}

void serial_putc(char c)
{
	while (!(inb(COM1 + 5) & 0x20))
		;
	outb(COM1, (u8)c);
}

void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

int serial_getc_nowait(void)
{
	if (!(inb(COM1 + 5) & 0x01))
		return -1;
	return inb(COM1);
}

void serial_enable_rx_irq(void)
{
	outb(COM1 + 1, 0x01);	/* received-data-available interrupt */
}
