/*
 * Console output goes to the serial port; input comes back through a byte
 * ring, filled by the serial receive interrupt. Ctrl-C is the terminal's
 * interrupt key: with a foreground task set it becomes SIGINT for that
 * task instead of input, as a tty's ISIG would make it.
 */
#include <kernel/console.h>
#include <kernel/wait.h>
#include <kernel/sched.h>
#include <kernel/printk.h>
#include <asm/serial.h>
#include <asm/irq.h>
#include <asm/apic.h>

#define CONSOLE_INPUT_SIZE	4096

static char input_buf[CONSOLE_INPUT_SIZE];
static u64 input_head, input_tail;	/* bytes ever queued / read */
static DEFINE_SPINLOCK(input_lock);
static DECLARE_WAIT_QUEUE_HEAD(input_wait);
static pid_t foreground_pid;

void console_write(const char *s, size_t n)
{
	serial_write(s, n);
}

void console_input(const char *s, size_t n)
{
	unsigned long flags;

	spin_lock_irqsave(&input_lock, flags);
	for (size_t i = 0; i < n; i++) {
		pid_t fg = READ_ONCE(foreground_pid);

		if (s[i] == CONSOLE_INTR_CHAR && fg > 0) {
			task_kill(fg, SIGINT);
			continue;
		}
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

void console_set_foreground(pid_t pid)
{
	WRITE_ONCE(foreground_pid, pid);
}

static void serial_rx_interrupt(struct pt_regs *regs)
{
	char buf[16];
	size_t n = 0;
	int ch;

	while ((ch = serial_getc_nowait()) >= 0) {
		buf[n++] = (char)ch;
		if (n == sizeof(buf)) {
			console_input(buf, n);
			n = 0;
		}
	}
	if (n)
		console_input(buf, n);
}

void console_init_irq(void)
{
	/* apic_init routed IRQ 4 to this vector on the boot CPU. */
	if (irq_register_vector(ISA_IRQ_VECTOR(SERIAL_IRQ), serial_rx_interrupt) < 0) {
		printk(KERN_WARNING "console: no receive interrupt, polling COM1\n");
		return;
	}
	serial_enable_rx_irq();
}
