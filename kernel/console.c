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
static bool rx_irq;		/* the receive interrupt fills the ring */

void console_write(const char *s, size_t n)
{
	serial_write(s, n);
}

/* Queue bytes; returns true if a Ctrl-C for the foreground task was among them. */
static bool queue_input(const char *s, size_t n)
{
	bool intr = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == CONSOLE_INTR_CHAR && READ_ONCE(foreground_pid) > 0) {
			intr = true;
			continue;
		}
		if (input_head - input_tail == CONSOLE_INPUT_SIZE)
			break;	/* nobody reads: drop, like a full tty */
		input_buf[input_head++ % CONSOLE_INPUT_SIZE] = s[i];
	}
	return intr;
}

static void input_done(bool intr)
{
	pid_t fg = READ_ONCE(foreground_pid);

	if (intr && fg > 0) {
		/* Echo it as a tty with ECHOCTL does: the user sees the key took. */
		serial_write("^C", 2);
		task_kill(fg, SIGINT);
	}
	wake_up_interruptible(&input_wait);
}

void console_input(const char *s, size_t n)
{
	unsigned long flags;
	bool intr;

	spin_lock_irqsave(&input_lock, flags);
	intr = queue_input(s, n);
	spin_unlock_irqrestore(&input_lock, flags);
	input_done(intr);
}

/*
 * Move what the UART holds into the ring. Reading the port and queueing
 * happen under one lock, so the receive interrupt and a polling reader on
 * another CPU cannot reorder bytes between them.
 */
static bool console_drain_uart(void)
{
	unsigned long flags;
	bool intr = false, got = false, any;
	int ch;

	spin_lock_irqsave(&input_lock, flags);
	while ((ch = serial_getc_nowait()) >= 0) {
		char c = (char)ch;

		intr |= queue_input(&c, 1);
		got = true;
	}
	any = input_head != input_tail;
	spin_unlock_irqrestore(&input_lock, flags);
	/* Only new bytes wake readers: a reader polls this from its wait condition. */
	if (got)
		input_done(intr);
	return any;
}

ssize_t console_read(char *buf, size_t len)
{
	unsigned long flags;
	size_t n = 0;

	if (!len)
		return 0;
	/* Another reader may take the bytes first: then wait again. */
	while (!n) {
		/*
		 * Sleep until the receive interrupt queues a byte: an idle
		 * prompt must cost no wake-ups. Without the interrupt, poll
		 * the port once a tick.
		 */
		if (READ_ONCE(rx_irq)) {
			if (wait_event_interruptible(input_wait, console_drain_uart()) < 0)
				return -EINTR;
		} else {
			while (!console_drain_uart()) {
				if (wait_event_interruptible_timeout(input_wait, console_drain_uart(), 1) < 0)
					return -EINTR;
			}
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
	console_drain_uart();
}

void console_init_irq(void)
{
	/* apic_init routed IRQ 4 to this vector on the boot CPU. */
	if (irq_register_vector(ISA_IRQ_VECTOR(SERIAL_IRQ), serial_rx_interrupt) < 0) {
		printk(KERN_WARNING "console: no receive interrupt, polling COM1\n");
		return;
	}
	serial_enable_rx_irq();
	WRITE_ONCE(rx_irq, true);
}
