/*
 * Console output goes to the serial port; input comes back through a byte
 * ring, filled by the serial receive interrupt. Ctrl-C is the terminal's
 * interrupt key: with a foreground task set it becomes SIGINT for that
 * task instead of input, as a tty's ISIG would make it. Under `spoor exec`
 * the output is framed so the runner can keep stderr apart from stdout
 * (kernel/console_frame.h).
 */
#include <kernel/console.h>
#include <kernel/string.h>
#include <kernel/preempt.h>
#include <kernel/wait.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/printk.h>
#include <asm/serial.h>
#include <asm/irq.h>
#include <asm/apic.h>

#define CONSOLE_INPUT_SIZE	4096
/* Bytes written per turn at the lock: interrupts stay off for that long. */
#define CONSOLE_WRITE_PIECE	256

static char input_buf[CONSOLE_INPUT_SIZE];
static u64 input_head, input_tail;	/* bytes ever queued / read */
static DEFINE_SPINLOCK(input_lock);
static DECLARE_WAIT_QUEUE_HEAD(input_wait);
static pid_t foreground_pid;
static bool rx_irq;		/* the receive interrupt fills the ring */

static DEFINE_SPINLOCK(output_lock);
static bool framing;		/* spoor exec: streams marked, ESC bytes doubled */
static enum console_stream output_stream = CONSOLE_STDOUT;	/* what the runner takes bytes for */
static bool lock_busted;	/* a panic: the lock may be held by a stopped CPU */
static DEFINE_MUTEX(console_mutex);

void console_start_framing(void)
{
	WRITE_ONCE(framing, true);
}

void console_bust_lock(void)
{
	WRITE_ONCE(lock_busted, true);
}

void console_lock(void)
{
	mutex_lock(&console_mutex);
}

void console_unlock(void)
{
	mutex_unlock(&console_mutex);
}

/* One piece, the lock held (or given up on). */
static void write_piece(enum console_stream stream, const char *s, size_t n)
{
	if (!READ_ONCE(framing)) {
		serial_write(s, n);
		return;
	}
	if (stream != output_stream) {
		char mark[2] = { CONSOLE_FRAME_ESC,
				 stream == CONSOLE_STDERR ? CONSOLE_FRAME_STDERR : CONSOLE_FRAME_STDOUT };

		serial_write(mark, 2);
		output_stream = stream;
	}
	while (n) {
		const char *esc = memchr(s, CONSOLE_FRAME_ESC, n);
		size_t run = esc ? (size_t)(esc - s) + 1 : n;

		serial_write(s, run);
		if (esc)
			serial_putc(CONSOLE_FRAME_ESC);
		s += run;
		n -= run;
	}
}

void console_write_stream(enum console_stream stream, const char *s, size_t n)
{
	while (n) {
		size_t piece = n < CONSOLE_WRITE_PIECE ? n : CONSOLE_WRITE_PIECE;
		unsigned long flags;
		bool locked;

		local_irq_save(flags);
		if (in_nmi() || READ_ONCE(lock_busted)) {
			locked = arch_spin_trylock(&output_lock);
		} else {
			arch_spin_lock(&output_lock);
			locked = true;
		}
		write_piece(stream, s, piece);
		if (locked)
			arch_spin_unlock(&output_lock);
		local_irq_restore(flags);
		s += piece;
		n -= piece;
	}
}

void console_write(const char *s, size_t n)
{
	console_write_stream(CONSOLE_STDOUT, s, n);
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
		console_write("^C", 2);
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
