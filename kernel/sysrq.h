/* Magic SysRq keys through /proc/sysrq-trigger (kernel/sysrq.c). */
#ifndef KERNEL_SYSRQ_H
#define KERNEL_SYSRQ_H

#include <kernel/fs/fs.h>

extern const struct file_operations sysrq_trigger_fops;

#endif
