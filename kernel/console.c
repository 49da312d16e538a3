/* Console output goes to the serial port; input comes back through a byte ring. */
#include <kernel/console.h>
#include <kernel/wait.h>
#include <asm/serial.h>

#define CONSOLE_INPUT_SIZE	4096

static char input_buf[CONSOLE_INPUT_SIZE];
static u64 input_head, input_tail;	/* bytes ever queued / read */
static DEFINE_SPINLOCK(input_lock);
static DECLARE_WAIT_QUEUE_HEAD(input_wait);

void console_write(const char *s, size_t n)
{
	serial_write(s, n);
}

void console_input(const char *s, size_t n)
{
	unsigned long flags;

	spin_lock_irqsave(&input_lock, flags);
	for (size_t i = 0; i < n; i++) {
		if (input_head - input_tail == CONSOLE_INPUT_SIZE)
			break;	/* nobody reads: drop, like a full tty */
		input_buf[input_head++ % CONSOLE_INPUT_SIZE] = s[i];
	}
	spin_unlock_irqrestore(&input_lock, flags);
	wake_up_interruptible(&input_wait);
}

/* Move what the port holds into the ring (for when no interrupt does). */
static bool console_poll(void)
{
	char c;
	int ch;

	while ((ch = serial_getc_nowait()) >= 0) {
		c = (char)ch;
		console_input(&c, 1);
	}
	return READ_ONCE(input_head) != READ_ONCE(input_tail);
}

ssize_t console_read(char *buf, size_t len)
{
	unsigned long flags;
	size_t n = 0;

	if (!len)
		return 0;
	/* Another reader may take the bytes first: then wait again. */
	while (!n) {
		while (!console_poll()) {
			if (wait_event_interruptible_timeout(input_wait, console_poll(), 1) < 0)
				return -EINTR;
		}
		spin_lock_irqsave(&input_lock, flags);
		while (n < len && input_tail != input_head)
			buf[n++] = input_buf[input_tail++ % CONSOLE_INPUT_SIZE];
		spin_unlock_irqrestore(&input_lock, flags);
	}
	return (ssize_t)n;
}
