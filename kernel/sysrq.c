/*
 * /proc/sysrq-trigger: Linux's magic SysRq keys, written as characters.
 * 'c' crashes the kernel on purpose (a NULL dereference: the oops report
 * and panic path, which boot tests check); 't' shows every task's state
 * and where it sleeps; 'l' where every other CPU is (an NMI asks each);
 * 'h' lists the keys.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/sysrq.h>
#include <kernel/sched.h>
#include <kernel/smp.h>

static noinline void sysrq_crash(void)
{
	volatile int *null = NULL;

	printk(KERN_EMERG "sysrq: Trigger a crash\n");
	*null = 1;
}

static void sysrq_help(void)
{
	printk(KERN_INFO "sysrq: HELP : crash(c) help(h) show-backtrace-all-active-cpus(l) show-task-states(t)\n");
}

static ssize_t sysrq_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	for (size_t i = 0; i < count; i++) {
		switch (buf[i]) {
		case 'c':
			sysrq_crash();
			break;
		case 'h':
			sysrq_help();
			break;
		case 'l':
			printk(KERN_INFO "sysrq: Show backtrace of all active CPUs\n");
			trigger_all_cpu_backtrace();
			break;
		case 't':
			printk(KERN_INFO "sysrq: Show State\n");
			show_state();
			break;
		case '\n':
		case ' ':
			continue;
		default:
			sysrq_help();
			return -EINVAL;
		}
		break;	/* Linux acts on the first key only */
	}
	return (ssize_t)count;
}

const struct file_operations sysrq_trigger_fops = {
	.write = sysrq_write,
};
