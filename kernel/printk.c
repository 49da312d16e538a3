/*
 * printk: format, stamp with "[    5.123456] ", append to the kernel log
 * (a byte ring that dmesg reads) and write to the console if the level is
 * below console_loglevel. One lock serializes lines across CPUs; an NMI
 * that finds it taken writes straight to the console instead of waiting
 * for a holder it may have interrupted.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/console.h>

#define LOG_SIZE (128 * 1024)

static char log_buf[LOG_SIZE];
static u64 log_head;		/* bytes ever written; the ring holds the last LOG_SIZE */
static DEFINE_SPINLOCK(printk_lock);
int console_loglevel = 7;

static void log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) % LOG_SIZE] = s[i];
	log_head += n;
}

size_t printk_log_read(u64 pos, char *buf, size_t len)
{
	u64 start = log_head > LOG_SIZE ? log_head - LOG_SIZE : 0;
	size_t n = 0;

	if (pos < start)
		pos = start;
	for (; pos < log_head && n < len; pos++)
		buf[n++] = log_buf[pos % LOG_SIZE];
	return n;
}

u64 printk_log_head(void)
{
	return log_head;
}

u64 printk_log_tail(void)
{
	return log_head > LOG_SIZE ? log_head - LOG_SIZE : 0;
}

int vprintk(const char *fmt, va_list ap)
{
	char line[1024];
	int level = 4, n = 0;	/* KERN_DEFAULT is KERN_WARNING's level */
	bool cont = false, locked;
	unsigned long flags;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			cont = true;
		else
			level = fmt[1] - '0';
		fmt += 2;
	}
	if (!cont) {
		u64 ns = ktime_get_ns();

		n = snprintf(line, sizeof(line), "[%5lu.%06lu] ",
			     (unsigned long)(ns / 1000000000), (unsigned long)(ns % 1000000000) / 1000);
	}
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;

	local_irq_save(flags);
	if (in_nmi()) {
		locked = arch_spin_trylock(&printk_lock);
	} else {
		arch_spin_lock(&printk_lock);
		locked = true;
	}
	if (locked)
		log_store(line, (size_t)n);
	if (level < console_loglevel)
		console_write(line, (size_t)n);
	if (locked)
		arch_spin_unlock(&printk_lock);
	local_irq_restore(flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
