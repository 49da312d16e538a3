/*
 * The system console: output to COM1, input bytes from its interrupt into
 * a buffer the shell reads. printk, the shell and /dev/console use it.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <kernel/types.h>
#include <kernel/console_frame.h>

extern int console_loglevel;

/*
 * Any context. Writers on several CPUs take turns a piece (a few hundred
 * bytes) at a time; an NMI, or a panic once console_bust_lock() ran, does
 * not wait for a holder it may have stopped and writes at once.
 */
void console_write(const char *s, size_t n);
/* The same to stream (stdout is what console_write writes). */
void console_write_stream(enum console_stream stream, const char *s, size_t n);
/*
 * From now on frame the output so the two streams can be told apart
 * (kernel/console_frame.h): `spoor exec` mode, before its first script.
 */
void console_start_framing(void);
/* A panic: never wait for the console lock again (another CPU may hold it, stopped). */
void console_bust_lock(void);
/*
 * A task's hold on the console (Linux's console_lock, a sleeping lock):
 * /dev/console takes it for a whole write(2), so the bytes of one write
 * reach the port in one run, never cut by another task's. Task context
 * only; printk and NMIs do not wait for it (their lines may still land
 * between two pieces of a task's write).
 */
void console_lock(void);
void console_unlock(void);

/*
 * Input. console_input queues received bytes (the serial receive
 * interrupt; any context but NMI); console_read blocks until at least one
 * byte is there and returns up to len of them, or -EINTR on a signal.
 * It sleeps until the receive interrupt comes; only without one does it
 * poll the port once a tick.
 */
void console_input(const char *s, size_t n);
ssize_t console_read(char *buf, size_t len);

#define CONSOLE_INTR_CHAR	0x03	/* Ctrl-C */
/*
 * The task a Ctrl-C interrupts (SIGINT); 0 when none, and then Ctrl-C is
 * ordinary input (the shell's line editor cancels its line on it).
 */
void console_set_foreground(pid_t pid);
/* Take COM1's receive interrupt for the console (after apic_init routed it). */
void console_init_irq(void);

/* The kernel log (dmesg): copy bytes from log position pos; returns count. */
size_t printk_log_read(u64 pos, char *buf, size_t len);
u64 printk_log_head(void);
/* The oldest position the log still holds. */
u64 printk_log_tail(void);

#endif
