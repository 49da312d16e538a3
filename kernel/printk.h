/*
 * printk with Linux's log levels: a message starts with KERN_<LEVEL>
 * ("\001" and a digit); none means KERN_DEFAULT. Messages above the
 * console loglevel (loglevel= on the command line) only reach the log.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <kernel/types.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_DEFAULT	""
#define KERN_CONT	KERN_SOH "c"

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap) __printf(1, 0);

#define pr_emerg(...)	printk(KERN_EMERG __VA_ARGS__)
#define pr_err(...)	printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...)	printk(KERN_WARNING __VA_ARGS__)
#define pr_notice(...)	printk(KERN_NOTICE __VA_ARGS__)
#define pr_info(...)	printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...)	printk(KERN_DEBUG __VA_ARGS__)
#define pr_cont(...)	printk(KERN_CONT __VA_ARGS__)

__noreturn void panic(const char *fmt, ...) __printf(1, 2);

#define BUG_ON(c) do { if (unlikely(c)) panic("BUG at %s:%d: %s", __FILE__, __LINE__, #c); } while (0)
#define BUG() panic("BUG at %s:%d", __FILE__, __LINE__)
/* Braced inside: `if (WARN_ON(x)) ...` trips no misleading-indentation warning. */
#define WARN_ON(c) ({								\
	bool __w = !!(c);							\
	if (unlikely(__w)) {							\
		printk(KERN_WARNING "WARNING at %s:%d: %s\n", __FILE__, __LINE__, #c); \
	}									\
	unlikely(__w);								\
})

#endif
