/* Console output goes to the serial port. */
#include <kernel/console.h>
#include <asm/serial.h>

void console_write(const char *s, size_t n)
{
	serial_write(s, n);
}
